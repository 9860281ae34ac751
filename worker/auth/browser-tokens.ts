import { z } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { aliases, identities } from "../identities/table";
import { randomSecret, sha256Hex } from "../lib/crypto";
import { getDb } from "../lib/db";
import { ApiError, forbidden, notFound } from "../lib/errors";
import { limitRate } from "../limits/rate-limits";
import { newId } from "../lib/ids";
import { createRouter, defineRoute } from "../lib/router";
import { jsonBody, jsonResponse, problems } from "../lib/schemas";
import { createdResponse } from "../lib/preconditions";
import { now } from "../lib/time";
import type { AppEnv, Caller, Databases, Env } from "../env";
import type { Context } from "hono";
import { readClient, secretVersionOf } from "./clients-cache";
import { webClientForOrigin } from "./browser-origins";
import { access, identityScopedScopes, scopesOfClient, type ClientType, type Scope } from "./scopes";
import type { clients } from "./table";

type Client = typeof clients.$inferSelect;
import { issueToken, issuerOf, tokenTtl } from "./tokens";
import { scanAliasOf, scanAliasType, scanPassHeader, scanPassOf } from "../scans/pass";

/** Visitor tokens for pages, mounted at `/browser/v1/projects/{project_id}`. */
export const visitorTokenRoutes = createRouter();

/** Identity-scoped tokens a backend mints, mounted at the project's `/identities`. */
export const identityTokenRoutes = createRouter();

/** Alias type under which a visitor key's SHA-256 is stored: the key itself never leaves the browser's storage. */
export const visitorAliasType = "urn:svc:assent-visitor";
/** Identity-scoped tokens live at most 15 minutes: they sit in pages and webviews, not on servers. */
export const browserTokenTtlSeconds = 900;

const ttlFor = (env: Parameters<typeof tokenTtl>[0]) => Math.min(tokenTtl(env), browserTokenTtlSeconds);
/** What every identity-scoped token holds (worker/auth/scopes.ts). */
export const identityTokenScopes = Object.keys(identityScopedScopes) as Scope[];

export const VisitorKey = z
  .string()
  .regex(/^avk_[A-Za-z0-9_-]{43}$/, "A visitor key as returned by this endpoint (avk_ and 43 base64url characters).")
  .openapi({ example: "avk_0n3Yc2m1bq2k3X4v5w6x7y8z9A0B1C2D3E4F5G6H7I8" });

const VisitorTokenInput = z
  .strictObject({
    visitorKey: VisitorKey.optional().openapi({
      description: "The key a previous call returned, kept by the browser; omit it on a first visit.",
    }),
  })
  .openapi("VisitorTokenInput");

export const BrowserToken = z
  .object({
    access_token: z.string(),
    token_type: z.literal("Bearer"),
    expires_in: z.number().int(),
    identityId: z.string(),
  })
  .openapi("BrowserToken");

export const VisitorToken = BrowserToken.extend({
  visitorKey: VisitorKey.openapi({ description: "Keep it (the widget uses localStorage) to come back as the same identity." }),
}).openapi("VisitorToken");

const noStore = { "Cache-Control": "no-store", Pragma: "no-cache" };

visitorTokenRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/visitor-tokens",
    operationId: "mintVisitorToken",
    tags: ["Browser tokens"],
    ...access.public,
    summary: "Mint an identity-scoped token for an anonymous visitor (from the page)",
    description:
      "Called by the consent widget from a page, without any secret. The request's `Origin` must be listed in " +
      "`allowedOrigins` of one of the project's `web` clients; the token is issued for that client and scoped to one " +
      "identity (scope rules: docs/security.md#browser-tokens).\n\n" +
      "A first visit (no `visitorKey`) creates an identity with a fresh random visitor key and returns both (201). " +
      "The key's SHA-256 is stored as the identity's alias of type `urn:svc:assent-visitor`; presenting the key again " +
      "returns a token for the same identity (200). Without the key nobody can get a token for an existing identity, " +
      "so identity ids are not bearer credentials. An unknown key (for instance after the identity was erased) is " +
      "treated as a first visit: a new identity and a new key.\n\n" +
      "The `Origin` check keeps other websites from using the client in browsers; it is not authentication (a " +
      "non-browser caller can send any `Origin`), which is why these tokens can only touch their own identity. " +
      "Rate-limited per client IP and per project (429 with `Retry-After`); identities that never record anything " +
      "are purged after `RETENTION_IDLE_VISITOR_DAYS`.",
    request: {
      params: z.object({ project_id: z.string() }),
      body: jsonBody(VisitorTokenInput),
    },
    responses: {
      200: jsonResponse(VisitorToken, "A token for the returning visitor's identity."),
      201: createdResponse(VisitorToken, "A new identity for a first-time visitor, its key and a token; `Location` names the identity.", false),
      ...problems,
    },
  }),
  async (c) => {
    const { project_id: projectId } = c.req.valid("param");
    const visitor = await admitVisitor(c, projectId, c.req.valid("json").visitorKey);
    const token = await mintVisitorToken(c.env, visitor);
    if (visitor.created) c.header("Location", `/privacy/v2/projects/${projectId}/identities/${token.identityId}`);
    return c.json(token, visitor.created ? 201 : 200, noStore);
  },
);

identityTokenRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/{identityId}/tokens",
    operationId: "mintIdentityToken",
    tags: ["Browser tokens"],
    ...access.project("tokens:mint"),
    summary: "Mint a token scoped to one identity, for a page or webview",
    description:
      "A backend client mints a short-lived token (at most 15 minutes) for an identity it knows and hands it to " +
      "the consent widget (`token` or `tokenProvider`). The token may read the configuration, that identity and its " +
      "permission state, and record permissions and objections for it; anything else is 403 `insufficient_scope`. " +
      "Needs `tokens:mint`, which only `backend` clients hold: the secrets of web and app clients are not secret.",
    request: { params: z.object({ project_id: z.string(), identityId: z.string() }) },
    responses: { 200: jsonResponse(BrowserToken, "A token scoped to the identity."), ...problems },
  }),
  async (c) => {
    const caller = c.get("caller");
    const { identityId } = c.req.valid("param");
    const db = getDb(c.var.db);
    const [identity] = await db
      .select({ id: identities.id })
      .from(identities)
      .where(and(eq(identities.projectId, caller.projectId), eq(identities.id, identityId)))
      .limit(1);
    if (!identity) throw notFound("Identity");
    return c.json(await identityTokenFor(c.env, c.var.databases, caller, identityId), 200, noStore);
  },
);

/** A token scoped to `identityId`, minted for the calling client (backend minting, public clients' new identities). */
export async function identityTokenFor(
  env: Env,
  databases: Databases,
  caller: Caller,
  identityId: string,
): Promise<z.infer<typeof BrowserToken>> {
  const client = await readClient(env, databases, caller.clientId, caller.projectId);
  if (!client) throw forbidden("Only registered clients may receive identity-scoped tokens.");
  const ttl = ttlFor(env);
  const { token } = await issueToken(
    env,
    issuerOf(env),
    {
      clientId: caller.clientId,
      pid: caller.projectId,
      ctp: caller.clientType,
      sv: client.secretVersion,
      idn: identityId,
      scopes: identityTokenScopes,
    },
    ttl,
  );
  return { access_token: token, token_type: "Bearer", expires_in: ttl, identityId };
}

/* Shared with the bootstrap (worker/bootstrap): who a page's visitor is, and their token. */

export type VisitorIdentity = {
  projectId: string;
  client: { id: string; type: ClientType; secretHash: string };
  identityId: string;
  visitorKey: string;
  created: boolean;
};

/**
 * The identity a page's visitor key names, or a new identity with a new key for a first visit (or a key that
 * names nothing, such as after an erasure). Rate-limited per address and per project; only for an `Origin`
 * listed by one of the project's web clients that may create identities (403 otherwise). The client check and
 * the key lookup run concurrently.
 */
export async function admitVisitor(
  c: Context<AppEnv>,
  projectId: string,
  presented?: string,
  prefetched?: { client: Client | undefined; knownIdentityId: string | undefined },
): Promise<VisitorIdentity> {
  // The project's own scanner makes three visitors a page from one address: its pass spares it the address limit.
  const passId = await scanPassOf(c.env, projectId, c.req.header(scanPassHeader));
  if (!passId) await limitRate(c, "VISITOR_TOKENS_IP_LIMITER");
  await limitRate(c, "VISITOR_TOKENS_PROJECT_LIMITER", projectId);
  const origin = c.req.header("origin");
  if (!origin || origin === "null") {
    throw new ApiError(403, "origin_not_allowed", "Visitor tokens are minted only for pages: send an Origin header.");
  }
  const db = getDb(c.var.db);
  // The bootstrap reads both in the batch of its other reads (one round trip); alone, they run concurrently.
  const [client, known] = prefetched
    ? [prefetched.client, prefetched.knownIdentityId ? { identityId: prefetched.knownIdentityId } : undefined]
    : await Promise.all([
        webClientForOrigin(c.var.db, projectId, origin),
        presented
          ? db
              .select({ identityId: aliases.identityId })
              .from(aliases)
              .where(and(eq(aliases.projectId, projectId), eq(aliases.type, visitorAliasType), eq(aliases.identifier, await sha256Hex(presented))))
              .limit(1)
              .then((rows) => rows[0])
          : undefined,
      ]);
  if (!client) {
    throw new ApiError(
      403,
      "origin_not_allowed",
      `No web client of project ${projectId} lists the origin ${origin}. Add it to a web client's allowed origins: ` +
        `${issuerOf(c.env)}/portal/projects/${projectId}/clients (or PUT /admin/v1/projects/${projectId}/clients/{clientId}).`,
    );
  }
  if (!scopesOfClient(client.type, client.scopes).includes("identities:create")) {
    throw new ApiError(403, "insufficient_scope", "The web client for this origin may not create identities.");
  }
  if (presented && known) return { projectId, client, identityId: known.identityId, visitorKey: presented, created: false };
  const visitorKey = randomSecret("avk");
  const identityId = newId("idn");
  const stamp = now();
  const made = [
    { projectId, identityId, type: visitorAliasType, identifier: await sha256Hex(visitorKey) },
    ...(passId ? [{ projectId, identityId, type: scanAliasType, identifier: scanAliasOf(passId, identityId) }] : []),
  ];
  await db.batch([
    db.insert(identities).values({ id: identityId, projectId, referenceId: null, created: stamp, updated: stamp }),
    db.insert(aliases).values(made),
  ]);
  return { projectId, client, identityId, visitorKey, created: true };
}

/** A token scoped to the visitor's identity, issued for the web client that lists the page's origin. */
export async function mintVisitorToken(env: Env, visitor: VisitorIdentity) {
  const ttl = ttlFor(env);
  const { client, projectId, identityId } = visitor;
  const { token } = await issueToken(
    env,
    issuerOf(env),
    { clientId: client.id, pid: projectId, ctp: client.type, sv: secretVersionOf(client.secretHash), idn: identityId, scopes: identityTokenScopes },
    ttl,
  );
  return { access_token: token, token_type: "Bearer" as const, expires_in: ttl, identityId, visitorKey: visitor.visitorKey };
}
