import { z } from "@hono/zod-openapi";
import { and, desc, eq, isNull } from "drizzle-orm";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { apiTokenPrefix } from "../auth/api-token";
import { accountsDb, callingMember, type Operator } from "../auth/operators";
import { createRouter, defineRoute } from "../auth/router";
import { roleScopes } from "../auth/roles";
import { access, allScopes, type Scope } from "../auth/scopes";
import { base64url, sha256Hex } from "../lib/crypto";
import { ApiError, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { jsonBody, jsonResponse, problems, Timestamp } from "../lib/schemas";
import { now } from "../lib/time";
import { apiTokens, projectRoles } from "./table";

/** The signed-in member's personal API tokens, mounted at `/portal/api` (a session only: a token makes no tokens). */
export const apiTokenRoutes = createRouter();

const tags = ["Members"];

const ApiTokenScopes = z.array(z.enum(allScopes as [Scope, ...Scope[]])).min(1).max(allScopes.length);

const NewApiToken = z
  .strictObject({
    name: z.string().min(1).max(100).openapi({ description: "What the token is for, as its member will recognise it." }),
    scopes: ApiTokenScopes.openapi({ description: "Within the member's role (403 `insufficient_scope` otherwise)." }),
    expiresInDays: z.number().int().min(1).max(366),
  })
  .openapi("NewApiToken");

export const ApiToken = z
  .object({ id: z.string(), name: z.string(), scopes: z.array(z.string()), created: Timestamp, expires: Timestamp })
  .openapi("ApiToken");

const CreatedApiToken = ApiToken.extend({
  token: z.string().openapi({ description: "Shown once; store it now. Only its hash is kept. Send it as `Authorization: Bearer …`." }),
}).openapi("CreatedApiToken");

export const TokenParams = z.object({ tokenId: z.string().min(1).max(100) });

/** What a member may put in a token: their organization role's scopes and those of their project roles. */
async function heldBy(c: Context<AppEnv>, operator: Operator & { memberId: string }): Promise<Set<Scope>> {
  const rows = await accountsDb(c).select({ role: projectRoles.role }).from(projectRoles).where(eq(projectRoles.memberId, operator.memberId));
  return new Set([operator.role, ...rows.map((row) => row.role)].flatMap((role) => roleScopes[role]));
}

const columns = { id: apiTokens.id, name: apiTokens.name, scopes: apiTokens.scopes, created: apiTokens.created, expires: apiTokens.expires };

/** A member's tokens not revoked, expired ones included (they answer 401 `token_expired`), newest first; never the secrets. */
export const tokensOf = (c: Context<AppEnv>, memberId: string) =>
  accountsDb(c)
    .select(columns)
    .from(apiTokens)
    .where(and(eq(apiTokens.memberId, memberId), isNull(apiTokens.revoked)))
    .orderBy(desc(apiTokens.created));

/** Revokes one of the member's tokens (404 when it is not theirs or already revoked); answers what was revoked. */
export async function revokeApiToken(c: Context<AppEnv>, memberId: string, tokenId: string) {
  const [revoked] = await accountsDb(c)
    .update(apiTokens)
    .set({ revoked: now() })
    .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.memberId, memberId), isNull(apiTokens.revoked)))
    .returning(columns);
  if (!revoked) throw notFound("API token");
  return revoked;
}

apiTokenRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/api-tokens",
    operationId: "listOwnApiTokens",
    tags,
    ...access.session,
    summary: "The signed-in member's API tokens",
    description: "Those not revoked, expired ones included (they answer 401 `token_expired`). Never the tokens themselves.",
    responses: { 200: jsonResponse(z.object({ items: z.array(ApiToken) }), "The tokens."), ...problems },
  }),
  async (c) => {
    const memberId = c.var.operator!.memberId;
    return c.json({ items: memberId === null ? [] : await tokensOf(c, memberId) }, 200);
  },
);

apiTokenRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/api-tokens",
    operationId: "createApiToken",
    tags,
    ...access.session,
    summary: "Make a personal API token",
    description:
      "A bearer credential for the admin and project APIs (`Authorization: Bearer apt_…`), acting as the member with " +
      "the scopes asked for, within what their role holds at each use (docs/security.md#personal-api-tokens). Asking " +
      "for a scope the member's roles lack is 403 `insufficient_scope`, and audited. Shown once; only its hash is kept.",
    request: { body: jsonBody(NewApiToken) },
    responses: { 201: jsonResponse(CreatedApiToken, "The token, shown this once."), ...problems },
  }),
  async (c) => {
    const operator = callingMember(c);
    const { name, scopes, expiresInDays } = c.req.valid("json");
    const held = await heldBy(c, operator);
    const lacking = scopes.filter((scope) => !held.has(scope));
    if (lacking.length > 0) throw new ApiError(403, "insufficient_scope", `Your role lacks the scope ${lacking.join(" ")}: a token holds your rights or fewer.`);
    const id = newId(apiTokenPrefix.slice(0, -1));
    const secret = base64url(crypto.getRandomValues(new Uint8Array(32)));
    const created = now();
    const expires = new Date(Date.now() + expiresInDays * 24 * 3600 * 1000).toISOString();
    const unique = [...new Set(scopes)];
    await accountsDb(c)
      .insert(apiTokens)
      .values({ id, memberId: operator.memberId, organizationId: operator.organizationId, name, secretHash: await sha256Hex(secret), scopes: unique, created, expires });
    return c.json({ id, name, scopes: unique, created, expires, token: `${id}.${secret}` }, 201);
  },
);

apiTokenRoutes.openapi(
  defineRoute({
    method: "delete",
    path: "/api-tokens/{tokenId}",
    operationId: "revokeOwnApiToken",
    tags,
    ...access.session,
    summary: "Revoke one of the signed-in member's API tokens",
    description: "From then on it answers 401 `token_revoked`.",
    request: { params: TokenParams },
    responses: { 204: { description: "Revoked." }, ...problems },
  }),
  async (c) => {
    const memberId = c.var.operator!.memberId;
    if (memberId === null) throw notFound("API token");
    await revokeApiToken(c, memberId, c.req.valid("param").tokenId);
    return c.body(null, 204);
  },
);
