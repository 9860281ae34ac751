import { access } from "../auth/scopes";
import { createRouter, defineRoute } from "../auth/router";
import { requireSameOrigin } from "../auth/portal-session";
import { limitRate } from "../limits/rate-limits";
import { ApiError } from "../lib/errors";
import { conflictProblem, jsonBody, jsonResponse, problems } from "../lib/schemas";
import { deleteSsoConfiguration, readSsoConfiguration, writeSsoConfiguration } from "./sso-config";
import { finishSsoSignIn, startSsoSignIn } from "./sso";
import { SsoCallbackQuery, SsoConfiguration, SsoConfigurationInput, SsoStart, SsoStarted } from "./sso-schemas";

/** The organization's single sign-on configuration (owners), mounted at `/admin/v1/sso`. */
export const ssoAdminRoutes = createRouter();

/** Signing in through it, mounted at `/portal/api/sso`. */
export const ssoSignInRoutes = createRouter();

const tags = ["Members"];

ssoAdminRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/",
    operationId: "getSsoConfiguration",
    tags,
    ...access.operator("members:manage"),
    summary: "The organization's single sign-on (owners)",
    description: "The provider, the client, the bound domains and the default role; never the client secret. 404 when there is none.",
    responses: { 200: jsonResponse(SsoConfiguration, "The configuration."), ...problems },
  }),
  async (c) => c.json(await readSsoConfiguration(c, c.var.operator!.organizationId), 200),
);

ssoAdminRoutes.openapi(
  defineRoute({
    method: "put",
    path: "/",
    operationId: "putSsoConfiguration",
    tags,
    ...access.operator("members:manage"),
    summary: "Set the organization's single sign-on (owners)",
    description:
      "Any OpenID Connect provider (authorization code with PKCE). The issuer must be https on a public host, and its " +
      "discovery document must read (422 `sso_discovery_failed`). The client secret is stored encrypted with the " +
      "deployment's secrets key and never shown again. Addresses at the bound domains sign in through the provider and " +
      "become members at their first sign-in with `defaultRole` (never owner); a domain is bound to one organization " +
      "(409 `sso_domain_taken`). The audit trail keeps the configuration before and after, without the secret.",
    request: { body: jsonBody(SsoConfigurationInput) },
    responses: { 200: jsonResponse(SsoConfiguration, "The configuration now."), ...problems, ...conflictProblem },
  }),
  async (c) => {
    const { before, after } = await writeSsoConfiguration(c, c.var.operator!.organizationId, c.req.valid("json"));
    c.set("auditChange", { before, after });
    const { clientSecretChanged: _, ...shown } = after;
    return c.json(shown, 200);
  },
);

ssoAdminRoutes.openapi(
  defineRoute({
    method: "delete",
    path: "/",
    operationId: "deleteSsoConfiguration",
    tags,
    ...access.operator("members:manage"),
    summary: "End the organization's single sign-on (owners)",
    description: "Its members stay, and sign in by link or passkey; sign-ins under way through it fail.",
    responses: { 204: { description: "Ended." }, ...problems },
  }),
  async (c) => {
    c.set("auditChange", { before: await deleteSsoConfiguration(c, c.var.operator!.organizationId) });
    return c.body(null, 204);
  },
);

ssoSignInRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/start",
    operationId: "startSsoSignIn",
    tags: ["Portal"],
    ...access.public,
    summary: "Start signing in with single sign-on",
    description:
      "The address's domain names the organization (404 `sso_not_configured` when none binds it). Answers the " +
      "provider's authorization URL (PKCE, state and nonce) and sets `__Host-assent_sso`, binding the sign-in to this " +
      "browser for 10 minutes. Needs a same-origin `Origin`; rate-limited per client IP (429).",
    request: { body: jsonBody(SsoStart) },
    responses: { 200: jsonResponse(SsoStarted, "Where to send the browser."), ...problems },
  }),
  async (c) => {
    await limitRate(c, "PORTAL_SIGN_IN_LIMITER");
    requireSameOrigin(c);
    return c.json({ authorizationUrl: await startSsoSignIn(c, c.req.valid("json").email) }, 200);
  },
);

ssoSignInRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/callback",
    operationId: "finishSsoSignIn",
    tags: ["Portal"],
    ...access.public,
    summary: "The provider's redirect back (single sign-on)",
    description:
      "Spends the sign-in under way (single use; 400 `sso_state_invalid` when the state is missing, spent, expired or " +
      "another browser's), exchanges the code with the PKCE verifier, checks the ID token with the provider's JWKS " +
      "(issuer, audience, expiry, nonce: 401 `sso_id_token_invalid`), requires a verified address at a bound domain " +
      "(403 `sso_email_unverified`, `sso_domain_mismatch`, both audited), makes the member at their first sign-in, " +
      "opens the portal session and redirects to the portal (`/portal/#signed-in=sso`, which resumes it). A browser's " +
      "navigation (`Sec-Fetch-Mode: navigate`) that fails is redirected to `/portal/#sso-error={code}` instead, which the portal explains.",
    request: { query: SsoCallbackQuery },
    responses: { 303: { description: "Signed in: on to the portal; the session cookie is set." }, ...problems },
  }),
  async (c) => {
    await limitRate(c, "PORTAL_SIGN_IN_LIMITER");
    try {
      await finishSsoSignIn(c, c.req.valid("query"));
    } catch (error) {
      // A person's browser goes back to the portal, which says what went wrong; any other caller gets the problem.
      if (!(error instanceof ApiError) || c.req.header("sec-fetch-mode") !== "navigate") throw error;
      c.set("problemCode", error.code);
      return c.redirect(`/portal/#sso-error=${encodeURIComponent(error.code)}`, 303);
    }
    return c.redirect("/portal/#signed-in=sso", 303);
  },
);
