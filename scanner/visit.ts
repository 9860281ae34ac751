import type { BrowserContext, Page, Request } from "playwright-core";
import type { ScanPass } from "../shared/scans/pass.ts";
import type { visitPhases } from "../shared/scans/report.ts";
import { readPage, readRecorder, readStorage, recorderScript, scrollToBottom, type FrameStorage, type PageFacts, type Recorded } from "./in-page.ts";
import { cookieFromWrite } from "./cookies.ts";
import { devtools, guardRequests, NavigationRefused, type RefusedCookie, type SeenCookie } from "./devtools.ts";
import type { RequestGuard } from "../shared/ssrf.ts";
import { siteOf } from "./sites.ts";
import { traceStep } from "./trace.ts";

export type Phase = (typeof visitPhases)[number];

/** What the crawl needs of a browser: Playwright's, or Browser Rendering's fork of it. */
export type ScanBrowser = {
  newContext(options?: { userAgent?: string; viewport?: { width: number; height: number }; serviceWorkers?: "allow" | "block" }): Promise<BrowserContext>;
};

export type Limits = {
  /** Navigation and load, per visit. */
  pageTimeoutMs: number;
  /** How long a page may keep the network busy after load before it is read as it is. */
  settleMs: number;
  /** Bytes received per visit before it is stopped (`too_large`). */
  maxBytes: number;
};

export type SeenStorage = { name: string; area: "localStorage" | "sessionStorage" | "indexedDB"; origin: string; initiator: string | null };
export type SeenRequest = { host: string; resourceType: string; initiator: string | null; afterDecision: boolean };
export type PageError = { code: string; detail: string };

export type { ScanPass };

/** What bounds and marks a visit beside its limits. */
export type VisitRules = { guard?: RequestGuard; pass?: ScanPass };

/** One visit of one page in one clean context. */
export type Visit = {
  page: string;
  phase: Phase;
  error: PageError | null;
  /** Whether the decision the phase stands for was made (the Assent widget found and its button clicked). */
  decided: boolean;
  /** What the visit did, in a sentence (the report's `pages[].passes`). */
  did: string;
  cookies: SeenCookie[];
  /** Cookies set that no browser keeps, and why. */
  refusedCookies: RefusedCookie[];
  storage: SeenStorage[];
  requests: SeenRequest[];
  elements: PageFacts["elements"];
  links: string[];
  assent: string | null;
};

/** A navigation failure as a stable code: Chromium's net errors and Playwright's timeout. */
export function navigationError(error: unknown): PageError {
  const message = error instanceof Error ? error.message : String(error);
  // Playwright names its own call and the URL around the browser's error ("page.goto: net::… at http://…"): the
  // report names the page already, so the detail is the browser's words.
  const detail = message.split("\n")[0].replace(/^page\.goto: /, "").replace(/ at \S+$/, "").slice(0, 300);
  if (error instanceof NavigationRefused) return { code: "navigation_refused", detail };
  if (/ERR_TOO_MANY_REDIRECTS/.test(message)) return { code: "redirect_loop", detail };
  if (/Timeout|timed out|ERR_TIMED_OUT/i.test(message)) return { code: "timeout", detail };
  if (/ERR_(NAME_NOT_RESOLVED|UNSAFE_PORT|CONNECTION_REFUSED|CONNECTION_RESET|ADDRESS_UNREACHABLE|INTERNET_DISCONNECTED|EMPTY_RESPONSE|CONNECTION_CLOSED|SSL|CERT)/.test(message)) {
    return { code: "unreachable", detail };
  }
  if (/ERR_ABORTED/.test(message)) return { code: "aborted", detail };
  return { code: "navigation_failed", detail };
}

const hostileCount = 3;

function withDeadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`Timeout: ${what} took over ${ms} ms`)), ms)));
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/**
 * Visits `url` in one fresh context and reads it as each of `phases` in turn: `before-consent` is the first load with
 * no decision; `after-accept` and `after-reject` click the widget's Accept all or Reject all and load the page again,
 * as a visitor's next page view, so that what fires on a load after the decision is seen. A decision phase after
 * `before-consent` clicks on the page that phase loaded and read: the same first visit, not another one. With
 * `guard`, every request it refuses fails before it leaves the browser; a refused top-frame navigation is the visit's
 * error (`navigation_refused`). Answers one `Visit` for each phase.
 */
