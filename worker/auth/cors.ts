import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { problemResponse } from "../lib/errors";
import { clientForOrigin } from "./browser-origins";

const projectInPath = (path: string) => /^\/[^/]+\/v\d+\/projects\/([^/]+)/.exec(path)?.[1];

/**
 * CORS for the browser-facing APIs (`/privacy/*`, `/browser/*`): only origins listed in a client's
 * `allowedOrigins` get an answer. A preflight is checked against the project in the path (or, for paths
 * without one, against every project); the real request against the project of its token. Credentials
 * (cookies) are never allowed: browsers authenticate with bearer tokens.
 */
export const browserCors = createMiddleware<AppEnv>(async (c, next) => {
  const origin = c.req.header("origin");
  if (!origin) return next();
  const pathProject = projectInPath(c.req.path);
  if (c.req.method === "OPTIONS" && c.req.header("access-control-request-method")) {
    const allowed = await clientForOrigin(c.env, origin, pathProject);
    if (!allowed) {
      return problemResponse(403, "origin_not_allowed", `The origin ${origin} is not registered on any client.`, {
        headers: { Vary: "Origin" },
      });
    }
    return new Response(null, {
      status: 204,
      headers: {
        "Access-Control-Allow-Origin": origin,
        "Access-Control-Allow-Methods": "GET, POST, PUT, DELETE",
        "Access-Control-Allow-Headers": "authorization, content-type",
        "Access-Control-Max-Age": "600",
        Vary: "Origin",
      },
    });
  }
  await next();
  c.res.headers.append("Vary", "Origin");
  // Without a caller (a refused token) the check is the preflight's, so the page can read the 401 and renew.
  if (await clientForOrigin(c.env, origin, c.get("caller")?.projectId ?? pathProject)) {
    c.res.headers.set("Access-Control-Allow-Origin", origin);
  }
});
