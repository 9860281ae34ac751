import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { bodyLimitExtension, readJsonBody } from "../lib/body";
import { constantTimeEqual } from "../lib/crypto";
import { ApiError, notFound } from "../lib/errors";
import { logger } from "../lib/logger";
import { countFailure, refuseIfBlocked } from "../limits/rate-limits";
import { requireSetting } from "../lib/settings";
import { portalSessionCredential } from "./portal-session";
import type { Credential } from "./credential";
import { identityScopedScopes, operatorScopes, subjectExtension, type Scope, type Subject } from "./scopes";
import { ensureOrganization } from "./operators";
import { verifyBearer } from "./tokens";
import { apiTokenCredential } from "./api-token";
import { audited, isStateRead, keepsAfter, keepsBefore, recordAudit, stateBefore } from "./audit";

/** The security schemes a route may list (registered as OpenAPI security schemes in worker/app.ts). */
export type Scheme = "oauth2" | "adminToken" | "portalSession";

const bearerOf = (c: Context<AppEnv>) => /^Bearer (.+)$/i.exec(c.req.header("authorization") ?? "")?.[1];

/** Where a route takes a bearer, a member's personal API token is accepted as well (worker/auth/api-token.ts). */
const orApiToken = (bearer: Credential): Credential => ({
  ...bearer,
  authenticate: (c) => (apiTokenCredential.presented(c) ? apiTokenCredential : bearer).authenticate(c),
});

const credentials: Record<Scheme, Credential> = {
  oauth2: orApiToken({
    presented: (c) => c.req.header("authorization") !== undefined,
    authenticate: async (c) => {
      const caller = await verifyBearer(c.env, c.var.databases, c.req.header("authorization"));
      return { scopes: caller.scopes, caller };
    },
    missing: () =>
      new ApiError(401, "unauthorized", "A bearer access token is required.", {
        // RFC 6750 §3.1: a request without any credentials gets the challenge with no error code.
        headers: { "WWW-Authenticate": 'Bearer realm="assent"' },
      }),
  }),
  adminToken: orApiToken({
    presented: (c) => c.req.header("authorization") !== undefined,
    authenticate: async (c) => {
      const adminToken = requireSetting(c.env, "ADMIN_TOKEN");
      await refuseIfBlocked(c, "ADMIN_FAILURES_LIMITER");
      const presented = bearerOf(c);
      // Both tokens are compared every time, so the answer's timing does not tell which one matched.
      const accepted = [adminToken, c.env.ADMIN_TOKEN_PREVIOUS].filter((token): token is string => !!token?.trim());
      const matches = await Promise.all(accepted.map((token) => (presented ? constantTimeEqual(presented, token) : false)));
      if (matches.includes(true)) {
        const organizationId = await ensureOrganization(c);
        c.set("operator", { memberId: null, organizationId, role: "owner", credential: "admin-token" });
        // The alert is raised after the answer by the entry (worker/accounts/bootstrap.ts breakGlassAlerts).
        c.set("breakGlass", c.req.routePath);
        return { scopes: operatorScopes };
      }
      await countFailure(c, "ADMIN_FAILURES_LIMITER");
      throw adminChallenge();
    },
    missing: () => adminChallenge(),
  }),
  // The portal's session cookie: the operator, signed in to the portal (worker/portal/session.ts).
  portalSession: portalSessionCredential,
};

const adminChallenge = () =>
  new ApiError(401, "unauthorized", "The admin API needs the admin token as bearer.", {
    headers: { "WWW-Authenticate": 'Bearer realm="assent-admin"' },
  });

/** What `access.*` in worker/auth/scopes.ts puts on a route. */
export type AccessDeclaration = {
  security?: Partial<Record<Scheme, readonly string[]>>[];
  [subjectExtension]?: Subject;
};

const insufficientScope = (detail: string) =>
  new ApiError(403, "insufficient_scope", detail, {
    headers: { "WWW-Authenticate": `Bearer realm="assent", error="insufficient_scope", error_description="${detail}"` },
  });

/**
 * The one access check, bound to each route by defineRoute (worker/auth/router.ts) from the route's own
 * declaration: authenticate with the first scheme the route lists that the request presents, require the
 * route's scopes, keep project callers to their project (another project's ids are 404), and keep
 * identity-scoped tokens to their own identity where a scope says so (identityScopedScopes). A route whose
 * requirements include an empty one (`access.optional`) also serves a request presenting none of its schemes,
 * without a caller; a credential that is presented must be valid all the same.
 */
