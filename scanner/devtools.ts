// What the crawl takes from the DevTools protocol, where Playwright exposes nothing: which script started each
// request, the bytes received as they stream in, the cookies the browser refused only by its third-party setting,
// and a guard on where the top frame may navigate, redirects included.
import type { BrowserContext, CDPSession, Page } from "playwright-core";

/** Why the top frame may not navigate to `url`, or undefined when it may. */
export type NavigationGuard = (url: string) => string | undefined;

export type SeenCookie = {
  name: string; domain: string; path: string; expires: number | null; httpOnly: boolean; secure: boolean;
  sameSite: "Strict" | "Lax" | "None"; initiator: string | null;
};

export type Devtools = {
  /** The script that started each request, by URL: the first script on the call stack, or the document. */
  scriptOf: Map<string, string>;
  /** Cookies a response set that the browser refused only because they were third-party (see below). */
  refusedCookies: SeenCookie[];
};

/**
 * Playwright's contexts are like incognito windows, where Chromium blocks third-party cookies ("UserPreferences"):
 * a visitor's ordinary browser takes them. Such cookies are recorded as the response set them, so the report shows
 * what a tracker sets on visitors. Cookies refused for other reasons (no Secure with SameSite=None, a bad domain)
 * no browser keeps, and are left out.
 */
const thirdPartySetting = new Set(["UserPreferences", "ThirdPartyPhaseout", "ThirdPartyBlockedInFirstPartySet"]);

type BlockedCookie = {
  blockedReasons: string[];
  cookie?: { name: string; domain: string; path: string; expires: number; httpOnly: boolean; secure: boolean; sameSite?: "Strict" | "Lax" | "None" };
};

/** Listens on a DevTools session of `page`; without one (another browser), answers null. */
export async function devtools(context: BrowserContext, page: Page, onBytes: (bytes: number) => void): Promise<Devtools | null> {
  const scriptOf = new Map<string, string>();
  const urlOf = new Map<string, string>();
  const refused = new Map<string, SeenCookie>();
  try {
    const cdp = await context.newCDPSession(page);
    cdp.on("Network.requestWillBeSent", (event) => {
      urlOf.set(event.requestId, event.request.url);
      const frames = event.initiator.stack?.callFrames ?? [];
      const script = frames.find((f) => f.url)?.url ?? event.initiator.url;
      if (script && !scriptOf.has(event.request.url)) scriptOf.set(event.request.url, script);
    });
    cdp.on("Network.dataReceived", (event) => onBytes(event.dataLength));
    cdp.on("Network.responseReceivedExtraInfo", (event) => {
      for (const { blockedReasons, cookie } of event.blockedCookies as BlockedCookie[]) {
        if (!cookie || blockedReasons.length === 0 || !blockedReasons.every((reason) => thirdPartySetting.has(reason))) continue;
        const url = urlOf.get(event.requestId);
        refused.set([cookie.name, cookie.domain, cookie.path].join("\u0000"), {
          name: cookie.name, domain: cookie.domain.replace(/^\./, ""), path: cookie.path,
          expires: cookie.expires > 0 ? Math.round(cookie.expires) : null,
          httpOnly: cookie.httpOnly, secure: cookie.secure, sameSite: cookie.sameSite ?? "Lax",
          initiator: url ? (scriptOf.get(url) ?? url) : null,
        });
      }
    });
    await cdp.send("Network.enable");
  } catch {
    return null;
  }
  return {
    scriptOf,
    get refusedCookies() {
      return [...refused.values()];
    },
  };
}

/** A refused navigation, as a page error: what the guard said. */
export class NavigationRefused extends Error {
  readonly code = "navigation_refused";
}

/**
 * Holds every document request of the page's top frame, redirects included, until `guard` has seen its URL, and
 * fails the refused ones before they leave the browser (`net::ERR_BLOCKED_BY_CLIENT`). Answers the reason of the
 * last refusal. Throws when the browser gives no DevTools session: then redirects could not be checked at all.
 */
export async function guardNavigations(context: BrowserContext, page: Page, guard: NavigationGuard): Promise<{ reason: string | null }> {
  const refusal = { reason: null as string | null };
  let cdp: CDPSession;
  try {
    cdp = await context.newCDPSession(page);
  } catch {
    throw new NavigationRefused("The browser gives no DevTools session, so where the page navigates could not be checked; it was not visited.");
  }
  const { frameTree } = await cdp.send("Page.getFrameTree");
  const top = frameTree.frame.id;
  cdp.on("Fetch.requestPaused", (event) => {
    const reason = event.frameId === top ? guard(event.request.url) : undefined;
    if (reason) refusal.reason = `${new URL(event.request.url).host}: ${reason}`;
    const answer = reason
      ? cdp.send("Fetch.failRequest", { requestId: event.requestId, errorReason: "BlockedByClient" })
      : cdp.send("Fetch.continueRequest", { requestId: event.requestId });
    answer.catch(() => {});
  });
  await cdp.send("Fetch.enable", { patterns: [{ urlPattern: "*", resourceType: "Document", requestStage: "Request" }] });
  return refusal;
}
