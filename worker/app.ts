import type { OpenAPIHono } from "@hono/zod-openapi";
import { breakGlassAlerts } from "./accounts/bootstrap";
import { readStateThrough } from "./auth/audit";
import { identityTokenRoutes, visitorTokenRoutes } from "./auth/browser-token-routes";
import { clientRoutes } from "./auth/clients";
import { browserCors } from "./auth/cors";
import { discoveryRoutes, tokenRoutes } from "./auth/routes";
import { scopes } from "./auth/scopes";
import { accountRoutes, ownSessionRoutes } from "./accounts/routes";
import { blockingRoutes, vendorAdminRoutes, vendorPublicRoutes } from "./blocking/routes";
import { blockingScriptRoutes } from "./blocking/script";
import { bootstrapRoutes } from "./bootstrap/routes";
import { countingRoutes, reportRoutes } from "./analytics/routes";
import { experimentRoutes } from "./analytics/experiment-routes";
import { analyticsSettingsRoutes } from "./analytics/settings-routes";
import { wellKnownRoutes } from "./signals/routes";
import { configurationFeedRoutes, configurationRoutes } from "./configuration/routes";
import { consentModeRoutes } from "./consent-mode/routes";
import { gppRoutes } from "./gpp/routes";
import { tcfListRoutes } from "./tcf/list-routes";
import { tcfRoutes } from "./tcf/routes";
import { tcfProjectListRoutes } from "./tcf/project-list-routes";
import { docsPage } from "./docs";
import type { AppEnv } from "./env";
import type { Context } from "hono";
import { eventRoutes } from "./events/routes";
import { hubAdminRoutes } from "./hub/admin";
import { deliveryReportRoutes } from "./hub/reports";
import { hubRoutes } from "./hub/routes";
import { identityRoutes } from "./identities/routes";
import { jurisdictionRoutes } from "./jurisdictions/routes";
import { allowedMethods } from "./lib/allowed-methods";
import { d1Session } from "./lib/db";
import { onError, problemResponse } from "./lib/errors";
import { htmlSecurityHeaders } from "./lib/html-headers";
import { requestLog } from "./lib/request-log";
import { createRouter } from "./auth/router";
import { requireStorage } from "./lib/settings";
import { readiness } from "./ops/readiness";
import { opsRoutes } from "./ops/routes";
import { partyRoutes } from "./parties/routes";
import { emailOutboxRoutes } from "./email/routes";
import { privacyCenterPage } from "./privacy-center/page";
import { receiptRoutes } from "./privacy-center/receipts";
import { privacyCenterRoutes } from "./privacy-center/routes";
import { settingsRoutes as privacyCenterSettingsRoutes } from "./privacy-center/settings";
import { overviewRoutes, portalRoutes } from "./portal/routes";
import { projectAdminRoutes, projectRoutes } from "./projects/routes";
import { siteRoutes } from "./site/routes";
import { auditRoutes } from "./proof/audit";
import { ledgerRoutes } from "./proof/ledger-routes";
import { proofRoutes } from "./proof/routes";
import { requestRoutes } from "./requests/routes";
import { scanRoutes } from "./scans/routes";
import { widgetRoutes } from "./widget/routes";
import { wordingRoutes } from "./wording/routes";
import { version } from "../package.json";

export const app = createRouter();
// A configuration change's audit entry keeps the object's state before it, read through the app's own routes.
readStateThrough(app.fetch);

// First, so its line covers every answer: errors, not found and the other middleware's own.
app.use(requestLog);
app.use(breakGlassAlerts);
app.use(htmlSecurityHeaders);

// CORS before authentication: preflights carry no token. Authentication and scopes are checked per route, from
// each route's own declaration (worker/auth/scopes.ts, bound by defineRoute in worker/auth/router.ts).
app.use("/privacy/*", browserCors);
app.use("/browser/*", browserCors);
// Answers of the APIs carry personal data or secrets: never stored by a cache unless a route says otherwise (the
// configuration feed, the well-known documents).
for (const api of ["/privacy/*", "/browser/*", "/admin/*", "/v1/*", "/portal/api/*"]) {
  app.use(api, async (c, next) => {
    await next();
    if (!c.res.headers.has("cache-control")) c.res.headers.set("Cache-Control", "no-store");
  });
}

/** Unauthenticated constant: liveness probe and the benchmark's baseline. */
app.get("/healthz", (c) => c.json({ status: "ok", service: "assent" }));

app.use("*", async (c, next) => (c.req.path === "/healthz" || c.req.path === "/readyz" ? next() : requireStorage(c, next)));
// One D1 session per call, from the caller's bookmark (worker/lib/db.ts).
app.use("*", async (c, next) => (c.req.path === "/healthz" || c.req.path === "/readyz" ? next() : d1Session(c, next)));