export async function visit(browser: ScanBrowser, url: string, phases: readonly Phase[], limits: Limits, rules: VisitRules = {}): Promise<Visit[]> {
  // No service workers: they fetch outside the page's interception, so the guard could not see their requests.
  traceStep(url, phases.join("+"), "context");
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...(rules.guard ? { serviceWorkers: "block" as const } : {}) });
  const results = phases.map((phase): Visit => ({ page: url, phase, error: null, decided: false, did: "", cookies: [], refusedCookies: [], storage: [], requests: [], elements: [], links: [], assent: null }));
  const progress = { read: 0 };
  try {
    // The whole visit is bounded too: a page can hang the reads after load (a busy main thread).
    await withDeadline(inContext(context, url, results, limits, rules, progress), visitDeadline(limits), "the visit");
  } catch (error) {
    for (const result of results.slice(progress.read)) result.error ??= navigationError(error);
  } finally {
    await context.close().catch(() => {});
    traceStep(url, phases.join("+"), `closed ${results.map((r) => r.error?.code ?? "ok").join(" ")}`);
  }
  for (const result of results) {
    if (result.error && !result.decided && result.phase !== "before-consent" && !result.did.includes("decision")) result.did = "";
    result.did ||= `Could not load the page (${result.error?.code ?? "no answer"}), so made no decision.`;
  }
  return results;
}

/**
 * The whole visit's bound: the load, the banner (opening the visitor's choices first where it offers only OK), the
 * decision, the reload and the widget's ready signal, and the settle windows, with room to spare.
 */
export const visitDeadline = (limits: Limits) => limits.pageTimeoutMs * 6 + limits.settleMs * 4 + 10_000;

/** Requests recorded per visit; more are counted (for the decision's moment) but not kept. */
const requestsKept = 2000;

/** Errors after which the page is not there to read or to decide on: no decision is made, no link followed. */
export const unreadable = new Set(["unreachable", "redirect_loop", "timeout", "too_large", "navigation_failed", "navigation_refused", "aborted"]);

async function inContext(context: BrowserContext, url: string, results: Visit[], limits: Limits, { guard, pass }: VisitRules, progress: { read: number }) {
  await context.addInitScript({ content: recorderScript });
  if (pass) {
    const header = pass.header.toLowerCase();
    await context.route(
      (target) => target.origin === pass.service,
      (route) => route.continue({ headers: { ...route.request().headers(), [header]: pass.value } }),
    );
  }
  const site = siteOf(new URL(url).hostname);
  let bytes = 0;
  let requestCount = 0;
  const cookieSources = new Map<string, string>();
  const page = await context.newPage();
  const stop = new AbortController();
  const refusal = guard ? await guardRequests(context, page, guard) : null;
  const tools = await devtools(context, page, (received) => {
    bytes += received;
    if (bytes > limits.maxBytes && !stop.signal.aborted) stop.abort();
  });
  // No DevTools session (another browser): requests keep their frame as initiator, and no byte limit applies.
  const scriptOf = tools?.scriptOf ?? new Map<string, string>();
  // Popups that escape the recorder (target=_blank, noopener) are closed as they open.
  context.on("page", (popup) => void (popup !== page && popup.close().catch(() => {})));
  page.on("dialog", (dialog) => void dialog.dismiss().catch(() => {}));
  const seen: { request: Request; at: number }[] = [];
  let refusedByService = 0;
  context.on("request", (request) => {
    requestCount++;
    if (seen.length < requestsKept) seen.push({ request, at: requestCount });
  });
  context.on("response", (response) => {
    if (response.status() === 429) refusedByService++;
    void response.headerValue("set-cookie").then((header) => {
      for (const line of header?.split("\n") ?? []) cookieSources.set(line.split("=")[0].trim(), scriptOf.get(response.url()) ?? response.url());
    }).catch(() => {});
  });
  const tooLarge = new Promise<never>((_, reject) =>
    stop.signal.addEventListener("abort", () => reject(Object.assign(new Error("too large"), { code: "too_large" }))),
  );
  tooLarge.catch(() => {});

  for (const [index, result] of results.entries()) {
    const phase = result.phase;
    let decidedAt = Number.POSITIVE_INFINITY;
    try {
      if (index === 0) {
        // A visit that only makes a decision needs the banner, not the whole load: its reload is what is read.
        const waitUntil = phase === "before-consent" ? "load" : "domcontentloaded";
        traceStep(url, phase, "goto");
        const response = await Promise.race([page.goto(url, { timeout: limits.pageTimeoutMs, waitUntil }), tooLarge]);
        for (const each of results) {
          if (response && response.status() >= 400) each.error = { code: "http_error", detail: `The page answered ${response.status()}.` };
          each.did = "Loaded the page and made no decision.";
        }
        traceStep(url, phase, "loaded");
      }
      if (phase === "before-consent") {
        await Promise.race([settle(page, limits), tooLarge]);
        traceStep(url, phase, "settled");
      } else {
        decidedAt = requestCount;
        const decision = await Promise.race([decide(page, phase, limits), tooLarge]);
        result.decided = decision.outcome === "recorded";
        traceStep(url, phase, `decided ${decision.outcome}`);
        result.did = decision.did;
        if (decision.outcome === "not-recorded") {
          result.error ??= {
            code: "decision_not_recorded",
            detail:
              decision.did +
              (refusedByService > 0 ? ` Its service refused ${refusedByService} requests with 429 (rate limited): every visit after a decision is a new visitor from the scanner's one address.` : "") +
              " What the page does after that decision is not in this report.",
          };
        }
        if (result.decided) {
          // Loaded again straight away, as the visitor's next page view: done when the widget has applied the stored
          // decision (its ready signal) and the network has settled, rather than when every last resource has loaded.
          await Promise.race([page.reload({ timeout: limits.pageTimeoutMs, waitUntil: "domcontentloaded" }), tooLarge]);
          traceStep(url, phase, "reloaded");
          await Promise.race([page.waitForFunction("window.__assentScan && window.__assentScan.ready > 0", undefined, { timeout: limits.pageTimeoutMs }), tooLarge]);
          traceStep(url, phase, "ready");
          await Promise.race([settle(page, limits), tooLarge]);
          traceStep(url, phase, "settled");
          result.did += " The page was then loaded again, as the visitor's next page view, and read once the widget had applied the decision.";
        }
      }
      const growing = await Promise.race([scrollThrough(page, limits), tooLarge]);
      traceStep(url, phase, "scrolled");
      if (growing) result.error ??= { code: "endless_scroll", detail: "The page kept growing while scrolled (infinite scroll); what loaded so far is recorded." };
    } catch (error) {
      if ((error as { code?: string }).code === "too_large") {
        result.error = { code: "too_large", detail: `The page received more than ${limits.maxBytes} bytes; it was stopped and what loaded so far is recorded.` };
        await page.evaluate("window.stop()").catch(() => {});
      } else {
        result.error = refusal?.reason ? { code: "navigation_refused", detail: `The page would have navigated to ${refusal.reason}` } : navigationError(error);
        // The phases after it had no page to read either.
        for (const later of results.slice(index + 1)) later.error ??= result.error;
        progress.read = results.length;
        return;
      }
    }
    const recorded = await record(context, page, site, result, {
      scriptOf, cookieSources, seen, decidedAt, rebuiltCookies: tools?.rebuiltCookies ?? [], refusedCookies: tools?.refusedCookies ?? [],
    });
    traceStep(url, phase, "recorded");
    if (recorded && recorded.popups > hostileCount) result.error ??= { code: "popup_storm", detail: `The page tried to open ${recorded.popups} windows; none was opened.` };
    if (recorded && recorded.dialogs > hostileCount) result.error ??= { code: "dialog_loop", detail: `The page raised ${recorded.dialogs} dialogs; each was dismissed.` };
    progress.read = index + 1;
    if (result.error && unreadable.has(result.error.code)) {
      for (const later of results.slice(index + 1)) later.error ??= result.error;
      progress.read = results.length;
      return;
    }
  }
}

