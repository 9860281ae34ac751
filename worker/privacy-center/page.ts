import { eq } from "drizzle-orm";
import { html } from "hono/html";
import { getDb } from "../lib/db";
import { createRouter } from "../auth/router";
import { projects } from "../projects/table";
import { iconLink } from "../site/icon";
import { challengesOn } from "../limits/turnstile";

/**
 * The hosted privacy center, `/privacy-center/{project_id}`: a page holding `<assent-privacy-center>` (built into
 * dist/public/privacy-center by privacy-center/vite.config.ts). Scripts and calls stay on this origin; the element
 * loads the consent widget from here when the visitor changes their choices.
 */
export const privacyCenterPage = createRouter();

/** Where Cloudflare Turnstile's script and its frame come from (docs/security.md#challenges). */
const turnstileOrigin = "https://challenges.cloudflare.com";

/**
 * Scripts and calls stay on this origin; with challenges on (both Turnstile keys set), Turnstile's script and frame
 * may load too, and nothing else.
 */
const cspFor = (challenges: boolean) =>
  `default-src 'none'; script-src 'self'${challenges ? ` ${turnstileOrigin}` : ""}; style-src 'self' 'unsafe-inline'; ` +
  `img-src 'self' data:; connect-src 'self'${challenges ? ` ${turnstileOrigin}; frame-src ${turnstileOrigin}` : ""}; ` +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

privacyCenterPage.get("/:project_id", async (c) => {
  const projectId = c.req.param("project_id");
  const [project] = await getDb(c.var.databases.project(projectId))
    .select({ name: projects.name })
    .from(projects)
    .where(eq(projects.id, projectId))
    .limit(1);
  if (!project) return c.html(html`<!doctype html><title>Not found</title><p>No such privacy center.</p>`, 404);
  // The element renders Turnstile with the deployment's site key when the service asks for a challenge.
  const siteKey = challengesOn(c.env) ? c.env.TURNSTILE_SITE_KEY : undefined;
  c.header("Content-Security-Policy", cspFor(siteKey !== undefined));
  c.header("Cache-Control", "no-store");
  return c.html(html`<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Privacy center · ${project.name}</title>
    <meta name="description" content="See your privacy choices and ask ${project.name} for your data, its erasure or to stop using it.">
    ${iconLink}
    <style>body{margin:0;background:#eef0f6}</style>
    <script type="module" src="/privacy-center/assent-privacy-center.js"></script>
  </head>
  <body>
    <main><assent-privacy-center project="${projectId}" ${siteKey ? html`challenge-site-key="${siteKey}"` : ""}></assent-privacy-center></main>
  </body>
</html>`);
});