/** Readiness (worker/ops/readiness.ts): every secret, var and binding, each database's schema, KV. */
app.get("/readyz", readiness);

/** A project's API (the interface's `{base_url}`), and the operator's view of one project. */
const project = "/privacy/v2/projects/:project_id";
const adminProject = "/admin/v1/projects/:project_id";

/** Each capability's router at its base path; the routes inside name only what follows it. */
const mounts: [basePath: string, routes: OpenAPIHono<AppEnv>][] = [
  ["/oauth", tokenRoutes],
  ["/.well-known", discoveryRoutes],
  ["/.well-known", wellKnownRoutes],
  [project, projectRoutes],
  [`${project}/identities`, identityRoutes],
  [`${project}/identities`, identityTokenRoutes],
  [`${project}/identities`, receiptRoutes],
  [project, partyRoutes],
  [`${project}/configurations`, configurationRoutes],
  [`${project}/configurations/ui-strings`, wordingRoutes],
  [project, requestRoutes],
  [`${project}/log`, proofRoutes],
  [`${project}/audit-export`, auditRoutes],
  [`${project}/webhooks`, eventRoutes],
  [project, scanRoutes],
  ["/privacy/v1/configurations", configurationFeedRoutes],
  ["/browser/v1/projects/:project_id", visitorTokenRoutes],
  ["/browser/v1/projects/:project_id", bootstrapRoutes],
  ["/browser/v1/projects/:project_id", countingRoutes],
  ["/browser/v1", vendorPublicRoutes],
  ["/widget/v1/projects/:project_id", blockingScriptRoutes],
  // The data subject's own door (docs/privacy-center.md): its API and its hosted page.
  ["/browser/v1/projects/:project_id/privacy-center", privacyCenterRoutes],
  ["/privacy-center", privacyCenterPage],
  // The hub (docs/hub.md; docs/architecture.md, "The hub's boundary").
  ["/v1", hubRoutes],
  ["/callbacks/sms", deliveryReportRoutes],
  ["/admin/v1", hubAdminRoutes],
  ["/admin/v1", opsRoutes],
  ["/admin/v1/projects", projectAdminRoutes],
  [`${adminProject}/clients`, clientRoutes],
  ["/admin/v1", jurisdictionRoutes],
  [`${adminProject}/consent-mode`, consentModeRoutes],
  [`${adminProject}/gpp`, gppRoutes],
  [`${adminProject}/tcf`, tcfRoutes],
  [`${adminProject}/blocking`, blockingRoutes],
  ["/admin/v1", vendorAdminRoutes],
  [`${adminProject}/erasures`, ledgerRoutes],
  [`${adminProject}/overview`, overviewRoutes],
  [`${adminProject}/analytics/settings`, analyticsSettingsRoutes],
  [`${adminProject}/analytics`, reportRoutes],
  [`${adminProject}/experiments`, experimentRoutes],
  [`${adminProject}/privacy-center`, privacyCenterSettingsRoutes],
  [`${adminProject}/email-outbox`, emailOutboxRoutes],
  ["/admin/v1", accountRoutes],
  ["/portal/api", ownSessionRoutes],
  ["/portal", portalRoutes],
  ["/tcf", tcfListRoutes],
  ["/tcf", tcfProjectListRoutes],
  ["/", widgetRoutes],
  ["/", siteRoutes],
];
for (const [basePath, routes] of mounts) app.route(basePath, routes);

app.openAPIRegistry.registerComponent("securitySchemes", "oauth2", {
  type: "oauth2",
  description:
    "An access token from `POST /oauth/token`, sent as `Authorization: Bearer`. Its `scope` claim lists what it may do; " +
    "public clients (web, ios, android) hold few scopes by default (docs/security.md#public-clients).",
  flows: { clientCredentials: { tokenUrl: "/oauth/token", scopes: { ...scopes } } },
});
app.openAPIRegistry.registerComponent("securitySchemes", "adminToken", {
  type: "http",
  scheme: "bearer",
  description: "The operator's `ADMIN_TOKEN`.",
});

/**
 * The document describes the deployment that serves it: its one server is the origin it was fetched from (each
 * operator runs their own Assent, so no fixed host is right for everyone).
 */
