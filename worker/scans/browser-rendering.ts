import type { Env } from "../env";
import { webhookUrlProblem, loopbackAllowed } from "../events/ssrf";
import { ApiError, badRequest } from "../lib/errors";
import { scanOrigin, type ScanBrowser, type ScanOptions, type ScanPass } from "../../scanner/crawl";
import type { ScanReport } from "../../shared/scans/report";

/** The command that scans an origin from the operator's machine and stores the report in the project. */
export const scanCommand = (origin: string, projectId = "<project_id>") => `npm run scan -- ${origin} --project ${projectId}`;

/** 503 when this deployment has no Browser Rendering binding: the scan can still run elsewhere, with the CLI. */
export const browserUnavailable = (origin: string, projectId?: string) =>
  new ApiError(
    503,
    "browser_unavailable",
    `This deployment has no Browser Rendering binding (BROWSER), so it cannot scan sites itself. Scan from your machine and upload the report: ${scanCommand(origin, projectId)}`,
    { members: { command: scanCommand(origin, projectId) } },
  );

/**
 * Where the Worker's crawl may go: pages on the project's registered origins only (the crawl follows same-site links,
 * and a site's other subdomains may belong to someone else), and top-frame navigations, redirects included, only to
 * hosts the webhooks' SSRF guard allows.
 */
export function workerScanGuards(env: Env, registeredOrigins: string[]): Required<Pick<ScanOptions, "mayFollow" | "refuseNavigation">> {
  const registered = new Set(registeredOrigins);
  const refuseNavigation = (url: string) => webhookUrlProblem(url, loopbackAllowed(env));
  return { mayFollow: (url) => registered.has(url.origin) && refuseNavigation(url.href) === undefined, refuseNavigation };
}

/**
 * The Worker's front-end of the crawl: a browser from the `BROWSER` binding, driven by the same crawl module as the
 * CLI (scanner/crawl.ts), within `workerScanGuards`. Without the binding it throws `browserUnavailable`. Browser
 * Rendering's Playwright is loaded only when a scan runs, so requests that never scan do not evaluate it.
 */
export async function crawlWithBrowserRendering(
  env: Env,
  origin: string,
  options: { maxPages: number; registeredOrigins: string[]; pass: ScanPass },
): Promise<ScanReport> {
  if (!env.BROWSER) throw browserUnavailable(origin);
  // Only public origins, as for webhooks: the crawl must not become a way into private networks.
  const problem = webhookUrlProblem(origin, loopbackAllowed(env));
  if (problem) throw badRequest("origin_not_scannable", problem);
  const { launch } = await import("@cloudflare/playwright");
  const browser = await launch(env.BROWSER);
  try {
    // Browser Rendering's fork is Playwright's API at an older version (1.55 beside 1.65): the crawl calls only
    // what both have, but their context types differ in methods added since.
    return await scanOrigin(browser as unknown as ScanBrowser, origin, {
      maxPages: options.maxPages,
      pass: options.pass,
      ...workerScanGuards(env, options.registeredOrigins),
    });
  } finally {
    await browser.close().catch(() => {});
  }
}
