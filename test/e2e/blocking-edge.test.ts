// Blocking at the edge in Debian's Chromium against the real service: the page the blocking test uses (GA4, Meta
// Pixel and Clarity snippets, scripts in order, a YouTube embed, a pixel, all from `*.localhost` vendor hosts), written
// without the blocker and served through the example edge Worker (examples/edge, in workerd), which holds the listed
// tags in the HTML and puts the blocker first. Unlike the blocker alone (test/e2e/blocking.test.ts), nothing at all
// reaches a vendor before consent: the preload scanner finds nothing to fetch.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./browser";
import { ran, seen, statusOf, testEntries, vendorServer, vendorSnippets, visitVendorPage, type VendorVisit } from "./blocking-vendors";
import { freePort } from "../../scripts/local-service.mjs";
import { edgeSite } from "./edge-site";
import { adminToken, banner, base, hostSite, moduleTag, ok, shopProject, type Shop } from "./widget-helpers";

let browser: Browser;
let site: Awaited<ReturnType<typeof hostSite>>;
let vendors: Awaited<ReturnType<typeof vendorServer>>;
let edge: Awaited<ReturnType<typeof edgeSite>>;
let shop: Shop;

beforeAll(async () => {
  const port = await freePort();
  [site, vendors] = await Promise.all([hostSite(), vendorServer()]);
  // The visitor's browser sees the edge's origin: that is the page the widget is allowed on.
  shop = await shopProject(`http://localhost:${port}`);
  await ok("PUT", `/admin/v1/projects/${shop.projectId}/blocking`, adminToken, { enabled: true, entries: testEntries });
  edge = await edgeSite(port, { origin: site.origin, service: base, project: shop.projectId });
  const snippet = vendorSnippets(vendors.port);
  const at = (host: string) => `http://${host}.localhost:${vendors.port}`;
  const ordered = ["a", "b", "c"].map((name) => `<script src="${at("order")}/order/${name}.js" data-name="${name}"></script>`).join("\n");
  site.pages["/vendors.html"] = {
    body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>
<link rel="preconnect" href="${at("www.googletagmanager")}">
${snippet.ga4}
${snippet.meta}
${snippet.clarity}
${ordered}
${moduleTag}
</head><body><h1>Shop</h1>
${snippet.youtube}
${snippet.pixel}
<assent-consent project="${shop.projectId}" regime="opt-in"></assent-consent>
</body></html>`,
  };
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await Promise.all([site?.close(), vendors?.close(), edge?.close()]);
});

describe("a page routed through the edge Worker", () => {
  let visit: VendorVisit;
  let p: Page;

  beforeAll(async () => {
    visit = await visitVendorPage(browser, `${edge.origin}/vendors.html`, vendors);
    p = visit.page;
  });

  it("arrives with the blocker first and the listed tags held", async () => {
    const html = await (await fetch(`${edge.origin}/vendors.html`)).text();
    expect(html).toContain(`<head><script src="${base}/widget/v1/projects/${shop.projectId}/blocking.js"></script><meta charset="utf-8">`);
    expect(html).not.toContain("rel=\"preconnect\"");
    expect(html).toContain(`data-src="http://www.youtube.localhost:${vendors.port}/embed/xyz" data-assent-held="marketing"></iframe>`);
    expect(html).toContain(`<img width="1" height="1" alt="" data-src="http://pixel.tracker.localhost:${vendors.port}/p.gif?ev=html" data-assent-held="marketing">`);
  });

  it("sends nothing to any vendor before consent, and runs nothing of theirs", async () => {
    expect(visit.before).toEqual([]);
    expect(seen(vendors.requests)).toEqual([]);
    expect(await ran(p)).toEqual([]);
    expect(await p.locator("iframe").getAttribute("src")).toBeNull();
  });

  it("loads the embed from its placeholder and records consent to its purpose (marketing) alone", async () => {
    await visit.placeholder().click();
    await p.waitForFunction(() => document.querySelector("iframe")?.getAttribute("src")?.endsWith("/embed/xyz"));
    await p.waitForFunction(() => (window as any).__ran?.includes("meta"));
    expect(await p.locator(".assent-placeholder").count()).toBe(0);
    await expect.poll(() => seen(vendors.requests)).toEqual(
      expect.arrayContaining([
        "www.youtube.localhost /embed/xyz",
        "connect.facebook.localhost /en_US/fbevents.js",
        "pixel.tracker.localhost /p.gif?ev=html",
      ]),
    );
    expect(await statusOf(shop, visit.identityId)).toEqual({ marketing: "approved" });
    expect(await ran(p)).toEqual(["meta"]);
  });

  it("runs analytics' tags once it is approved, the page's scripts in the order it wrote them", async () => {
    await banner(p).getByRole("button", { name: "Accept all" }).click();
    await p.waitForFunction(() => ["ga4", "clarity", "a", "b", "c"].every((name) => (window as any).__ran?.includes(name)));
    expect((await ran(p)).filter((name) => ["a", "b", "c"].includes(name))).toEqual(["a", "b", "c"]);
    expect(await p.locator("script[data-name]").evaluateAll((scripts) => scripts.map((s) => s.getAttribute("type")))).toEqual([null, null, null]);
    expect(await statusOf(shop, visit.identityId)).toEqual({ marketing: "approved", analytics: "approved" });
    expect(visit.errors).toEqual([]);
  });

  it("lets a returning visitor's tags run from the stored decision", async () => {
    await p.reload();
    await p.waitForFunction(() => ["ga4", "meta", "clarity", "a", "b", "c"].every((name) => (window as any).__ran?.includes(name)));
    expect((await ran(p)).filter((name) => ["a", "b", "c"].includes(name))).toEqual(["a", "b", "c"]);
    expect(await p.locator(".assent-placeholder").count()).toBe(0);
    expect(await p.locator("iframe").getAttribute("src")).toMatch(/\/embed\/xyz$/);
  });
});