/** Waits for the network to go quiet, at most `settleMs`: pages that never go quiet are read as they are. */
async function settle(page: Page, limits: Limits) {
  await page.waitForLoadState("networkidle", { timeout: limits.settleMs }).catch(() => {});
}

type Decision = { outcome: "recorded" | "not-recorded" | "no-widget"; did: string };

/**
 * Makes the decision the phase stands for through the widget (inside its shadow root) and waits for the widget to
 * report it (`assent-change`). An opt-in banner has Accept all and Reject all; an opt-out or notice banner has only
 * OK (which records nothing, by design) and "Your privacy choices", so there the visit opens the choices and clicks
 * Accept all or Reject all in them. Answers what it did, in words the report shows.
 */
async function decide(page: Page, phase: Phase, limits: Limits): Promise<Decision> {
  const present = await page.evaluate(`!!document.querySelector("assent-consent")`).catch(() => false);
  if (!present) return { outcome: "no-widget", did: "Loaded the page; it has no Assent widget, so there was no decision to make." };
  const words = phase === "after-accept" ? "Accept all" : "Reject all";
  const part = phase === "after-accept" ? "accept" : "reject";
  const banner = (name: string) => page.locator(`assent-consent [part~=banner] button[part~=${name}]`);
  let did = `Clicked "${words}" on the banner`;
  try {
    // The banner waits on the service; a busy machine or a slow service is no reason to skip the decision. Every
    // regime's banner has "Your privacy choices" (customize).
    await banner("customize").waitFor({ state: "visible", timeout: limits.pageTimeoutMs });
    traceStep(page.url(), phase, "banner");
    if ((await banner("reject").count()) > 0) await banner(part).click({ timeout: limits.pageTimeoutMs });
    else {
      did = `The banner offers OK and "Your privacy choices" (an opt-out or notice regime; OK records nothing): opened the choices and clicked "${words}" there`;
      await banner("customize").click({ timeout: limits.pageTimeoutMs });
      await page.locator(`assent-consent [part~=footer] button[part~=${part}]`).click({ timeout: limits.pageTimeoutMs });
    }
  } catch {
    return { outcome: "not-recorded", did: `Found no "${words}" to click within ${limits.pageTimeoutMs / 1000} s (no banner, or a banner that stayed disabled).` };
  }
  traceStep(page.url(), phase, "clicked");
  try {
    await page.waitForFunction("window.__assentScan && window.__assentScan.decisions > 0", undefined, { timeout: limits.pageTimeoutMs });
    return { outcome: "recorded", did: `${did}; the widget recorded the decision.` };
  } catch {
    return { outcome: "not-recorded", did: `${did}, but the widget did not record the decision within ${limits.pageTimeoutMs / 1000} s.` };
  }
}

