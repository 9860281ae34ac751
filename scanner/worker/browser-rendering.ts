import type { CrawlAnswer, CrawlRequest } from "../../shared/scans/scanner";
import { scanRequestGuard, webhookUrlProblem, type ResolveHost } from "../../shared/ssrf";
import { scanOrigin, type ScanBrowser, type ScanOptions } from "../crawl";
import { dohResolver } from "./dns";

/**
 * Where the Worker's crawl may go: pages on the project's registered origins only (the crawl follows same-site links,
 * and a site's other subdomains may belong to someone else), and every request of the browser (frames, images,
 * scripts, fetches, redirects) only to hosts whose addresses, once resolved, are public, and to the service's own
 * origin only through the doors a page running Assent calls (`scanRequestGuard`, shared/ssrf.ts).
 */
export function workerScanGuards(
  request: Pick<CrawlRequest, "allowLoopback" | "registeredOrigins" | "pass">,
  resolve: ResolveHost,
): Required<Pick<ScanOptions, "mayFollow" | "guard">> {
  const registered = new Set(request.registeredOrigins);
  const guard = scanRequestGuard({ allowLoopback: request.allowLoopback, service: request.pass.service, resolve });
  return { mayFollow: (url) => registered.has(url.origin), guard };
}

/**
 * The Worker's front-end of the crawl: a browser from the `BROWSER` binding, driven by the same crawl module as the
 * CLI (scanner/crawl.ts), within `workerScanGuards`. Without the binding it answers `browser_unavailable`. Browser
 * Rendering's Playwright is loaded when a crawl starts, so the guards and the refusals never evaluate it.
 */
export async function crawlWithBrowserRendering(env: { BROWSER?: Fetcher }, request: CrawlRequest): Promise<CrawlAnswer> {
  if (!env.BROWSER) return { problem: { status: 503, code: "browser_unavailable", detail: "The scanner's Worker has no Browser Rendering binding (BROWSER)." } };
  // Only public origins, as for webhooks: the crawl must not become a way into private networks.
  const problem = webhookUrlProblem(request.origin, request.allowLoopback);
  if (problem) return { problem: { status: 400, code: "origin_not_scannable", detail: problem } };
  const { launch } = await import("@cloudflare/playwright");
  const browser = await launch(env.BROWSER);
  try {
    // Browser Rendering's fork is Playwright's API at an older version (1.55 beside 1.65): the crawl calls only
    // what both have, but their context types differ in methods added since.
    const report = await scanOrigin(browser as unknown as ScanBrowser, request.origin, {
      maxPages: request.maxPages,
      pass: request.pass,
      ...workerScanGuards(request, dohResolver()),
    });
    return { report };
  } finally {
    await browser.close().catch(() => {});
  }
}
