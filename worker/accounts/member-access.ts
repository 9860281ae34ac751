import { z } from "@hono/zod-openapi";
import { access } from "../auth/scopes";
import { createRouter, defineRoute } from "../auth/router";
import { jsonResponse, problems } from "../lib/schemas";
import { ApiToken, revokeApiToken, TokenParams, tokensOf } from "./api-tokens";
import { endSessions, memberOf, sessionsOf } from "./members";
import { MemberParams, SessionInfo, SessionParams } from "./schemas";

/**
 * Another member's ways in, as an owner sees and ends them (a lost laptop, a leaked token, a leaver): their portal
 * sessions and personal API tokens, mounted at `/admin/v1/members`. `members:manage` (owners) for reads too: a
 * session shows where its member signs in from. Each write is audited by the access check like every other, the
 * path naming the member, and `before` what ended (docs/security.md#the-audit-trail).
 */
export const memberAccessRoutes = createRouter();

const tags = ["Members"];

/** The member named by the path, in the caller's organization (another organization's: 404). */
const member = (c: Parameters<typeof memberOf>[0], memberId: string) => memberOf(c, c.var.operator!.organizationId, memberId);

memberAccessRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/{memberId}/sessions",
    operationId: "listMemberSessions",
    tags,
    ...access.operator("members:manage"),
    summary: "A member's portal sessions",
    description: "Every session of the member still in force, with the address it was opened from; `current` marks the caller's own.",
    request: { params: MemberParams },
    responses: { 200: jsonResponse(z.object({ items: z.array(SessionInfo) }), "The sessions."), ...problems },
  }),
  async (c) => {
    const { id } = await member(c, c.req.valid("param").memberId);
    return c.json({ items: await sessionsOf(c, id) }, 200);
  },
);

memberAccessRoutes.openapi(
  defineRoute({
    method: "delete",
    path: "/{memberId}/sessions",
    operationId: "endMemberSessions",
    tags,
    ...access.operator("members:manage"),
    summary: "End every session of a member",
    description: "Their next call answers 401; their personal API tokens stay (revoke those one by one).",
    request: { params: MemberParams },
    responses: { 204: { description: "Ended." }, ...problems },
  }),
  async (c) => {
    const { id } = await member(c, c.req.valid("param").memberId);
    await endSessions(c, id);
    return c.body(null, 204);
  },
);

memberAccessRoutes.openapi(
  defineRoute({
    method: "delete",
    path: "/{memberId}/sessions/{sessionId}",
    operationId: "endMemberSession",
    tags,
    ...access.operator("members:manage"),
    summary: "End one session of a member",
    request: { params: MemberParams.merge(SessionParams) },
    responses: { 204: { description: "Ended." }, ...problems },
  }),
  async (c) => {
    const { memberId, sessionId } = c.req.valid("param");
    const [ended] = await endSessions(c, (await member(c, memberId)).id, sessionId);
    c.set("auditChange", { before: ended });
    return c.body(null, 204);
  },
);

memberAccessRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/{memberId}/api-tokens",
    operationId: "listMemberApiTokens",
    tags,
    ...access.operator("members:manage"),
    summary: "A member's personal API tokens",
    description: "Those not revoked, expired ones included. Never the tokens themselves.",
    request: { params: MemberParams },
    responses: { 200: jsonResponse(z.object({ items: z.array(ApiToken) }), "The tokens."), ...problems },
  }),
  async (c) => {
    const { id } = await member(c, c.req.valid("param").memberId);
    return c.json({ items: await tokensOf(c, id) }, 200);
  },
);

memberAccessRoutes.openapi(
  defineRoute({
    method: "delete",
    path: "/{memberId}/api-tokens/{tokenId}",
    operationId: "revokeMemberApiToken",
    tags,
    ...access.operator("members:manage"),
    summary: "Revoke one of a member's personal API tokens",
    description: "From then on it answers 401 `token_revoked`.",
    request: { params: MemberParams.merge(TokenParams) },
    responses: { 204: { description: "Revoked." }, ...problems },
  }),
  async (c) => {
    const { memberId, tokenId } = c.req.valid("param");
    c.set("auditChange", { before: await revokeApiToken(c, (await member(c, memberId)).id, tokenId) });
    return c.body(null, 204);
  },
);
