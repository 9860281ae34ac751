import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { ApiError, problemResponse } from "../lib/errors";
import { clientForOrigin } from "./browser-origins";

const projectInPath = (path: string) => /^\/[^/]+\/v\d+\/projects\/([^/]+)/.exec(path)?.[1];

/** Browser routes no token opens (the privacy center's own sessions are not service tokens; visitor-token minting). */
const tokenless = /^\/browser\/v\d+\/projects\/[^/]+\/(privacy-center|visitor-tokens)(\/|$)/;

/** Browsers may reuse a preflight this long (Chromium caps it at 2 hours). */
const preflightMaxAgeSeconds = 7200;

/**
 * CORS for the browser-facing APIs (`/privacy/*`, `/browser/*`). Credentials (cookies) are never allowed:
 * browsers authenticate with bearer tokens, and a valid bearer token is the credential whatever page sends it, so
 * calls authenticated by one are answered for any origin, `null` included (file:// pages and custom-scheme
 * webviews with a native-injected token). Every other call (minting a visitor token, the bootstrap when it mints,
 * the privacy center, and any call whose `Authorization` is not a valid token) is answered only for origins listed
 * in a client's `allowedOrigins`, or with their refusal: otherwise any website could have its visitors' browsers
 * ask for codes, each visitor a fresh client address (issue 37). A preflight cannot show the token, so asking to
 * send one waives its origin check except on the routes that never take a token (`tokenless`); every other
 * preflight is checked against the project in the path (or, for paths without one, against every project).
 * Nothing here makes a GET need a preflight: the API reads no custom header on GETs.
 */
export const browserCors = createMiddleware<AppEnv>(async (c, next) => {
  const origin = c.req.header("origin");
  if (!origin) return next();
  const pathProject = projectInPath(c.req.path);
  if (c.req.method === "OPTIONS" && c.req.header("access-control-request-method")) {
    const requested = (c.req.header("access-control-request-headers") ?? "").toLowerCase().split(",").map((h) => h.trim());
    const carriesToken = requested.includes("authorization") && !tokenless.test(c.req.path);
    if (!carriesToken && !(await clientForOrigin(c.env, origin, pathProject))) {
      return problemResponse(403, "origin_not_allowed", `The origin ${origin} is not registered on any client.`, {
        headers: { Vary: "Origin" },
      });
    }
    return new Response(null, {
      status: 204,
      headers: {
        "Access-Control-Allow-Origin": origin,
        "Access-Control-Allow-Methods": "GET, POST, PUT, DELETE",
        "Access-Control-Allow-Headers": "authorization, content-type, if-none-match, x-assent-regime, assent-bookmark",
        "Access-Control-Max-Age": String(preflightMaxAgeSeconds),
        Vary: "Origin, Access-Control-Request-Headers",
      },
    });
  }
  await next();
  c.res.headers.append("Vary", "Origin");
  // A call a valid token authenticated is answered whatever its origin, and so is a refused token's 401 (the page
  // renews) and the refusal of an unregistered origin: it holds nothing but what to register, which the page's widget
  // then says.
  const refusedOrigin = c.error instanceof ApiError && c.error.code === "origin_not_allowed";
  const refusedToken = c.error instanceof ApiError && c.error.status === 401 && !tokenless.test(c.req.path);
  if (
    c.get("caller") ||
    refusedToken ||
    refusedOrigin ||
    (await clientForOrigin(c.env, origin, c.get("caller")?.projectId ?? pathProject))
  ) {
    c.res.headers.set("Access-Control-Allow-Origin", origin);
    c.res.headers.set("Access-Control-Expose-Headers", "ETag, Location, WWW-Authenticate, Assent-Bookmark, Assent-Signals, X-Request-Id");
  }
});