export function authorize(route: AccessDeclaration & { method: string; path: string; [bodyLimitExtension]?: number }): MiddlewareHandler<AppEnv> {
  const requirements = route.security?.map((requirement) => Object.entries(requirement)[0] as [Scheme, readonly Scope[]] | undefined);
  const alternatives = (requirements ?? []).flatMap((entry) => (entry ? [{ scheme: entry[0], needed: entry[1] }] : []));
  // Public (no requirement at all) or optional (an empty one among them): a request presenting no scheme passes.
  const anonymousAllowed = requirements !== undefined && (requirements.length === 0 || requirements.includes(undefined));
  const subject = route[subjectExtension];
  const operationId = (route as { operationId?: string }).operationId ?? `${route.method} ${route.path}`;
  return async (c, next) => {
    // The project's database serves the rest of the call once the project is known: from the path, or the token.
    const pathProject = c.req.param("project_id");
    if (pathProject !== undefined) c.set("db", c.var.databases.project(pathProject));
    if (requirements === undefined) {
      throw new ApiError(500, "undeclared_route", `${route.method.toUpperCase()} ${route.path} declares no access; see worker/auth/scopes.ts.`);
    }
    const chosen = alternatives.find(({ scheme }) => credentials[scheme].presented(c));
    if (!chosen) {
      if (anonymousAllowed) return next();
      throw credentials[alternatives[0].scheme].missing();
    }
    try {
      const grant = await credentials[chosen.scheme].authenticate(c);
      const lacking = chosen.needed.filter((scope) => !grant.scopes.includes(scope));
      if (lacking.length > 0) throw insufficientScope(`This ${c.var.operator ? "role" : "token"} lacks the scope ${lacking.join(" ")}.`);
      const caller = grant.caller;
      if (caller) {
        c.set("caller", caller);
        if (pathProject !== undefined && pathProject !== caller.projectId) throw notFound("Project");
        if (pathProject === undefined) c.set("db", c.var.databases.project(caller.projectId));
        if (caller.identityId !== undefined) await requireOwnIdentity(c, caller.identityId, chosen.needed, subject, route[bodyLimitExtension]);
      }
    } catch (refused) {
      // An operator refused (a scope their role lacks, another organization's project) is an escalation attempt: audited.
      const operator = c.var.operator;
      if (operator && refused instanceof ApiError && (refused.status === 403 || refused.status === 404)) {
        await recordAudit(c, operator, { operationId, status: refused.status, projectId: pathProject ?? null });
      }
      throw refused;
    }
    const operator = c.var.operator;
    if (!operator || isStateRead(c)) return next();
    const before = keepsBefore(c.req.method, chosen.needed) ? await stateBefore(c) : undefined;
    await next();
    if (audited(c.req.method, chosen.needed, c.res.status) && c.res.status < 500) {
      const changed = c.res.status < 300;
      // What the route said it changed (a secret left out), else the object as its read route showed it before and
      // the body the route already read (cached), for a configuration change; nothing for any other.
      const change = c.var.auditChange ?? {
        before: changed ? before : undefined,
        after: changed && keepsAfter(c.req.method, chosen.needed) ? await readJsonBody(c).catch(() => undefined) : undefined,
      };
      try {
        await recordAudit(c, operator, { operationId, status: c.res.status, projectId: pathProject ?? null, ...change });
      } catch (error) {
        // The change is made and answered: a 500 now would tell the caller it failed and invite a repeat. The missing
        // entry is logged as an error instead (docs/security.md#the-audit-trail).
        logger.error("audit entry not written", { rule: "audit_write", route: operationId }, error);
      }
    }
  };
}

async function requireOwnIdentity(c: Context<AppEnv>, identityId: string, needed: readonly Scope[], subject?: Subject, maxBodySize?: number) {
  if (!needed.some((scope) => identityScopedScopes[scope]?.ownIdentityOnly)) return;
  if (!subject) throw insufficientScope("This token is scoped to one identity; this operation is not about one identity.");
  const named =
    subject.in === "path" ? c.req.param(subject.name) : ((await readJsonBody(c, undefined, maxBodySize)) as Record<string, unknown> | undefined)?.[subject.name];
  // A body without the field is left to validation (400); a different identity is not this token's business.
  if (named !== undefined && named !== identityId) {
    throw insufficientScope("This token may only act on its own identity.");
  }
}
