import { createMiddleware } from "hono/factory";

/**
 * The policy of an HTML page that sets none of its own (the API reference at /docs, error pages): nothing runs,
 * nothing loads but same-origin images and its inline styles, and no one may frame it. connect-src 'self' opens
 * nothing while no script runs; it lets tools that audit the page from inside it (Lighthouse reads /robots.txt so)
 * do their work.
 */
export const defaultPageCsp =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * Every HTML answer of the Worker carries a CSP (its own, or the default above), `nosniff` and a Referrer-Policy.
 * The portal's static pages get theirs from dist/public/_headers (written by portal/vite.config.ts).
 */
export const htmlSecurityHeaders = createMiddleware(async (c, next) => {
  await next();
  if (!(c.res.headers.get("content-type") ?? "").startsWith("text/html")) return;
  c.res = new Response(c.res.body, c.res);
  const headers = c.res.headers;
  if (!headers.has("content-security-policy")) headers.set("content-security-policy", defaultPageCsp);
  headers.set("x-content-type-options", "nosniff");
  if (!headers.has("referrer-policy")) headers.set("referrer-policy", "no-referrer");
});
