// Blocking audited as a regulator's crawler would (issue 36): the project's audit page (blocking-fixture.ts) with the
// vendors' published snippets and every known pattern, the vendors' real host names answered by a local TLS stand-in
// that records every request and connection (vendor-standin.ts). Phases: first visit, Reject all, returning after
// Reject, Accept all, returning after Accept, analytics only (and returning). Any request to a vendor before consent or
// after refusal fails, except what docs/blocking.md lists as beyond a script's reach.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditEntries, auditPage } from "./blocking-fixture";
import { vendorStandIn, type Hit } from "./vendor-standin";
import { adminToken, banner, base, dialog, hostSite, moduleTag, ok, shopProject, visitor, waitForEvent, type Shop } from "./widget-helpers";

let browser: Browser;
let site: Awaited<ReturnType<typeof hostSite>>;
let standIn: Awaited<ReturnType<typeof vendorStandIn>>;
let shop: Shop;

/**
 * What Chromium fetches before any script can act (docs/blocking.md#what-it-cannot-catch-and-what-the-page-does-then):
 * a `<script src>` and an `<img>` written in the HTML (the preload scanner), an `<iframe src>` written in the HTML.
 */
const beyondScripts = [
  "www.googletagmanager.com /gtag/js?id=G-TEST12345",
  "www.youtube.com /embed/dQw4w9WgXcQ?si=test",
  "cdn.tracker.example /pixel.gif?ev=html",
];
const marketingHosts = new Set(auditEntries.filter((entry) => entry.purpose === "marketing").map((entry) => entry.host));

const line = ({ host, path }: Hit) => `${host} ${path}`;
/** Requests since `from`, but those beyond a script's reach. */
const leaks = (from = 0) => standIn.hits.slice(from).map(line).filter((hit) => !beyondScripts.includes(hit));
const ran = (p: Page): Promise<string[]> => p.evaluate(() => (window as any).__ran ?? []);
const patternsDone = (p: Page) => p.waitForFunction(() => (window as any).__patternsDone === true);
/** Each vendor script the stand-in serves, by the name it notes. */
const analyticsTags = ["gtm.js", "gtag.js", "hotjar", "clarity"];
const marketingTags = ["fbevents.js", "linkedin", "tiktok"];
const written = [...Array.from({ length: 20 }, (_, i) => `cdn.tracker.example/write/${i}.js`), "cdn.tracker.example/writeln.js"];

/** The dataLayer's gtag commands (first two arguments) and events, in order. */
const commands = (p: Page): Promise<string[]> =>
  p.evaluate(() =>
    ((window as any).dataLayer ?? []).map((entry: any) => (entry && typeof entry.length === "number" ? Array.from(entry).slice(0, 2).join(" ") : entry?.event)),
  );

beforeAll(async () => {
  [site, standIn] = await Promise.all([hostSite(), vendorStandIn()]);
  shop = await shopProject(site.origin);
  await ok("PUT", `/admin/v1/projects/${shop.projectId}/blocking`, adminToken, { enabled: true, entries: auditEntries });
  site.pages["/audit.html"] = {
    body: auditPage({ blocker: `<script src="${base}/widget/v1/projects/${shop.projectId}/blocking.js"></script>`, widget: moduleTag, projectId: shop.projectId }),
  };
  browser = await standIn.launch();
});
afterAll(async () => {
  await browser?.close();
  await Promise.all([site?.close(), standIn?.close()]);
});

/** A visit of the audit page, once the widget is ready and every pattern has run. */
async function visit(p: Page) {
  await p.goto(`${site.origin}/audit.html`);
  await waitForEvent(p, "assent-ready");
  await patternsDone(p);
}

