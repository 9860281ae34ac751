import { z } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { identities } from "../identities/table";
import { getDb } from "../lib/db";
import { notFound } from "../lib/errors";
import { createRouter, defineRoute } from "./router";
import { jsonBody, jsonResponse, problems } from "../lib/schemas";
import { createdResponse } from "../lib/preconditions";
import { scanVisitorPass } from "../scans/pass";
import { admitVisitor, BrowserToken, identityTokenFor, mintVisitorToken, VisitorKey, VisitorToken } from "./browser-tokens";
import { access } from "./scopes";

/** Visitor tokens for pages, mounted at `/browser/v1/projects/{project_id}`. */
export const visitorTokenRoutes = createRouter();

/** Identity-scoped tokens a backend mints, mounted at the project's `/identities`. */
export const identityTokenRoutes = createRouter();

const VisitorTokenInput = z
  .strictObject({
    visitorKey: VisitorKey.optional().openapi({
      description: "The key a previous call returned, kept by the browser; omit it on a first visit.",
    }),
  })
  .openapi("VisitorTokenInput");

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
    const visitor = await admitVisitor(c, projectId, scanVisitorPass, c.req.valid("json").visitorKey);
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
