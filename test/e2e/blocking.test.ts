// Automatic blocking in Debian's Chromium against the real service: a page carrying the vendors' own snippets (GA4,
// Meta Pixel, Microsoft Clarity), a YouTube embed and tracking pixels, every one from a `*.localhost` host served by a
// local server that records each request (blocking-vendors.ts), with the project's blocker first in `<head>`.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./browser";
import { ran, seen, statusOf, testEntries, vendorServer, vendorSnippets, visitVendorPage, type VendorVisit } from "./blocking-vendors";
import { adminToken, banner, base, events, hostSite, moduleTag, ok, shopProject, visitor, waitForEvent, type Shop } from "./widget-helpers";

let browser: Browser;
let site: Awaited<ReturnType<typeof hostSite>>;
let vendors: Awaited<ReturnType<typeof vendorServer>>;
let shop: Shop;

const blockerTag = (projectId: string) => `<script src="${base}/widget/v1/projects/${projectId}/blocking.js"></script>`;

function page(projectId: string, { head = "", body = "", lang = "en" }) {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>Shop</title>
${blockerTag(projectId)}
${head}
${moduleTag}
</head><body><h1>Shop</h1>
${body}
<assent-consent project="${projectId}" regime="opt-in"></assent-consent>
</body></html>`;
}

/** Every way a page's script can add a script, frame or pixel; each from its own path on dynamic.localhost. */
const dynamicWays = [
  "src-then-appendChild",
  "appendChild-then-src",
  "insertBefore",
  "append",
  "prepend",
  "setAttribute",
  "frame",
  "new-Image",
  "innerHTML-img",
];
const dynamicScript = (origin: string) => `
  const url = (way) => "${origin}/dynamic/" + way;
  const script = () => document.createElement("script");
  let s = script(); s.src = url("src-then-appendChild"); document.head.appendChild(s);
  s = script(); document.head.appendChild(s); s.src = url("appendChild-then-src");
  s = script(); s.src = url("insertBefore"); document.head.insertBefore(s, document.head.firstChild);
  s = script(); s.src = url("append"); document.body.append(s);
  s = script(); s.src = url("prepend"); document.body.prepend(s);
  s = script(); document.body.appendChild(s); s.setAttribute("src", url("setAttribute"));
  const frame = document.createElement("iframe"); frame.src = url("frame"); document.body.appendChild(frame);
  new Image().src = url("new-Image");
  const box = document.createElement("div"); box.innerHTML = '<img alt="" src="' + url("innerHTML-img") + '">'; document.body.appendChild(box);
`;

let offProjectId: string;

beforeAll(async () => {
  [site, vendors] = await Promise.all([hostSite(), vendorServer()]);
  shop = await shopProject(site.origin);
  await ok("PUT", `/admin/v1/projects/${shop.projectId}/blocking`, adminToken, { enabled: true, entries: testEntries });
  // The same list, switched off.
  offProjectId = (await shopProject(site.origin)).projectId;
  await ok("PUT", `/admin/v1/projects/${offProjectId}/blocking`, adminToken, { enabled: false, entries: testEntries });
  const snippet = vendorSnippets(vendors.port);
  const at = (host: string) => `http://${host}.localhost:${vendors.port}`;
  const ordered = ["a", "b", "c"].map((name) => `<script src="${at("order")}/order/${name}.js" data-name="${name}"></script>`).join("\n");
  Object.assign(site.pages, {
    "/vendors.html": {
      body: page(shop.projectId, {
        head: `${snippet.ga4}\n${snippet.meta}\n${snippet.clarity}\n${ordered}`,
        body: `${snippet.youtube}\n${snippet.pixel}\n<script>new Image().src = "${at("pixel.tracker")}/p.gif?ev=js";</script>`,
      }),
    },
    "/swedish.html": { body: page(shop.projectId, { lang: "sv", body: snippet.youtube }) },
    "/dynamic.html": { body: page(shop.projectId, { body: `<script>${dynamicScript(at("dynamic"))}</script>` }) },
    // Meta's pixel broken on the page: its global throws whatever it is called with.
    "/throwing.html": {
      body: page(shop.projectId, { head: `<script>window.fbq = function () { throw new Error("broken pixel"); };</script>\n${snippet.clarity}` }),
    },
    "/off.html": { body: page(offProjectId, { head: snippet.clarity }) },
    // The widget's own gating form, from a listed host, written in the HTML and made by script.
    "/gated.html": {
      body: page(shop.projectId, {
        body: `<script type="text/plain" data-assent-purpose="analytics" src="${at("order")}/order/b.js"></script>
<script>
  const gated = document.createElement("script");
  gated.type = "text/plain";
  gated.dataset.assentPurpose = "analytics";
  gated.src = "${at("order")}/order/c.js";
  document.body.appendChild(gated);
</script>`,
      }),
    },
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await Promise.all([site?.close(), vendors?.close()]);
});

/** A vendor stub's queue (fbq.queue, clarity.q) as arrays. */
const queue = (p: Page, path: "fbq.queue" | "clarity.q"): Promise<unknown[][]> =>
  p.evaluate((path) => {
    const [name, key] = path.split(".");
    return ((window as any)[name]?.[key] ?? []).map((args: ArrayLike<unknown>) => Array.from(args));
  }, path);

/** What Chromium fetches of elements written in the HTML before any script can act (docs/blocking.md). */
const fetchedFromHtml = [
  "www.googletagmanager.localhost /gtag/js?id=G-TEST",
  "order.localhost /order/a.js",
  "order.localhost /order/b.js",
  "order.localhost /order/c.js",
  "pixel.tracker.localhost /p.gif?ev=html",
  "www.youtube.localhost /embed/xyz",
];

describe("a page with GA4, Meta Pixel, Clarity, a YouTube embed and pixels", () => {
  let visit: VendorVisit;
  let p: Page;

  beforeAll(async () => {
    visit = await visitVendorPage(browser, `${site.origin}/vendors.html`, vendors);
    p = visit.page;
  });

  it("runs nothing of theirs before consent, and loads nothing the page's scripts create", async () => {
    expect(await ran(p)).toEqual([]);
    // Elements written in the HTML are fetched by Chromium's preload scanner (scripts, images) or start navigating
    // (frames) visit.before the first script runs; the blocker keeps the scripts from running and the frame from showing.
    expect(visit.before.filter((line) => !fetchedFromHtml.includes(line))).toEqual([]);
    expect(await p.locator("iframe").getAttribute("src")).toBe("about:blank");
    expect(await p.locator("script[data-name]").evaluateAll((scripts) => scripts.map((s) => s.getAttribute("type")))).toEqual([
      "javascript/blocked",
      "javascript/blocked",
      "javascript/blocked",
    ]);
  });

  it("makes each vendor's consent call on the first decision: nothing granted", async () => {
    expect(await queue(p, "fbq.queue")).toContainEqual(["consent", "revoke"]);
    expect(await queue(p, "clarity.q")).toContainEqual(["consentv2", { ad_Storage: "denied", analytics_Storage: "denied" }]);
  });

  it("loads the embed from its placeholder and records consent to its purpose (marketing) alone", async () => {
    const clicked = vendors.requests.length;
    await visit.placeholder().click();
    await p.waitForFunction(() => document.querySelector("iframe")?.getAttribute("src")?.endsWith("/embed/xyz"));
    await p.waitForFunction(() => (window as any).__ran?.includes("meta"));
    expect(await p.locator(".assent-placeholder").count()).toBe(0);
    expect(await p.locator("iframe").isVisible()).toBe(true);
    // The frame navigates and the released pixel loads a moment after their src is set: wait for the requests.
    await expect.poll(() => seen(vendors.requests.slice(clicked))).toEqual(
      expect.arrayContaining([
        "www.youtube.localhost /embed/xyz",
        "connect.facebook.localhost /en_US/fbevents.js",
        "pixel.tracker.localhost /p.gif?ev=js",
      ]),
    );
    expect(await statusOf(shop, visit.identityId)).toEqual({ marketing: "approved" });
    // Marketing's vendors run and are told; analytics' do not run.
    expect(await ran(p)).toEqual(["meta"]);
    expect((await queue(p, "fbq.queue")).filter(([command]) => command === "consent")).toEqual([["consent", "revoke"], ["consent", "grant"]]);
  });

  it("runs analytics' tags once it is approved, the page's scripts in the order it wrote them", async () => {
    await banner(p).getByRole("button", { name: "Accept all" }).click();
    await p.waitForFunction(() => ["ga4", "clarity", "a", "b", "c"].every((name) => (window as any).__ran?.includes(name)));
    const order = (await ran(p)).filter((name) => ["a", "b", "c"].includes(name));
    expect(order).toEqual(["a", "b", "c"]);
    expect(await p.locator("script[data-name]").evaluateAll((scripts) => scripts.map((s) => s.getAttribute("type")))).toEqual([null, null, null]);
    expect((await queue(p, "clarity.q")).filter(([command]) => command === "consentv2").at(-1)).toEqual([
      "consentv2",
      { ad_Storage: "granted", analytics_Storage: "granted" },
    ]);
    expect(await statusOf(shop, visit.identityId)).toEqual({ marketing: "approved", analytics: "approved" });
    expect(visit.errors).toEqual([]);
  });

  it("lets a returning visitor's tags run from the stored decision, before the widget has said anything", async () => {
    await p.reload();
    await p.waitForFunction(() => ["ga4", "meta", "clarity", "a", "b", "c"].every((name) => (window as any).__ran?.includes(name)));
    const eventsBefore = await p.evaluate(() => (window as any).__eventsBefore);
    expect(eventsBefore.a).toBe(0);
    expect(await p.locator(".assent-placeholder").count()).toBe(0);
  });
});

describe("the placeholder in the page's language", () => {
  it("speaks Swedish on a Swedish page, and a keyboard loads the embed", async () => {
    const { page: p } = await visitor(browser);
    await p.goto(`${site.origin}/swedish.html`);
    const button = p.getByRole("button", { name: "Läs in videon från YouTube: det delar data med Google" });
    await button.focus();
    await p.keyboard.press("Enter");
    await p.waitForFunction(() => document.querySelector("iframe")?.getAttribute("src")?.endsWith("/embed/xyz"));
    await p.context().close();
  });
});

describe("elements a page's scripts create", () => {
  it("are held whichever way they are made, and each loads once its purpose is approved", async () => {
    vendors.requests.length = 0;
    const { page: p } = await visitor(browser);
    await p.goto(`${site.origin}/dynamic.html`);
    await waitForEvent(p, "assent-ready");
    await banner(p).waitFor();
    expect(seen(vendors.requests)).toEqual([]);
    // A held script reads back the URL it was given.
    expect(await p.locator("script").evaluateAll((scripts) => scripts.filter((s: any) => s.src.includes("/dynamic/")).length)).toBe(6);
    await banner(p).getByRole("button", { name: "Accept all" }).click();
    await p.waitForFunction((count) => (window as any).__ran?.length === count, 6);
    await expect.poll(() => seen(vendors.requests).sort()).toEqual(dynamicWays.map((way) => `dynamic.localhost /dynamic/${way}`).sort());
    expect((await ran(p)).sort()).toEqual(
      ["src-then-appendChild", "appendChild-then-src", "insertBefore", "append", "prepend", "setAttribute"].map((way) => `/dynamic/${way}`).sort(),
    );
    await p.context().close();
  });
});

describe("the widget's own gating form on a listed host", () => {
  it("runs once allowed, whether the page wrote it or a script made it", async () => {
    const { page: p } = await visitor(browser);
    await p.goto(`${site.origin}/gated.html`);
    await waitForEvent(p, "assent-ready");
    await banner(p).getByRole("button", { name: "Accept all" }).click();
    await p.waitForFunction(() => ["b", "c"].every((name) => (window as any).__ran?.includes(name)));
    await p.context().close();
  });
});

describe("a vendor's consent call that throws", () => {
  it("does not break the widget, nor the other vendors' calls", async () => {
    const { page: p } = await visitor(browser);
    const errors: string[] = [];
    p.on("pageerror", (error) => errors.push(error.message));
    await p.goto(`${site.origin}/throwing.html`);
    await waitForEvent(p, "assent-ready");
    await banner(p).getByRole("button", { name: "Accept all" }).click();
    await waitForEvent(p, "assent-change");
    await p.waitForFunction(() => (window as any).__ran?.includes("clarity"));
    const identityId = (await events(p, "assent-change"))[0].identityId;
    expect(await statusOf(shop, identityId)).toEqual({ marketing: "approved", analytics: "approved" });
    expect((await queue(p, "clarity.q")).filter(([command]) => command === "consentv2").at(-1)).toEqual([
      "consentv2",
      { ad_Storage: "granted", analytics_Storage: "granted" },
    ]);
    expect(await banner(p).count()).toBe(0);
    expect(errors).toEqual([]);
    await p.context().close();
  });
});

describe("GET /widget/v1/projects/{project_id}/blocking.js", () => {
  const url = (projectId: string) => `${base}/widget/v1/projects/${projectId}/blocking.js`;

  it("is a script with the project's list inlined, cached for a minute and revalidated with its ETag", async () => {
    const res = await fetch(url(shop.projectId));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("public, max-age=60");
    const body = await res.text();
    expect(body).toContain(`"host":"connect.facebook.localhost","purpose":"marketing","vendor":"meta-pixel"`);
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    const again = await fetch(url(shop.projectId), { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
  });

  it("holds nothing back for a project that switched blocking off", async () => {
    const res = await fetch(url(offProjectId));
    expect(await res.text()).toContain('"entries":[]');
    vendors.requests.length = 0;
    const { page: p } = await visitor(browser);
    await p.goto(`${site.origin}/off.html`);
    await p.waitForFunction(() => (window as any).__ran?.includes("clarity"));
    await p.context().close();
  });

  it("answers 404 for a project that does not exist", async () => {
    const res = await fetch(url("prj_doesnotexist"));
    expect(res.status).toBe(404);
    expect((await res.json()).code).toBe("not_found");
  });
});
