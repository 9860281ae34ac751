// What the crawl takes from the DevTools protocol, where Playwright exposes nothing: which script started each
// request, the bytes received as they stream in, the cookies the browser refused, what it need not download, and a
// guard on every request the page makes, redirects included.
import type { BrowserContext, CDPSession, Page } from "playwright-core";
import type { RequestGuard } from "../shared/ssrf.ts";

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
 * In the full Chromium, Playwright's contexts are like incognito windows, where third-party cookies are blocked
 * ("UserPreferences"): a visitor's ordinary browser takes them. Such cookies are recorded as the response set them,
 * so the report shows what a tracker sets on visitors. Chromium then names only that reason, even for a cookie it
 * would refuse anyway, so `thirdPartyRefusal` applies the rule itself. The headless shell allows third-party cookies
 * and names the SameSite rule instead (a Set-Cookie is refused for SameSite only in a cross-site context), which the
 * same rule words alike. Cookies refused for other reasons are reported apart, with the browser's reasons.
 */
const thirdPartyReasons = new Set([
  "UserPreferences", "ThirdPartyPhaseout", "ThirdPartyBlockedInFirstPartySet",
  "SameSiteLax", "SameSiteStrict", "SameSiteUnspecifiedTreatedAsLax", "SameSiteNoneInsecure",
  "SchemefulSameSiteLax", "SchemefulSameSiteStrict", "SchemefulSameSiteUnspecifiedTreatedAsLax",
]);

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

/**
 * Why a browser that allows third-party cookies refuses a Set-Cookie the scan's browser refused for
 * `blockedReasons` (the DevTools protocol's), or undefined when it would keep it (then it is rebuilt).
 */
export function setCookieRefusal(blockedReasons: string[], cookie: { sameSite?: string | null; secure: boolean } | undefined): string | undefined {
  if (!cookie) return `not a valid cookie (${blockedReasons.join(", ")})`;
  return blockedReasons.every((reason) => thirdPartyReasons.has(reason)) ? thirdPartyRefusal(cookie) : blockedReasons.join(", ");
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
        const why = setCookieRefusal(blockedReasons, cookie);
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

/** What a guarded visit refused: where the top frame would have gone, naming the host, or null. */
export type Refusals = { reason: string | null };

/**
 * Holds every request the page makes until `guard` has said yes, and fails the refused ones before they leave the
 * browser (`net::ERR_BLOCKED_BY_CLIENT`), through two interceptions that share the one guard:
 * - Playwright's routing of the context: every request of every frame, cross-site ones (their own renderer) and
 *   workers included, but a redirect's next hop is not routed (Playwright continues it);
 * - the DevTools protocol's `Fetch` domain on the page, and on each cross-site frame as it appears: every request
 *   of those frames, each redirect's hop included.
 * Service workers are blocked where the context is made (they fetch outside both), and WebSockets are guarded by
 * Playwright's WebSocket routing. Answers where the top frame was refused to go. Throws when the browser gives no DevTools session:
 * then redirects could not be checked at all.
 */
export async function guardRequests(context: BrowserContext, page: Page, guard: RequestGuard): Promise<Refusals> {
  const refusals: Refusals = { reason: null };
  const refuse = (url: string, reason: string, topFrame: boolean) => {
    if (topFrame) refusals.reason = `${new URL(url).host}: ${reason}`;
  };
  let cdp: CDPSession;
  try {
    cdp = await context.newCDPSession(page);
  } catch {
    throw new NavigationRefused("The browser gives no DevTools session, so where the page's requests go could not be checked; it was not visited.");
  }
  const { frameTree } = await cdp.send("Page.getFrameTree");
  const top = frameTree.frame.id;
  const intercept = async (session: CDPSession) => {
    session.on("Fetch.requestPaused", (event) => {
      void guard(event.request.url).then((reason) => {
        if (reason) refuse(event.request.url, reason, event.frameId === top && event.resourceType === "Document");
        const answer = reason
          ? session.send("Fetch.failRequest", { requestId: event.requestId, errorReason: "BlockedByClient" })
          : session.send("Fetch.continueRequest", { requestId: event.requestId });
        return answer;
      }).catch(() => {});
    });
    await session.send("Fetch.enable", { patterns: [{ urlPattern: "*", requestStage: "Request" }] });
  };
  await intercept(cdp);
  // A cross-site frame runs in its own renderer, out of the page's session: its redirects are guarded once it has one.
  const guarded = new WeakSet<object>();
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame() || guarded.has(frame)) return;
    guarded.add(frame);
    void context.newCDPSession(frame).then(intercept).catch(() => {
      // The frame shares the page's renderer (same site), so the page's session already guards it, or it is gone.
    });
  });
  await context.route("**/*", async (route) => {
    const url = route.request().url();
    const reason = await guard(url);
    if (!reason) return route.fallback();
    // Navigation first: a worker's request has no frame to ask for.
    refuse(url, reason, route.request().isNavigationRequest() && route.request().frame() === page.mainFrame());
    return route.abort("blockedbyclient");
  });
  await context.routeWebSocket(/.*/, async (socket) => {
    const reason = await guard(socket.url());
    if (!reason) return socket.connectToServer();
    refuse(socket.url(), reason, false);
    return socket.close({ code: 1008, reason: "Refused by the scan's guard." });
  });
  return refusals;
}