/** Scrolls to the bottom a few times, for lazy content; true when the page still grows after the last step. */
async function scrollThrough(page: Page, limits: Limits): Promise<boolean> {
  let height = Number(await page.evaluate(scrollToBottom).catch(() => 0));
  for (let step = 0; step < 5; step++) {
    await page.waitForTimeout(Math.min(200, limits.settleMs));
    const next = Number(await page.evaluate(scrollToBottom).catch(() => height));
    if (next <= height) return false;
    height = next;
  }
  return true;
}

type Sources = {
  scriptOf: Map<string, string>; cookieSources: Map<string, string>; seen: { request: Request; at: number }[]; decidedAt: number;
  rebuiltCookies: SeenCookie[]; refusedCookies: RefusedCookie[];
};

/** Fills `result` with what the context holds now; returns the recorder's log (writes, decisions, popups, dialogs). */
async function record(context: BrowserContext, page: Page, site: string, result: Visit, sources: Sources): Promise<Recorded | null> {
  const recorded = (await page.evaluate(readRecorder).catch(() => null)) as Recorded | null;
  const writer = new Map<string, string>();
  for (const [area, name, caller] of recorded?.writes ?? []) if (caller) writer.set(`${area}\u0000${name}`, caller);
  const now = Date.now() / 1000;
  // Third-party frames: the scan's browser drops their cookie writes, a visitor's keeps those a browser would.
  for (const frame of page.frames()) {
    if (frame === page.mainFrame()) continue;
    let frameUrl: URL;
    try {
      frameUrl = new URL(frame.url());
      if (!/^https?:$/.test(frameUrl.protocol) || siteOf(frameUrl.hostname) === site) continue;
    } catch {
      continue;
    }
    const inFrame = (await frame.evaluate(readRecorder).catch(() => null)) as Recorded | null;
    for (const [written, caller] of inFrame?.cookies ?? []) {
      const cookie = cookieFromWrite(written, frameUrl, caller ?? frameUrl.href, now);
      if (cookie && "kept" in cookie) result.cookies.push(cookie.kept);
      else if (cookie) result.refusedCookies.push(cookie.refused);
    }
  }
  result.refusedCookies.push(...sources.refusedCookies);
  for (const c of await context.cookies().catch(() => [])) {
    result.cookies.push({
      name: c.name, domain: c.domain, path: c.path, expires: c.expires > 0 ? Math.round(c.expires) : null,
      httpOnly: c.httpOnly, secure: c.secure, sameSite: c.sameSite,
      initiator: writer.get(`cookie\u0000${c.name}`) ?? sources.cookieSources.get(c.name) ?? null,
    });
  }
  result.cookies.push(...sources.rebuiltCookies);
  for (const frame of page.frames()) {
    const storage = (await frame.evaluate(readStorage).catch(() => null)) as FrameStorage | null;
    if (!storage || !/^https?:/.test(storage.origin)) continue;
    for (const area of ["localStorage", "sessionStorage", "indexedDB"] as const) {
      for (const name of storage[area]) {
        result.storage.push({ name, area, origin: storage.origin, initiator: writer.get(`${area}\u0000${name}`) ?? null });
      }
    }
  }
  for (const { request, at } of sources.seen) {
    let host: string;
    try {
      const target = new URL(request.url());
      if (!/^https?:$/.test(target.protocol)) continue;
      host = target.host;
      if (siteOf(target.hostname) === site) continue;
    } catch {
      continue;
    }
    const frame = (() => { try { return request.frame().url(); } catch { return null; } })();
    result.requests.push({
      host,
      resourceType: request.resourceType() === "ping" ? "beacon" : request.resourceType() === "document" ? "iframe" : request.resourceType(),
      initiator: sources.scriptOf.get(request.url()) ?? frame,
      afterDecision: at > sources.decidedAt,
    });
  }
  const facts = (await page.evaluate(readPage).catch(() => null)) as PageFacts | null;
  if (facts) Object.assign(result, { elements: facts.elements, links: facts.links, assent: facts.assent });
  return recorded;
}
