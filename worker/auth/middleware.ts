import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { constantTimeEqual } from "../lib/crypto";
import { ApiError, notFound } from "../lib/errors";
import { isPortalCall, portalCaller, requireSession } from "../portal/session";
import { issuerOf, verifyBearer } from "./tokens";

/**
 * Verifies the bearer token of `/privacy/*` and `/v1/*` calls and records the caller. A portal session
 * (cookie, no Authorization header) acts as the backend of the project named in a
 * `/privacy/v2/projects/{project_id}` path, with CSRF checks on unsafe methods; see worker/portal/session.ts.
 */
export const requireToken = createMiddleware<AppEnv>(async (c, next) => {
  const caller =
    (await portalCaller(c)) ?? (await verifyBearer(c.env, issuerOf(c.env, c.req.url), c.req.header("authorization")));
  c.set("caller", caller);
  await next();
});

/**
 * The project comes from the token: a path naming any other project answers exactly as a project
 * that does not exist would, so ids of other tenants reveal nothing.
 */
export const requireOwnProject = createMiddleware<AppEnv>(async (c, next) => {
  if (c.req.param("project_id") !== c.get("caller").projectId) throw notFound("Project");
  await next();
});

/** Admin API: the `ADMIN_TOKEN` bearer, compared in constant time, or a portal session (CSRF-checked on unsafe methods). */
export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  if (isPortalCall(c)) {
    await requireSession(c);
    return next();
  }
  const presented = /^Bearer (.+)$/i.exec(c.req.header("authorization") ?? "")?.[1];
  if (!presented || !c.env.ADMIN_TOKEN || !(await constantTimeEqual(presented, c.env.ADMIN_TOKEN))) {
    throw new ApiError(401, "unauthorized", "The admin API needs the admin token as bearer.", {
      headers: { "WWW-Authenticate": 'Bearer realm="assent-admin"' },
    });
  }
  await next();
});
