// The third parties of the blocking tests: one local HTTP server answering for every `*.localhost` host (Chromium
// resolves them all to 127.0.0.1, so each is a real other site), recording every request it gets, and serving fake
// vendor files that note on the page that they ran.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { banner, events, ok, visitor, waitForEvent, type Json, type Shop } from "./widget-helpers";

export type VendorRequest = { host: string; path: string };

/**
 * What the fake vendor files do when they run: note it in `window.__ran`, in order, and in `__eventsBefore` how many
 * widget events the page had heard by then (the helpers' init script records them).
 */
const noteRan = (name: string) =>
  `(window.__ran = window.__ran || []).push(${JSON.stringify(name)}); (window.__eventsBefore = window.__eventsBefore || {})[${JSON.stringify(name)}] = (window.__events || []).length;`;

const files: Record<string, { type: string; body: string; delayMs?: number }> = {
  // gtag.js: reads the queue the snippet filled.
  "/gtag/js": { type: "text/javascript", body: noteRan("ga4") },
  // fbevents.js: from now on, calls land in the same queue the stub fills (so the test reads every call there).
  "/en_US/fbevents.js": { type: "text/javascript", body: `${noteRan("meta")} fbq.callMethod = function () { fbq.queue.push(arguments); };` },
  // Clarity's tag: keeps the stub's queue as it is.
  "/tag/abc": { type: "text/javascript", body: noteRan("clarity") },
  "/embed/xyz": { type: "text/html", body: "<!doctype html><title>video</title><p>the video</p>" },
  "/p.gif": { type: "image/gif", body: "GIF89a" },
  // Slower than the two after it: released out of order, it would run last.
  "/order/a.js": { type: "text/javascript", body: noteRan("a"), delayMs: 300 },
  "/order/b.js": { type: "text/javascript", body: noteRan("b") },
  "/order/c.js": { type: "text/javascript", body: noteRan("c") },
};

export async function vendorServer(): Promise<{ port: number; requests: VendorRequest[]; close(): Promise<void> }> {
  const requests: VendorRequest[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    requests.push({ host: (req.headers.host ?? "").replace(/:\d+$/, ""), path: url.pathname + url.search });
    const file = files[url.pathname] ?? (url.pathname.startsWith("/dynamic/") ? { type: "text/javascript", body: noteRan(url.pathname) } : undefined);
    if (!file) return res.writeHead(404).end();
    const answer = () => res.writeHead(200, { "content-type": file.type, "cache-control": "no-store" }).end(file.body);
    if ("delayMs" in file && file.delayMs) setTimeout(answer, file.delayMs);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * The vendors' own snippets as their documentation gives them, with only the host and ids changed to the test's
 * (`www.googletagmanager.com` → `www.googletagmanager.localhost:<port>`, and so on).
 */
export function vendorSnippets(port: number) {
  const at = (host: string) => `http://${host}.localhost:${port}`;
  return {
    ga4: `<script async src="${at("www.googletagmanager")}/gtag/js?id=G-TEST"></script>
<script>
  window.dataLayer = window.dataLayer || [];
  function gtag(){dataLayer.push(arguments);}
  gtag('js', new Date());

  gtag('config', 'G-TEST');
</script>`,
    meta: `<script>
!function(f,b,e,v,n,t,s)
{if(f.fbq)return;n=f.fbq=function(){n.callMethod?
n.callMethod.apply(n,arguments):n.queue.push(arguments)};
if(!f._fbq)f._fbq=n;n.push=n;n.loaded=!0;n.version='2.0';
n.queue=[];t=b.createElement(e);t.async=!0;
t.src=v;s=b.getElementsByTagName(e)[0];
s.parentNode.insertBefore(t,s)}(window, document,'script',
'${at("connect.facebook")}/en_US/fbevents.js');
fbq('init', '123456');
fbq('track', 'PageView');
</script>
<noscript><img height="1" width="1" style="display:none"
src="${at("www.facebook")}/tr?id=123456&ev=PageView&noscript=1"
/></noscript>`,
    clarity: `<script type="text/javascript">
    (function(c,l,a,r,i,t,y){
        c[a]=c[a]||function(){(c[a].q=c[a].q||[]).push(arguments)};
        t=l.createElement(r);t.async=1;t.src="${at("www.clarity")}/tag/"+i;
        y=l.getElementsByTagName(r)[0];y.parentNode.insertBefore(t,y);
    })(window, document, "clarity", "script", "abc");
</script>`,
    youtube: `<iframe width="560" height="315" src="${at("www.youtube")}/embed/xyz" title="YouTube video player" frameborder="0" allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture; web-share" referrerpolicy="strict-origin-when-cross-origin" allowfullscreen></iframe>`,
    pixel: `<img src="${at("pixel.tracker")}/p.gif?ev=html" width="1" height="1" alt="">`,
  };
}

/** The project's list: the catalogue hosts mapped by hand to the test's hosts, with their vendor ids. */
export const testEntries = [
  { host: "www.googletagmanager.localhost", purpose: "analytics", source: "manual", vendor: "google-analytics" },
  { host: "connect.facebook.localhost", purpose: "marketing", source: "manual", vendor: "meta-pixel" },
  { host: "www.facebook.localhost", purpose: "marketing", source: "manual", vendor: "meta-pixel" },
  { host: "*.clarity.localhost", purpose: "analytics", source: "manual", vendor: "microsoft-clarity" },
  { host: "www.youtube.localhost", purpose: "marketing", source: "manual", vendor: "youtube" },
  { host: "pixel.tracker.localhost", purpose: "marketing", source: "manual" },
  { host: "order.localhost", purpose: "analytics", source: "manual" },
  { host: "dynamic.localhost", purpose: "marketing", source: "manual" },
];

/** The requests the vendor server got, as `host path`. */
export const seen = (requests: VendorRequest[]) => requests.map(({ host, path }) => `${host} ${path}`);
/** The fake vendor files that ran on the page, in order. */
export const ran = (page: Page): Promise<string[]> => page.evaluate(() => (window as any).__ran ?? []);

/** The visitor's permission state as the service holds it (backend token): status per purpose referenceId. */
export async function statusOf(shop: Shop, identityId: string): Promise<Record<string, string>> {
  const state = await ok("GET", shop.under(`/identities/${identityId}/permission-state`), shop.token);
  const byId: Record<string, string> = { [shop.marketing.purposeId]: "marketing", [shop.analytics.purposeId]: "analytics", [shop.fraud.purposeId]: "fraud" };
  return Object.fromEntries(state.purposes.map((purpose: Json) => [byId[purpose.purposeId], purpose.status]));
}

export type VendorVisit = Awaited<ReturnType<typeof visitVendorPage>>;

/**
 * A new visitor on the page of vendor snippets at `url`, once the widget is ready, the embed's placeholder drawn and
 * the banner shown: the page, what the vendors had received by then, the visitor's identity and the page's errors.
 */
export async function visitVendorPage(browser: Browser, url: string, vendors: { requests: VendorRequest[] }) {
  vendors.requests.length = 0;
  const errors: string[] = [];
  const { page } = await visitor(browser);
  page.on("pageerror", (error) => errors.push(error.message));
  const placeholder = () => page.getByRole("button", { name: "Load the video from YouTube: this shares data with Google" });
  await page.goto(url);
  await waitForEvent(page, "assent-ready");
  await placeholder().waitFor();
  await banner(page).waitFor();
  const before = seen(vendors.requests);
  const identityId: string = (await events(page, "assent-ready"))[0].identityId;
  return { page, before, identityId, errors, placeholder };
}
