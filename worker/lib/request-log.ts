import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import type { AppEnv } from "../env";
import { logger, type LogFields } from "./logger";

/** The response header answering each request's id, the one its log lines carry. */
export const requestIdHeader = "X-Request-Id";

/** What project ids look like: a path's `project_id` is logged only in this shape (a caller may put anything there). */
const projectIdShape = /^prj_[0-9A-Z]{26}$/;

/**
 * Where a request went, as its log lines say it: the pattern of the route it was for, even when it failed before
 * reaching it (none when no route takes it: not found, a CORS preflight), and the project: the caller's, else the
 * path's when it is a project id.
 */
export function requestFields(c: Context<AppEnv>): LogFields {
  // Handlers are registered for their methods, middleware (`app.use`) for ALL; the first matching handler answers.
  const route = matchedRoutes(c).find((matched) => matched.method !== "ALL")?.path ?? null;
  const pathProject = route === null ? undefined : c.req.param("project_id");
  const projectId = c.var.caller?.projectId ?? (pathProject !== undefined && projectIdShape.test(pathProject) ? pathProject : undefined);
  return { requestId: c.var.requestId, method: c.req.method, route, ...(projectId ? { projectId } : {}) };
}

/**
 * One line per request, written once it is answered: request id (Cloudflare's ray id, else a new one; a caller's
 * `X-Request-Id` is not taken, so every id in the log is the service's own), route pattern, project, method,
 * status, duration and, for a problem, its code. Workers' clock only moves while the request waits on I/O, so the
 * duration is the time spent waiting on storage and the network, not CPU time. `REQUEST_LOG=problems` keeps only the
 * lines of answers that are problems: at high traffic, the volume without losing a failure (head sampling would).
 */
export const requestLog: MiddlewareHandler<AppEnv> = async (c, next) => {
  const started = Date.now();
  const requestId = c.req.header("cf-ray") ?? crypto.randomUUID();
  c.set("requestId", requestId);
  c.header(requestIdHeader, requestId);
  await next();
  const code = c.var.problemCode;
  if (c.env.REQUEST_LOG === "problems" && c.res.status < 400) return;
  logger.info("request", { ...requestFields(c), status: c.res.status, durationMs: Date.now() - started, ...(code ? { code } : {}) });
};