describe("a visitor who rejects", () => {
  let p: Page;
  let from: number;

  beforeAll(async () => {
    from = standIn.hits.length;
    p = (await visitor(browser)).page;
  });
  afterAll(() => p.context().close());

  it("first visit: no vendor gets a request, nothing of theirs runs", async () => {
    await visit(p);
    await banner(p).waitFor();
    expect(leaks(from)).toEqual([]);
    expect(await ran(p)).toEqual([]);
  });

  it("Consent Mode's default is the dataLayer's first consent command, before any tag's", async () => {
    const order = await commands(p);
    const first = order.findIndex((command) => command === "consent default");
    expect(first).toBeGreaterThanOrEqual(0);
    expect(order.slice(0, first).filter((command) => command === "gtm.js" || command?.startsWith("config") || command?.startsWith("js"))).toEqual([]);
  });

  it("Reject all: still nothing", async () => {
    await banner(p).getByRole("button", { name: "Reject all" }).click();
    await waitForEvent(p, "assent-change");
    expect(leaks(from)).toEqual([]);
    expect(await ran(p)).toEqual([]);
  });

  it("returning after Reject: still nothing", async () => {
    from = standIn.hits.length;
    await visit(p);
    expect(leaks(from)).toEqual([]);
    expect(await ran(p)).toEqual([]);
  });
});

describe("a visitor who accepts all", () => {
  let p: Page;

  beforeAll(async () => {
    p = (await visitor(browser)).page;
    await visit(p);
  });
  afterAll(() => p.context().close());

  it("Accept all: every tag runs, each once, and scripts in HTML strings never", async () => {
    const from = standIn.hits.length;
    await banner(p).getByRole("button", { name: "Accept all" }).click();
    await p.waitForFunction((names) => names.every((name) => (window as any).__ran?.includes(name)), [...analyticsTags, ...marketingTags, ...written]);
    await p.waitForFunction(() => document.querySelectorAll(".assent-placeholder").length === 0);
    const names = await ran(p);
    expect(names.filter((name, index) => names.indexOf(name) !== index)).toEqual([]);
    expect(names.filter((name) => name.includes("/inert/"))).toEqual([]);
    expect(standIn.hits.slice(from).map(line).filter((hit) => hit.includes("/inert/"))).toEqual([]);
  });

  it("returning after Accept: the tags find the default and the stored update before anything else", async () => {
    await visit(p);
    await p.waitForFunction((names) => names.every((name) => (window as any).__ran?.includes(name)), [...analyticsTags, ...marketingTags]);
    const found = await p.evaluate(() => (window as any).__found);
    for (const tag of ["gtm.js", "gtag.js"]) {
      const seen: string[] = found[tag];
      expect(seen.indexOf("consent default"), tag).toBeGreaterThanOrEqual(0);
      expect(seen.indexOf("consent update"), tag).toBeGreaterThan(seen.indexOf("consent default"));
      expect(seen.indexOf("consent update"), tag).toBeLessThan(seen.indexOf("gtm.js"));
    }
  });
});

describe("a visitor who allows analytics only", () => {
  let p: Page;
  let from: number;

  beforeAll(async () => {
    from = standIn.hits.length;
    p = (await visitor(browser)).page;
    await visit(p);
  });
  afterAll(() => p.context().close());

  it("runs analytics' tags and sends nothing to a marketing host", async () => {
    await banner(p).getByRole("button", { name: "Customize" }).click();
    await dialog(p).getByRole("switch", { name: "Analytics", exact: true }).click();
    await dialog(p).getByRole("button", { name: "Save choices" }).click();
    await p.waitForFunction((names) => names.every((name) => (window as any).__ran?.includes(name)), analyticsTags);
    expect((await ran(p)).filter((name) => marketingTags.includes(name))).toEqual([]);
    expect(leaks(from).filter((hit) => marketingHosts.has(hit.split(" ")[0]))).toEqual([]);
  });

  it("returning: Google's tags start with the ad types denied (the default and the stored update before them)", async () => {
    from = standIn.hits.length;
    await visit(p);
    await p.waitForFunction((names) => names.every((name) => (window as any).__ran?.includes(name)), analyticsTags);
    const found = await p.evaluate(() => (window as any).__found);
    for (const tag of ["gtm.js", "gtag.js"]) {
      const seen: string[] = found[tag];
      expect(seen.slice(0, seen.indexOf("gtm.js")), tag).toEqual(expect.arrayContaining(["consent default", "consent update"]));
    }
    const update = await p.evaluate(() => Array.from((window as any).dataLayer.find((e: any) => e?.[0] === "consent" && e?.[1] === "update"))[2]);
    expect(update).toMatchObject({ analytics_storage: "granted", ad_storage: "denied", ad_user_data: "denied", ad_personalization: "denied" });
    expect(leaks(from).filter((hit) => marketingHosts.has(hit.split(" ")[0]))).toEqual([]);
  });
});
