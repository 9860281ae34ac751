import type { ScanReport } from "../worker/scans/report";
import { buildReport } from "./findings";
import { robotsRules } from "./robots";
import { visit, type Limits, type PageError, type ScanBrowser, type Visit } from "./visit";

export type { ScanBrowser } from "./visit";

export type ScanOptions = Partial<Limits> & {
  /** Pages to visit, the start page included (default 20). */
  maxPages?: number;
  /** Pages visited at once, each in its own contexts (default 4). */
  concurrency?: number;
};

export const defaultLimits: Limits = { pageTimeoutMs: 15_000, settleMs: 1_500, maxBytes: 10 * 1024 * 1024 };

/** Links worth a visit: pages, not downloads. */
const download = /\.(pdf|zip|gz|tgz|rar|7z|exe|dmg|msi|apk|jpe?g|png|gif|webp|avif|svg|ico|mp[34]|mov|avi|webm|woff2?|ttf|css|js|json|xml|txt|csv|xlsx?|docx?|pptx?)$/i;

/** The page URL a link names on the scanned origin, without its fragment, or null when it leaves the origin. */
function sameOriginPage(link: string, origin: string): string | null {
  try {
    const url = new URL(link);
    if (url.origin !== origin || download.test(url.pathname)) return null;
    url.hash = "";
    return url.href;
  } catch {
    return null;
  }
}

/** robots.txt read through the browser, so the Worker and the CLI see what a visitor's browser would. */
async function robotsOf(browser: ScanBrowser, origin: string, limits: Limits): Promise<(path: string) => boolean> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const response = await page.goto(`${origin}/robots.txt`, { timeout: limits.pageTimeoutMs });
    return response && response.ok() ? robotsRules(await response.text()) : () => true;
  } catch {
    return () => true;
  } finally {
    await context.close().catch(() => {});
  }
}

/**
 * Scans a site: from `start`, same-origin links breadth first up to `maxPages`, robots.txt respected. Each page is
 * visited in three clean contexts (no decision, Accept all, Reject all); a page without the Assent widget only in the
 * first. A page that fails gets its error and the scan goes on. The one crawl the CLI and the Worker both run.
 */
export async function scanOrigin(browser: ScanBrowser, start: string, options: ScanOptions = {}): Promise<ScanReport> {
  const startedAt = new Date().toISOString();
  const limits: Limits = {
    pageTimeoutMs: options.pageTimeoutMs ?? defaultLimits.pageTimeoutMs,
    settleMs: options.settleMs ?? defaultLimits.settleMs,
    maxBytes: options.maxBytes ?? defaultLimits.maxBytes,
  };
  const maxPages = Math.max(1, options.maxPages ?? 20);
  const startUrl = new URL(start);
  startUrl.hash = "";
  const origin = startUrl.origin;
  const allowed = await robotsOf(browser, origin, limits);

  const queue = [startUrl.href];
  const queued = new Set(queue);
  const visits: Visit[] = [];
  const refused: { url: string; error: PageError }[] = [];

  /** Whether the start page has the widget: then each further page's three visits run side by side. */
  let usesAssent: boolean | undefined;
  const failedToLoad = (v: Visit) => ["unreachable", "redirect_loop", "timeout", "too_large", "navigation_failed"].includes(v.error?.code ?? "");

  const scanPage = async (url: string) => {
    const path = new URL(url).pathname + new URL(url).search;
    if (!allowed(path)) {
      refused.push({ url, error: { code: "robots_disallowed", detail: "robots.txt disallows this page for the scanner." } });
      return;
    }
    const phases = [visit(browser, url, "before-consent", limits)];
    if (usesAssent) phases.push(visit(browser, url, "after-accept", limits), visit(browser, url, "after-reject", limits));
    const [first, ...after] = await Promise.all(phases);
    usesAssent ??= first.assent !== null;
    for (const link of first.links) {
      const next = sameOriginPage(link, origin);
      if (next && !queued.has(next) && queued.size < maxPages) {
        queued.add(next);
        queue.push(next);
      }
    }
    visits.push(first);
    if (!first.assent || failedToLoad(first)) return;
    // A page without the widget has no decision to make: visits started beside its first are dropped.
    if (after.length) visits.push(...after);
    else visits.push(...(await Promise.all([visit(browser, url, "after-accept", limits), visit(browser, url, "after-reject", limits)])));
  };

  // A small pool: workers take the next queued page as links are found.
  const running = new Set<Promise<void>>();
  const concurrency = Math.max(1, options.concurrency ?? 4);
  while (queue.length || running.size) {
    while (queue.length && running.size < concurrency) {
      const task: Promise<void> = scanPage(queue.shift()!).finally(() => running.delete(task));
      running.add(task);
    }
    if (running.size) await Promise.race(running);
  }

  const order = [...queued];
  return buildReport({ origin, startedAt, finishedAt: new Date().toISOString(), order, visits, refused });
}
