import type { ScanReport } from "../shared/scans/report.ts";
import { buildReport } from "./findings.ts";
import { robotsRules } from "./robots.ts";
import { siteOf } from "./sites.ts";
import { guardRequests } from "./devtools.ts";
import type { RequestGuard } from "../shared/ssrf.ts";
import { unreadable, visit, type Limits, type PageError, type Phase, type ScanBrowser, type ScanPass, type Visit } from "./visit.ts";

export type { ScanBrowser, ScanPass } from "./visit.ts";

export type ScanOptions = Partial<Limits> & {
  /** Pages to visit, the start page included (default 20). */
  maxPages?: number;
  /** Pages visited at once, each in its own contexts (default 4). */
  concurrency?: number;
  /** Whether a same-site page on another origin may be visited (the Worker: only the project's registered origins). */
  mayFollow?: (url: URL) => boolean;
  /** Why the browser may not request `url` (any request of any frame, redirects included), or undefined: the Worker's SSRF guard (shared/ssrf.ts). */
  guard?: RequestGuard;
  /** The project's scan pass, sent on every request to its Assent service (docs/scanner.md#scanning-a-site-that-runs-assent). */
  pass?: ScanPass;
};

export const defaultLimits: Limits = { pageTimeoutMs: 15_000, settleMs: 1_500, maxBytes: 10 * 1024 * 1024 };

/** The most pages one scan visits: each page is up to three visits, and the report is stored as one D1 value. */
export const maxPagesCap = 100;

/** The options a scan runs with: each one given, else its default. */
export function scanSettings(options: ScanOptions): { maxPages: number; concurrency: number; limits: Limits } {
  return {
    maxPages: Math.min(maxPagesCap, Math.max(1, options.maxPages ?? 20)),
    concurrency: Math.max(1, options.concurrency ?? 4),
    limits: {
      pageTimeoutMs: options.pageTimeoutMs ?? defaultLimits.pageTimeoutMs,
      settleMs: options.settleMs ?? defaultLimits.settleMs,
      maxBytes: options.maxBytes ?? defaultLimits.maxBytes,
    },
  };
}

/** Links worth a visit: pages, not downloads. */
const download = /\.(pdf|zip|gz|tgz|rar|7z|exe|dmg|msi|apk|jpe?g|png|gif|webp|avif|svg|ico|mp[34]|mov|avi|webm|woff2?|ttf|css|js|json|xml|txt|csv|xlsx?|docx?|pptx?)$/i;

/**
 * The page URL a link names on the scanned site (its registrable domain: `shop.example`, `www.shop.example` and
 * `blog.shop.example`), without its fragment; null when it leaves the site, is a download, or `mayFollow` refuses a
 * page on another origin than the start's.
 */
export function pageToFollow(link: string, start: URL, mayFollow?: (url: URL) => boolean): string | null {
  try {
    const url = new URL(link);
    if (!/^https?:$/.test(url.protocol) || siteOf(url.hostname) !== siteOf(start.hostname) || download.test(url.pathname)) return null;
    if (url.origin !== start.origin && mayFollow && !mayFollow(url)) return null;
    url.hash = "";
    return url.href;
  } catch {
    return null;
  }
}

/** robots.txt read through the browser, so the Worker and the CLI see what a visitor's browser would. */
async function robotsOf(browser: ScanBrowser, origin: string, limits: Limits, guard?: RequestGuard): Promise<(path: string) => boolean> {
  const context = await browser.newContext(guard ? { serviceWorkers: "block" } : {});
  try {
    const page = await context.newPage();
    if (guard) await guardRequests(context, page, guard);
    const response = await page.goto(`${origin}/robots.txt`, { timeout: limits.pageTimeoutMs });
    return response && response.ok() ? robotsRules(await response.text()) : () => true;
  } catch {
    // No robots.txt to read (or a refused one): the pages themselves are visited, or refused, as they come.
    return () => true;
  } finally {
    await context.close().catch(() => {});
  }
}

/**
 * Scans a site: from `start`, same-site links breadth first up to `maxPages`, each origin's robots.txt respected.
 * Each page is read as three passes in two clean contexts (no decision and then Accept all on that page; Reject all);
 * a page without the Assent widget only as the first. A page that fails gets its error and the scan goes on. The one crawl the CLI and the Worker both run.
 */
export async function scanOrigin(browser: ScanBrowser, start: string, options: ScanOptions = {}): Promise<ScanReport> {
  const startedAt = new Date().toISOString();
  const { maxPages, concurrency, limits } = scanSettings(options);
  const startUrl = new URL(start);
  startUrl.hash = "";
  const origin = startUrl.origin;
  const robots = new Map<string, Promise<(path: string) => boolean>>();
  /** Each origin's robots.txt, read once, as the crawl first reaches it. */
  const allowed = (url: URL) => {
    if (!robots.has(url.origin)) robots.set(url.origin, robotsOf(browser, url.origin, limits, options.guard));
    return robots.get(url.origin)!.then((rules) => rules(url.pathname + url.search));
  };

  const queue = [startUrl.href];
  const queued = new Set(queue);
  const visits: Visit[] = [];
  const refused: { url: string; error: PageError }[] = [];

  /**
   * Whether the start page has the widget: each page's visits run side by side in contexts of the one browser, the
   * start page's too; a site without the widget gets one visit per page after its start page.
   */
  let usesAssent: boolean | undefined;

  const scanPage = async (url: string) => {
    if (!(await allowed(new URL(url)))) {
      refused.push({ url, error: { code: "robots_disallowed", detail: "robots.txt disallows this page for the scanner." } });
      return;
    }
    const visitAs = (phases: Phase[]) => visit(browser, url, phases, limits, { guard: options.guard, pass: options.pass });
    // Accept all is clicked on the first visit's page once it has been read (that visit is a clean first visit
    // already); Reject all needs a clean context of its own, beside it.
    const contexts: Phase[][] = usesAssent === false ? [["before-consent"]] : [["before-consent", "after-accept"], ["after-reject"]];
    const [first, ...after] = (await Promise.all(contexts.map(visitAs))).flat();
    usesAssent ??= first.assent !== null;
    for (const link of first.links) {
      const next = pageToFollow(link, startUrl, options.mayFollow);
      if (next && !queued.has(next) && queued.size < maxPages) {
        queued.add(next);
        queue.push(next);
      }
    }
    visits.push(first);
    if (!first.assent || (first.error && unreadable.has(first.error.code))) return;
    // A page without the widget has no decision to make: visits started beside its first are dropped.
    if (after.length) visits.push(...after);
    else visits.push(...(await Promise.all([visitAs(["after-accept"]), visitAs(["after-reject"])])).flat());
  };

  // A small pool: workers take the next queued page as links are found.
  const running = new Set<Promise<void>>();
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
