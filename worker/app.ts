import type { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { clientRoutes } from "./auth/clients";
import { requireAdmin, requireOwnProject, requireToken } from "./auth/middleware";
import { authRoutes } from "./auth/routes";
import { browserTokenRoutes } from "./auth/browser-tokens";
import { browserCors } from "./auth/cors";
import { scopeGuard } from "./auth/scope";
import { configurationRoutes } from "./configuration/routes";
import { docsPage } from "./docs";
import type { AppEnv } from "./env";
import { eventRoutes } from "./events/routes";
import { hubRoutes } from "./hub/routes";
import { identityRoutes } from "./identities/routes";
import { partyRoutes } from "./parties/routes";
import { portalRoutes } from "./portal/routes";
import { projectRoutes } from "./projects/routes";
import { auditRoutes } from "./proof/audit";
import { ledgerRoutes } from "./proof/ledger";
import { proofRoutes } from "./proof/routes";
import { requestRoutes } from "./requests/routes";
import { jsonBodies, maxBodyBytes } from "./lib/body";
import { ApiError, onError, problemResponse } from "./lib/errors";
import { createRouter } from "./lib/router";
import { widgetRoutes } from "./widget/routes";

export const app = createRouter();

// CORS before authentication: preflights carry no token.
app.use("/privacy/*", browserCors);
app.use("/browser/*", browserCors, jsonBodies);
// Authentication first, so nothing reads an unauthenticated body.
app.use("/admin/*", requireAdmin, jsonBodies);
app.use("/privacy/*", requireToken, jsonBodies);
app.use("/privacy/v2/projects/:project_id", requireOwnProject);
app.use("/privacy/v2/projects/:project_id/*", requireOwnProject);
app.use("/v1/*", requireToken, jsonBodies);
// Identity-scoped (browser) tokens may do only a few things; checked once the caller and body are known.
app.use("/privacy/*", scopeGuard);
app.use("/v1/*", scopeGuard);
app.use(
  "/oauth/*",
  bodyLimit({
    maxSize: maxBodyBytes,
    onError: () => {
      throw new ApiError(413, "payload_too_large", `The request body exceeds ${maxBodyBytes} bytes.`);
    },
  }),
);

/** Unauthenticated constant: liveness probe and the benchmark's baseline. */
app.get("/healthz", (c) => c.json({ status: "ok", service: "assent" }));

for (const routes of [
  authRoutes,
  clientRoutes,
  projectRoutes,
  identityRoutes,
  partyRoutes,
  configurationRoutes,
  requestRoutes,
  proofRoutes,
  auditRoutes,
  ledgerRoutes,
  hubRoutes,
  eventRoutes,
  browserTokenRoutes,
  widgetRoutes,
  portalRoutes,
]) {
  app.route("/", routes as OpenAPIHono<AppEnv>);
}

app.openAPIRegistry.registerComponent("securitySchemes", "bearer", {
  type: "http",
  scheme: "bearer",
  bearerFormat: "JWT",
  description: "An access token from `POST /oauth/token`.",
});
app.openAPIRegistry.registerComponent("securitySchemes", "oauth2", {
  type: "oauth2",
  flows: { clientCredentials: { tokenUrl: "/oauth/token", scopes: { privacy: "The project's privacy API." } } },
});
app.openAPIRegistry.registerComponent("securitySchemes", "adminToken", {
  type: "http",
  scheme: "bearer",
  description: "The operator's `ADMIN_TOKEN`.",
});

const openApiInfo = {
  openapi: "3.1.0",
  info: {
    title: "Assent",
    version: "2.0.3",
    description:
      "GDPR consent and data-subject-rights service. Every error is an RFC 9457 problem " +
      "(`application/problem+json`) with a stable `code`; validation failures list `errors[]` with field paths. " +
      "Bodies are strict JSON: unknown fields are refused (400), non-JSON bodies are 415, bodies over 1 MB are 413.",
  },
  security: [{ bearer: [] }],
};

app.doc31("/openapi.json", openApiInfo);
app.get("/docs", (c) => c.html(docsPage(app.getOpenAPI31Document(openApiInfo) as Parameters<typeof docsPage>[0])));

app.notFound((c) => problemResponse(404, "not_found", `No route for ${c.req.method} ${new URL(c.req.url).pathname}.`));
app.onError(onError);
