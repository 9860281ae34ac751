import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { ApiError } from "../lib/errors";

const insufficientScope = (detail: string) =>
  new ApiError(403, "insufficient_scope", detail, {
    headers: { "WWW-Authenticate": `Bearer realm="assent", error="insufficient_scope", error_description="${detail}"` },
  });

/**
 * What a token scoped to one identity (claim `idn`: a browser or webview token) may do: read the
 * configuration, read its own identity and permission state, and record permissions and objections for
 * that identity. Everything else is 403 `insufficient_scope`. Runs after `requireToken` and `jsonBodies`
 * (so the parsed body is at hand) and after `requireOwnProject` has checked the project.
 */
export const scopeGuard = createMiddleware<AppEnv>(async (c, next) => {
  const identityId = c.get("caller")?.identityId;
  if (!identityId) return next();
  const method = c.req.method;
  const path = c.req.path.replace(/\/+$/, "");
  if ((method === "GET" || method === "HEAD") && path === "/privacy/v1/configurations") return next();
  const own = /^\/privacy\/v2\/projects\/[^/]+\/identities\/([^/]+)(\/permission-state)?$/.exec(path);
  if ((method === "GET" || method === "HEAD") && own) {
    if (decodeURIComponent(own[1]) !== identityId) {
      throw insufficientScope("This token may only read its own identity.");
    }
    return next();
  }
  if (method === "POST" && /^\/privacy\/v2\/projects\/[^/]+\/(permissions|objections)$/.test(path)) {
    const body = await c.req.json().catch(() => undefined);
    const named = body && typeof body === "object" ? (body as { identityId?: unknown }).identityId : undefined;
    // A missing identityId is left to validation (400); a different one is not this token's business.
    if (named !== undefined && named !== identityId) {
      throw insufficientScope("This token may only record requests for its own identity.");
    }
    return next();
  }
  throw insufficientScope(
    "This token is scoped to one identity: it may read the configuration, its identity and permission state, " +
      "and record permissions and objections for that identity.",
  );
});
