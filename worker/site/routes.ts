import type { Context } from "hono";
import type { AppEnv } from "../env";
import { createRouter } from "../auth/router";
import { icon, iconPath } from "./icon";

/**
 * What browsers and crawlers ask of any origin unprompted: the icon (`/favicon.ico`, unless a page links one) and
 * `/robots.txt`. Without them every page logs a 404 and crawlers guess.
 */
export const siteRoutes = createRouter();


/**
 * The pages (the demo, the API reference, the portal's sign-in) may be indexed; the APIs hold nothing for a
 * crawler (they answer 401 or personal data).
 */
const robots = ["User-agent: *", ...["/admin/", "/browser/", "/oauth/", "/portal/api/", "/privacy/", "/v1/"].map((path) => `Disallow: ${path}`), ""].join("\n");

const serveIcon = (c: Context<AppEnv>) => c.body(icon, 200, { "content-type": "image/svg+xml", "cache-control": "public, max-age=86400" });
siteRoutes.get(iconPath, serveIcon);
siteRoutes.get("/favicon.ico", serveIcon);
siteRoutes.get("/robots.txt", (c) => c.text(robots, 200, { "cache-control": "public, max-age=86400" }));
