import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { access } from "../auth/scopes";
import { limitRate } from "../limits/rate-limits";
import { ApiError, notFound } from "../lib/errors";
import { createRouter, defineRoute } from "../auth/router";
import { jsonBody, jsonResponse, problems, Timestamp } from "../lib/schemas";
import { createdResponse } from "../lib/preconditions";
import { overviewRoute, readOverview } from "./overview";
import { csrfHeader, endSession, hasSessionCookie, readSession, requireSameOrigin, sessionCookie } from "../auth/portal-session";
import { signInWithAdminToken, signInWithLink } from "../accounts/sessions";
import { requestSignInLink } from "../accounts/sign-in";
import { sha256Hex } from "../lib/crypto";
import { grantsOf } from "../auth/operators";
import { roles } from "../auth/roles";
import { logger } from "../lib/logger";

/** The portal's session API and its shell, mounted at `/portal`. */
export const portalRoutes = createRouter();

/** The portal's overview of a project, mounted at `/admin/v1/projects/{project_id}/overview`. */
export const overviewRoutes = createRouter();

portalRoutes.openAPIRegistry.registerComponent("securitySchemes", "portalSession", {
  type: "apiKey",
  in: "cookie",
  name: sessionCookie,
  description:
    "The portal's session cookie (from `POST /portal/api/session`). It is accepted on `/admin/v1/*` and on " +
    `\`/privacy/v2/projects/{project_id}/*\` when no Authorization header is sent; unsafe methods also need the ` +
    `session's \`${csrfHeader}\` header and a same-origin \`Origin\`.`,
});

const Session = z
  .object({
    csrfToken: z.string().openapi({ description: `Send it as \`${csrfHeader}\` on every POST, PUT, PATCH and DELETE.` }),
    expires: Timestamp,
  })
  .openapi("PortalSession");

const Scopes = z.array(z.string());
/** The session as a reload finds it, with what its member may do, so pages can show what a role cannot change as read-only. */
const SessionState = Session.extend({
  role: z.enum(roles).openapi({ description: "The member's organization role (`owner` for the admin token's break-glass session)." }),
  scopes: Scopes.openapi({ description: "The scopes the role holds (worker/auth/roles.ts, docs/security.md#roles)." }),
  projectScopes: z
    .record(z.string(), Scopes)
    .openapi({ description: "For each project where the member holds a project role, that role's scopes, which apply there instead of `scopes`." }),
}).openapi("PortalSessionState");

const Email = z.string().min(3).max(254).email();

const SignIn = z
  .union([
    z
      .strictObject({
        adminToken: z.string().min(1).max(1000),
        email: Email.optional().openapi({
          description: "On a deployment without members: the first owner's address. The session is then that owner's.",
        }),
        name: z.string().min(1).max(200).optional(),
      })
      .openapi("PortalAdminTokenSignIn", { description: "The admin token: the bootstrap, then break-glass (docs/security.md#the-admin-token-break-glass)." }),
    z
      .strictObject({ link: z.string().min(1).max(200).openapi({ description: "The secret of a sign-in link, from its `#sign-in=` fragment." }) })
      .openapi("PortalLinkSignIn", { description: "A one-time sign-in link from `POST /portal/api/sign-in-links` or an invitation." }),
  ])
  .openapi("PortalSignIn");

const LinkRequest = z.strictObject({ email: Email }).openapi("SignInLinkRequest");

const tags = ["Portal"];

portalRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/api/session",
    operationId: "signIn",
    tags,
    ...access.public,
    summary: "Sign in to the portal",
    description:
      "Exchanges the admin token for a session cookie (`HttpOnly; Secure; SameSite=Strict; Path=/`, lifetime " +
      "`PORTAL_SESSION_TTL_SECONDS`, default one hour, not extended by use). Only a hash of the session id is " +
      "stored (D1, until the session ends). Rotating `ADMIN_TOKEN` ends every session. Sign-in needs a same-origin `Origin` " +
      "(or `Sec-Fetch-Site: same-origin`; 403 otherwise) and is rate-limited per client IP (429).",
    request: { body: jsonBody(SignIn) },
    responses: { 201: createdResponse(Session, "Signed in; the cookie is set.", false), ...problems },
  }),
  async (c) => {
    await limitRate(c, "PORTAL_SIGN_IN_LIMITER");
    requireSameOrigin(c);
    const body = c.req.valid("json");
    const session = "link" in body ? await signInWithLink(c, body.link) : await signInWithAdminToken(c, body);
    c.header("Location", "/portal/api/session");
    return c.json({ csrfToken: session.csrfToken, expires: session.expires }, 201);
  },
);

portalRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/api/sign-in-links",
    operationId: "requestSignInLink",
    tags,
    ...access.public,
    summary: "Mail a one-time sign-in link",
    description:
      "When the address is a member's, mails them a link that signs in once within 15 minutes. The answer is the same " +
      "whether or not it is (no enumeration), and the mail is made after the answer. Rate-limited per client IP and per " +
      "address (429); needs a same-origin `Origin`.",
    request: { body: jsonBody(LinkRequest) },
    responses: { 202: { description: "If the address is a member's, a link is on its way." }, ...problems },
  }),
  async (c) => {
    await limitRate(c, "PORTAL_SIGN_IN_LIMITER");
    requireSameOrigin(c);
    const { email } = c.req.valid("json");
    await limitRate(c, "PORTAL_SIGN_IN_LIMITER", `address:${await sha256Hex(email.toLowerCase())}`);
    c.executionCtx.waitUntil(requestSignInLink(c, email).catch((error: unknown) => logger.error("sign-in link not sent", {}, error)));
    return c.body(null, 202);
  },
);

portalRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/api/session",
    operationId: "getSession",
    tags,
    ...access.session,
    summary: "The current portal session",
    description:
      "Lets the SPA resume after a reload: it keeps the CSRF token in memory only, never in storage. Says what the member " +
      "may do (`role`, `scopes`, `projectScopes`), which the portal reads once to show what a role cannot change as " +
      "read-only from the start (docs/portal.md); every call is still checked against the role by the service.",
    responses: { 200: jsonResponse(SessionState, "The session."), ...problems },
  }),
  async (c) => {
    const session = await readSession(c);
    if (!session) throw new ApiError(401, "unauthorized", "Not signed in to the portal.");
    return c.json({ csrfToken: session.csrfToken, expires: session.expires, ...(await grantsOf(c, c.var.operator!)) }, 200);
  },
);

portalRoutes.openapi(
  defineRoute({
    method: "delete",
    path: "/api/session",
    operationId: "signOut",
    tags,
    ...access.session,
    summary: "Sign out of the portal",
    description: "Deletes the session and clears the cookie. Needs the CSRF header, so no other site can sign an operator out.",
    responses: { 204: { description: "Signed out." }, ...problems },
  }),
  async (c) => {
    await endSession(c);
    return c.body(null, 204);
  },
);

overviewRoutes.openapi(overviewRoute, async (c) => {
  const { project_id: projectId } = c.req.valid("param");
  return c.json(await readOverview(c.var.db, projectId, c.req.valid("query").days), 200);
});

/** Headers of the portal's HTML shell: it holds no data, but it must not be framed (clickjacking) or cached. */
const shellHeaders = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
  "content-security-policy":
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
    "connect-src 'self'; frame-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
};

/**
 * The SPA's shell for `/portal` and every client-side route under it. Built files (`/portal/assets/…`) are
 * served by Workers Static Assets before the Worker runs, so a path with a file extension that reaches this
 * handler is a missing file, not a route. The `session` attribute tells the SPA a session cookie came with the
 * request (its script cannot see the HttpOnly cookie): only then is there a session to resume, so a visitor who
 * is not signed in is shown the sign-in form without a 401 from `GET /portal/api/session`.
 */
const shell = async (c: Context<AppEnv>) => {
  const path = new URL(c.req.url).pathname;
  if (path.startsWith("/portal/api/") || /\.[A-Za-z0-9]+$/.test(path)) throw notFound("File");
  // With html_handling auto-trailing-slash, `/portal/app` serves `portal/app.html`.
  const html = await c.env.ASSETS.fetch(new URL("/portal/app", c.req.url));
  if (!html.ok) {
    throw new ApiError(503, "portal_not_built", "The portal is not built; run `npm run build:portal`.");
  }
  const shellPage = new Response(html.body, { status: 200, headers: shellHeaders });
  if (!hasSessionCookie(c)) return shellPage;
  return new HTMLRewriter().on("assent-portal", { element: (element) => void element.setAttribute("session", "") }).transform(shellPage);
};
portalRoutes.get("/", shell);
portalRoutes.get("/*", shell);
