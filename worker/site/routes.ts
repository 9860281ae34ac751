import type { Context } from "hono";
import { raw } from "hono/html";
import type { AppEnv } from "../env";
import { createRouter } from "../lib/router";

/**
 * What browsers and crawlers ask of any origin unprompted: the icon (`/favicon.ico`, unless a page links one) and
 * `/robots.txt`. Without them every page logs a 404 and crawlers guess.
 */
export const siteRoutes = createRouter();

/** The service's mark (the portal's brand mark): every page links it as `iconPath`. */
const icon =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#2f45c5"/>' +
  '<path d="M9 16.5l4.5 4.5L23 11.5" stroke="#fff" stroke-width="3.2" fill="none" stroke-linecap="round" stroke-linejoin="round"/></svg>';
export const iconPath = "/favicon.svg";
export const iconLink = raw(`<link rel="icon" href="${iconPath}" type="image/svg+xml">`);

/**
 * The pages (the demo, the API reference, the portal's sign-in) may be indexed; the APIs hold nothing for a
 * crawler (they answer 401 or personal data).
 */
const robots = ["User-agent: *", ...["/admin/", "/browser/", "/oauth/", "/portal/api/", "/privacy/", "/v1/"].map((path) => `Disallow: ${path}`), ""].join("\n");

const serveIcon = (c: Context<AppEnv>) => c.body(icon, 200, { "content-type": "image/svg+xml", "cache-control": "public, max-age=86400" });
siteRoutes.get(iconPath, serveIcon);
siteRoutes.get("/favicon.ico", serveIcon);
siteRoutes.get("/robots.txt", (c) => c.text(robots, 200, { "cache-control": "public, max-age=86400" }));
