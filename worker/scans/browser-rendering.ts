import type { Env } from "../env";
import { webhookUrlProblem, loopbackAllowed } from "../events/ssrf";
import { ApiError, badRequest } from "../lib/errors";
import { scanOrigin, type ScanBrowser } from "../../scanner/crawl";
import type { ScanReport } from "./report";

/**
 * The Worker's front-end to the crawl (scanner/crawl.ts): a browser from the Browser Rendering binding, the same
 * scan the CLI runs. Browser Rendering's Playwright is loaded only when a scan runs, so requests that never scan do
 * not pay for its size at start-up.
 */
export async function crawlWithBrowserRendering(env: Env, origin: string, options: { maxPages: number }): Promise<ScanReport> {
  if (!env.BROWSER) throw new ApiError(503, "browser_unavailable", "Scanning needs the Browser Rendering binding (BROWSER), which this deployment does not have.");
  // Only public origins, as for webhooks: the crawl must not become a way into private networks.
  const problem = webhookUrlProblem(origin, loopbackAllowed(env));
  if (problem) throw badRequest("origin_not_scannable", problem);
  const { launch } = await import("@cloudflare/playwright");
  const browser = await launch(env.BROWSER);
  try {
    // Browser Rendering's fork is Playwright's API at an older version (1.55 beside 1.65): the crawl calls only
    // what both have, but their context types differ in methods added since.
    return await scanOrigin(browser as unknown as ScanBrowser, origin, { maxPages: options.maxPages });
  } finally {
    await browser.close().catch(() => {});
  }
}