const openApiDocument = (origin: string) => ({
  openapi: "3.1.0",
  servers: [{ url: origin, description: "This deployment: the origin that served this document." }],
  info: {
    title: "Assent",
    version,
    license: { name: "Apache-2.0", identifier: "Apache-2.0" },
    description:
      "GDPR consent and data-subject-rights service, implementing the Assent interface v2.0.3 (`/privacy/v2`, " +
      "the hub's `/v1`) and v1.0.3 (`/privacy/v1`). Every error is an RFC 9457 problem " +
      "(`application/problem+json`) with a stable `code`; validation failures list `errors[]` with field paths. " +
      "Bodies are strict JSON: unknown fields are refused (400), non-JSON bodies are 415, bodies over 1 MB are 413 " +
      "(a scan report's `POST …/scans` takes up to 1,900,000 bytes; its operation states it as `x-assent-max-body-bytes`).\n\n" +
      "Read your own writes: every answer carries an `Assent-Bookmark` header (a D1 bookmark, sealed: an opaque value " +
      "that differs on every answer and shows nothing of the database's position). Send the last one you " +
      "received back as the `Assent-Bookmark` request header and the call reads data at least that recent, even " +
      "when it is served from a read replica; without it a read may see data a few moments old. A malformed, " +
      "altered or made-up bookmark is 400 `invalid_bookmark`. Browsers may send and read the header (CORS).",
  },
  // One tag per capability (the folders of worker/), in the order the reference page lists them.
  tags: [
    { name: "Auth", description: "OAuth 2.0 client credentials, authorization server metadata and the keys that verify tokens." },
    { name: "Browser tokens", description: "Identity-scoped tokens for pages and webviews, the widget's bootstrap and the GPC resource." },
    { name: "Projects", description: "A project's privacy metadata: controller, policies, contacts." },
    { name: "Identities", description: "Data subjects: create, find by alias, update, delete, and export everything held about one." },
    { name: "Parties", description: "Controllers, processors and other parties that purposes name." },
    { name: "Configuration", description: "Data groups and purposes (with their versions), and the published configuration feed." },
    { name: "Privacy requests", description: "Permissions, objections, erasure and access requests, and an identity's permission state." },
    { name: "Privacy center", description: "The data subject's own door: one-time codes, their identity, requests, deadlines and downloads." },
    { name: "Proof of consent", description: "The project's tamper-evident log: signed tree heads, entries, proofs, audit export." },
    { name: "Webhooks", description: "Event subscriptions, their signing secrets and delivery logs." },
    { name: "Analytics", description: "Counts of the banner's interactions (no identifier), opt-in rates, the funnel, CSV export and fair banner experiments (docs/analytics.md)." },
    { name: "Scans", description: "Site scans: what a site sets and loads before and after consent, stored per project, diffed, scheduled." },
    { name: "Hub", description: "SMS sending and billing-account lookup for backend clients, and providers' delivery reports." },
    { name: "Admin", description: "The operator's API: projects, clients, erasure-ledger replay, the portal's overview, health counters and alerts." },
    { name: "Admin: hub", description: "The operator's hub settings: SMS outbox, routes, senders, provider users, billing accounts." },
    { name: "Jurisdictions", description: "Per-project rules choosing the consent regime (opt-in, opt-out, notice) by the visitor's country and region." },
    { name: "Consent Mode", description: "Per-project Google Consent Mode v2 settings the widget applies." },
    { name: "GPP", description: "Per-project IAB Global Privacy Platform settings: whether the pages are MSPA covered transactions, and in which mode." },
    { name: "TCF", description: "IAB TCF 2.3: the Global Vendor List, its translations and Google's ATP list as the service hosts them, and a project's TCF settings (docs/tcf.md)." },
    { name: "Blocking", description: "Per-project host → purpose list the widget's loader holds back until consent, and the vendor catalogue." },
    { name: "Portal", description: "Signing in and out of the operator's portal (a session cookie)." },
    { name: "Members", description: "Operators as people: members and their roles, their sessions, the audit trail of who did what, the bootstrap (docs/security.md#roles)." },
  ],
});

app.doc31("/openapi.json", (c) => openApiDocument(new URL(c.req.url).origin));
const reference = (c: Context<AppEnv>, slug?: string) => {
  const page = docsPage(app.getOpenAPI31Document(openApiDocument(new URL(c.req.url).origin)) as Parameters<typeof docsPage>[0], slug);
  return page ? c.html(page) : c.notFound();
};
app.get("/docs", (c) => reference(c));
app.get("/docs/:page", (c) => reference(c, c.req.param("page")));

let allowedOn: ((pathname: string) => string[]) | undefined;
app.notFound((c) => {
  const pathname = new URL(c.req.url).pathname;
  const allow = (allowedOn ??= allowedMethods(app.routes))(pathname);
  // A path that takes this very method but did not match (say, malformed percent-encoding) is simply not found.
  if (allow.length > 0 && !allow.includes(c.req.method)) {
    c.set("problemCode", "method_not_allowed");
    return problemResponse(405, "method_not_allowed", `${c.req.method} is not allowed on ${pathname}; it takes ${allow.join(", ")}.`, {
      headers: { Allow: allow.join(", ") },
    });
  }
  c.set("problemCode", "not_found");
  return problemResponse(404, "not_found", `No route for ${c.req.method} ${pathname}.`);
});
app.onError(onError);
