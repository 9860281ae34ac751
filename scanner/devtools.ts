// What the crawl takes from the DevTools protocol, where Playwright exposes nothing: which script started each
// request, the bytes received as they stream in, the cookies the browser refused, what it need not download, and a
// guard on where the top frame may navigate, redirects included.
import type { BrowserContext, CDPSession, Page } from "playwright-core";

/** Why the top frame may not navigate to `url`, or undefined when it may. */
export type NavigationGuard = (url: string) => string | undefined;

export type SeenCookie = {
  name: string; domain: string; path: string; expires: number | null; httpOnly: boolean; secure: boolean;
  sameSite: "Strict" | "Lax" | "None"; initiator: string | null;
};

/** A cookie no browser keeps, and why: the report lists these apart from the cookies (`refusedCookies`). */
export type RefusedCookie = { name: string; domain: string; reason: string; initiator: string | null };

export type Devtools = {
  /** The script that started each request, by URL: the first script on the call stack, or the document. */
  scriptOf: Map<string, string>;
  /** Cookies a response set that the browser refused only because they were third-party, as a visitor's browser keeps them (see below). */
  rebuiltCookies: SeenCookie[];
  /** Cookies a response set that no browser keeps. */
  refusedCookies: RefusedCookie[];
};

/**
 * Playwright's contexts are like incognito windows, where Chromium blocks third-party cookies ("UserPreferences"):
 * a visitor's ordinary browser takes them. Such cookies are recorded as the response set them, so the report shows
 * what a tracker sets on visitors. Chromium then names only that reason, even for a cookie it would refuse anyway,
 * so `thirdPartyKept` applies the rule itself; the others, and cookies refused for other reasons, are reported apart.
 */
const thirdPartySetting = new Set(["UserPreferences", "ThirdPartyPhaseout", "ThirdPartyBlockedInFirstPartySet"]);

/**
 * Why a browser that allows third-party cookies would still refuse one set in a cross-site context (a third
 * party's response or frame), or undefined when it keeps it: such a cookie must be `SameSite=None`, which needs
 * `Secure` (RFC 6265bis; Chromium since version 80).
 */
export function thirdPartyRefusal(cookie: { sameSite?: string | null; secure: boolean }): string | undefined {
  const sameSite = cookie.sameSite?.toLowerCase();
  if (sameSite !== "none") return `set in a third-party context without SameSite=None (${sameSite ? `SameSite=${cookie.sameSite}` : "no SameSite, so Lax"}): browsers do not keep it`;
  if (!cookie.secure) return "SameSite=None without Secure: browsers refuse it";
  return undefined;
}

type BlockedCookie = {
  blockedReasons: string[];
  cookieLine: string;
  cookie?: { name: string; domain: string; path: string; expires: number; httpOnly: boolean; secure: boolean; sameSite?: "Strict" | "Lax" | "None" };
};

/**
 * What a scan does not need to download: fonts and media (by their usual file names; the requests are still made,
 * and so recorded, but fail at once). Pages load faster, and nothing the report holds comes from their bytes.
 */
export const unneededDownloads = ["woff2", "woff", "ttf", "otf", "eot", "mp4", "webm", "ogv", "ogg", "mp3", "m4a", "wav", "flac", "mov", "m4v"].flatMap((ext) => [`*.${ext}`, `*.${ext}?*`]);

/** Listens on a DevTools session of `page`; without one (another browser), answers null. */
export async function devtools(context: BrowserContext, page: Page, onBytes: (bytes: number) => void): Promise<Devtools | null> {
  const scriptOf = new Map<string, string>();
  const urlOf = new Map<string, string>();
  const rebuilt = new Map<string, SeenCookie>();
  const refused = new Map<string, RefusedCookie>();
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
      for (const { blockedReasons, cookie, cookieLine } of event.blockedCookies as BlockedCookie[]) {
        if (blockedReasons.length === 0) continue;
        const url = urlOf.get(event.requestId);
        const initiator = url ? (scriptOf.get(url) ?? url) : null;
        const thirdPartyOnly = blockedReasons.every((reason) => thirdPartySetting.has(reason));
        const why = !cookie ? `not a valid cookie (${blockedReasons.join(", ")})` : thirdPartyOnly ? thirdPartyRefusal(cookie) : blockedReasons.join(", ");
        if (why) {
          const name = cookie?.name ?? cookieLine.split(";")[0].split("=")[0].trim();
          const domain = cookie?.domain.replace(/^\./, "") ?? (url ? new URL(url).hostname : "");
          refused.set([name, domain].join("\u0000"), { name, domain, reason: why, initiator });
          continue;
        }
        if (!cookie) continue;
        rebuilt.set([cookie.name, cookie.domain, cookie.path].join("\u0000"), {
          name: cookie.name, domain: cookie.domain.replace(/^\./, ""), path: cookie.path,
          expires: cookie.expires > 0 ? Math.round(cookie.expires) : null,
          httpOnly: cookie.httpOnly, secure: cookie.secure, sameSite: cookie.sameSite ?? "Lax",
          initiator,
        });
      }
    });
    await cdp.send("Network.enable");
    await cdp.send("Network.setBlockedURLs", { urls: unneededDownloads });
  } catch {
    return null;
  }
  return {
    scriptOf,
    get rebuiltCookies() {
      return [...rebuilt.values()];
    },
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
