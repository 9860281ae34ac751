// The scanner (docs/scanner.md) in Debian's Chromium: a local shop with real-named trackers, the real Assent widget
// against the service global-setup.ts runs, and pages that fight the crawler. One browser for the file, many pages.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scanOrigin } from "../../scanner/crawl";
import { ScanReport } from "../../shared/scans/report";
import { launchBrowser } from "./browser";
import { startHostileFixture, startScanFixture, startSiteFixture } from "./scan-fixture.mjs";
import { base, shopProject } from "./widget-helpers";

let browser: Browser;
let shop: Awaited<ReturnType<typeof startScanFixture>>;
let hostile: Awaited<ReturnType<typeof startHostileFixture>>;
let project: Awaited<ReturnType<typeof shopProject>>;

beforeAll(async () => {
  shop = await startScanFixture();
  project = await shopProject(shop.origin);
  shop.useAssent({ base, projectId: project.projectId });
  hostile = await startHostileFixture();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await shop?.close();
  await hostile?.close();
});

const closedPort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

describe("a shop with trackers and the Assent widget", () => {
  let report: ScanReport;
  const page = (path: string) => `${shop.origin}${path}`;
  const cookie = (name: string) => report.cookies.find((c) => c.name === name);
  const key = (name: string) => report.storage.find((s) => s.name === name);
  const violations = (kind: string, item: string) => report.violations.filter((v) => v.kind === kind && v.item === item);

  beforeAll(async () => {
    // A generous load limit: the file shares two cores with the service and other browser files.
    report = ScanReport.parse(await scanOrigin(browser, `${shop.origin}/`, { maxPages: 20, pageTimeoutMs: 30_000 }));
  }, 300_000);

  it("follows the site's links only, skips what robots.txt disallows, and reports a missing page", () => {
    expect(report.origin).toBe(shop.origin);
    expect(report.database).toEqual({ name: "Open Cookie Database", revision: "0ee5a17" });
    const byUrl = Object.fromEntries(report.pages.map((p) => [p.url, p.error?.code ?? "ok"]));
    expect(byUrl).toEqual({
      [page("/")]: "ok",
      [page("/products")]: "ok",
      [page("/about")]: "ok",
      [page("/blog")]: "ok",
      [page("/private/account")]: "robots_disallowed",
      [page("/missing")]: "http_error",
    });
  });

  it("records cookies with their attributes and categories from the database, wildcards included", () => {
    expect(cookie("_ga")).toMatchObject({ category: "analytics", vendor: "Google Analytics", party: "first", firstSeen: "before-consent", domain: "localhost" });
    expect(cookie("_ga")!.expires).toBeGreaterThan(Date.now() / 1000);
    expect(cookie("_ga_ABC123")).toMatchObject({ category: "analytics", vendor: "Google Analytics", firstSeen: "before-consent" });
    expect(cookie("_fbp")).toMatchObject({ category: "marketing", vendor: "Facebook", firstSeen: "before-consent" });
    // The gated heatmap only runs once Accept all is clicked.
    expect(cookie("_hjSessionUser_1")).toMatchObject({ category: "functional", vendor: "Hotjar", firstSeen: "after-accept" });
    expect(cookie("XSRF-TOKEN")).toMatchObject({ category: "security", sameSite: "Strict", httpOnly: false, expires: null });
    // Unknown is listed, never dropped.
    expect(cookie("shop_cart")).toMatchObject({ category: "unclassified", vendor: null, httpOnly: true });
    expect(cookie("_ga")!.pages).toEqual(expect.arrayContaining([page("/"), page("/products"), page("/about"), page("/blog")]));
  });

  it("records a third-party cookie the ad network's pixel sets, with its Secure, SameSite and path", () => {
    expect(cookie("IDE")).toMatchObject({
      domain: "ads.localhost", path: "/x", party: "third", secure: true, sameSite: "None", httpOnly: false, category: "marketing", firstSeen: "before-consent",
    });
    expect(cookie("IDE")!.expires).toBeGreaterThan(Date.now() / 1000);
    expect(violations("before-consent", "IDE")).toContainEqual(expect.objectContaining({ itemType: "cookie", category: "marketing", page: page("/") }));
  });

  it("records localStorage and sessionStorage keys and IndexedDB databases, the widget's own keys as necessary", () => {
    expect(key("ajs_anonymous_id")).toMatchObject({ area: "localStorage", origin: shop.origin, category: "analytics", firstSeen: "before-consent" });
    expect(key("shop_last_page")).toMatchObject({ area: "sessionStorage", category: "unclassified" });
    expect(key("_hjSession_1")).toMatchObject({ area: "localStorage", category: "functional", vendor: "Hotjar", firstSeen: "after-accept" });
    expect(key("ga_db")).toMatchObject({ area: "indexedDB", origin: shop.origin, firstSeen: "before-consent", pages: expect.arrayContaining([page("/")]) });
    const own = report.storage.filter((s) => s.name.startsWith("assent:"));
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((s) => s.category === "necessary" && s.vendor === "Assent")).toBe(true);
  });

  it("records requests to other sites with their resource types and initiating scripts, beacons included", () => {
    const ads = report.thirdPartyHosts.find((h) => h.host === new URL(shop.at("ads.localhost")).host)!;
    expect(ads.resourceTypes).toEqual(expect.arrayContaining(["script", "beacon", "image"]));
    expect(ads.initiators).toContain(`${shop.at("ads.localhost")}/pixel.js`);
    // The gated heatmap's beacon: only after Accept all.
    expect(ads.initiators).toContain(`${shop.origin}/js/heatmap.js`);
    const video = report.thirdPartyHosts.find((h) => h.host === new URL(shop.at("video.localhost")).host)!;
    expect(video).toMatchObject({ resourceTypes: ["iframe"], firstSeen: "before-consent" });
    const service = report.thirdPartyHosts.find((h) => h.host === new URL(base).host)!;
    expect(service).toMatchObject({ category: "necessary", vendor: "Assent" });
  });

  it("lists scripts and iframes with their sources and the purpose already gating them", () => {
    const element = (src: string) => report.elements.find((e) => e.src === src);
    expect(element(`${shop.origin}/js/heatmap.js`)).toMatchObject({ kind: "script", gatedBy: "analytics" });
    expect(element(`${shop.at("ads.localhost")}/pixel.js`)).toMatchObject({ kind: "script", gatedBy: null, category: "marketing" });
    expect(element(`${shop.origin}/js/analytics.js`)).toMatchObject({ gatedBy: null, category: "analytics" });
    expect(element(`${shop.at("video.localhost")}/embed`)).toMatchObject({ kind: "iframe", gatedBy: null });
  });

  it("flags non-essential items seen before a decision, with page and initiating script", () => {
    expect(violations("before-consent", "_ga")).toContainEqual({
      kind: "before-consent", itemType: "cookie", item: "_ga", category: "analytics", page: page("/"), initiator: `${shop.origin}/js/analytics.js`,
    });
    expect(violations("before-consent", "_fbp")[0]).toMatchObject({ itemType: "cookie", category: "marketing", initiator: `${shop.at("ads.localhost")}/pixel.js` });
    expect(violations("before-consent", "ajs_anonymous_id")[0]).toMatchObject({ itemType: "storage", initiator: `${shop.origin}/js/analytics.js` });
    expect(violations("before-consent", new URL(shop.at("ads.localhost")).host)[0]).toMatchObject({ itemType: "request" });
    expect(violations("before-consent", new URL(shop.at("video.localhost")).host)[0]).toMatchObject({ itemType: "request", category: "unclassified" });
  });

  it("flags what is still set after Reject all, and never what is gated or essential", () => {
    expect(violations("after-reject", "_ga")[0]).toMatchObject({ itemType: "cookie", category: "analytics" });
    expect(violations("after-reject", "_fbp")[0]).toMatchObject({ itemType: "cookie", category: "marketing" });
    const flagged = new Set(report.violations.map((v) => v.item));
    // What fires again on the next load after Reject all: the ungated pixel's host, and the key a returning visit writes.
    expect(violations("after-reject", new URL(shop.at("ads.localhost")).host)).toContainEqual(expect.objectContaining({ itemType: "request", page: page("/") }));
    expect(violations("after-reject", "ajs_user_id")).toContainEqual(expect.objectContaining({ itemType: "storage", page: page("/"), initiator: `${shop.origin}/js/analytics.js` }));
    for (const fine of ["_hjSessionUser_1", "_hjSession_1", "XSRF-TOKEN", new URL(base).host]) expect(flagged.has(fine)).toBe(false);
    expect([...flagged].some((item) => item.startsWith("assent:"))).toBe(false);
  });

  it("proposes purposes with Consent Mode types, gating markup for each ungated tracker, and the host list", () => {
    expect(report.proposal.purposes.map(({ category, consentModeTypes }) => [category, consentModeTypes])).toEqual(
      expect.arrayContaining([
        ["analytics", ["analytics_storage"]],
        ["marketing", ["ad_storage", "ad_user_data", "ad_personalization"]],
        ["functional", ["functionality_storage"]],
      ]),
    );
    expect(report.proposal.purposes.map((p) => p.category)).not.toContain("necessary");
    expect(report.proposal.gating).toContainEqual({
      kind: "script",
      src: `${shop.at("ads.localhost")}/pixel.js`,
      category: "marketing",
      markup: `<script type="text/plain" data-assent-purpose="marketing" src="${shop.at("ads.localhost")}/pixel.js"></script>`,
    });
    expect(report.proposal.gating.map((g) => g.src)).not.toContain(`${shop.origin}/js/heatmap.js`);
    // The ad network is in no database: it waits for the operator's decision rather than being proposed under a purpose.
    expect(report.thirdPartyHosts.find((h) => h.host === new URL(shop.at("ads.localhost")).host)).toMatchObject({ category: "unclassified" });
    expect(report.proposal.hosts.map((h) => h.host)).not.toContain(new URL(shop.at("ads.localhost")).host);
    const proposed = report.proposal.purposes.map((p) => p.category);
    expect(report.proposal.hosts.every((h) => proposed.includes(h.category))).toBe(true);
    expect(report.proposal.hosts.map((h) => h.host)).not.toContain(new URL(base).host);
  });
});

describe("a site on several origins", () => {
  let site: Awaited<ReturnType<typeof startSiteFixture>>;
  beforeAll(async () => {
    site = await startSiteFixture();
  });
  afterAll(() => site?.close());
  const paths = (report: ScanReport) => Object.fromEntries(report.pages.map((p) => [p.url, p.error?.code ?? "ok"]));

  it("follows links to the same site's other origins, not to other sites", async () => {
    const report = ScanReport.parse(await scanOrigin(browser, `${site.origin}/`, { pageTimeoutMs: 30_000 }));
    expect(paths(report)).toEqual({
      [`${site.origin}/`]: "ok",
      [`${site.origin}/moved`]: "ok",
      [`${site.origin}/calm`]: "ok",
      [`${site.at("blog.shop.localhost")}/`]: "ok",
    });
  }, 120_000);

  it("refuses a redirect the guard refuses before it leaves the browser, visits only the origins mayFollow allows, and completes", async () => {
    site.hosts.length = 0;
    const report = ScanReport.parse(
      await scanOrigin(browser, `${site.origin}/`, {
        pageTimeoutMs: 30_000,
        refuseNavigation: (url) => (new URL(url).hostname === "internal.localhost" ? "not a public address" : undefined),
        mayFollow: (url) => url.origin === site.origin,
      }),
    );
    expect(paths(report)).toEqual({ [`${site.origin}/`]: "ok", [`${site.origin}/moved`]: "navigation_refused", [`${site.origin}/calm`]: "ok" });
    expect(report.pages.find((p) => p.url.endsWith("/moved"))!.error!.detail).toContain("internal.localhost");
    expect(site.hosts).not.toContain("internal.localhost");
    expect(site.hosts).not.toContain("blog.shop.localhost");
  }, 120_000);
});

describe("a page whose widget cannot record the decision", () => {
  it("reports decision_not_recorded for that page rather than after-decision findings that are not", async () => {
    // The element without its script: a banner that never shows, as when the service refuses the visitor (429).
    const server = createHttpServer((_, res) => res.writeHead(200, { "content-type": "text/html" }).end(`<!doctype html><title>Stuck</title><assent-consent project="prj_x" api="${base}"></assent-consent>`));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const origin = `http://localhost:${(server.address() as { port: number }).port}`;
      const report = ScanReport.parse(await scanOrigin(browser, `${origin}/`, { maxPages: 1, pageTimeoutMs: 3_000, settleMs: 500 }));
      expect(report.pages).toEqual([{ url: `${origin}/`, status: "error", error: { code: "decision_not_recorded", detail: expect.stringContaining("Accept all") } }]);
    } finally {
      server.close();
    }
  }, 60_000);
});

describe("pages that fight the crawler", () => {
  it("gives each its own error and scans the rest", async () => {
    const report = ScanReport.parse(await scanOrigin(browser, `${hostile.origin}/`, { pageTimeoutMs: 5_000, settleMs: 1_000 }));
    const byPath = Object.fromEntries(report.pages.map((p) => [new URL(p.url).pathname, p.error?.code ?? "ok"]));
    expect(byPath).toEqual({
      "/": "ok",
      "/loop": "redirect_loop",
      "/never-settles": "timeout",
      "/huge": "too_large",
      "/popups": "popup_storm",
      "/alerts": "dialog_loop",
      "/endless": "endless_scroll",
      "/calm": "ok",
    });
    expect(report.cookies.find((c) => c.name === "_ga")!.pages).toContain(`${hostile.origin}/calm`);
  }, 120_000);

  it("reports an unreachable start page as that page's error", async () => {
    const origin = `http://localhost:${await closedPort()}`;
    const report = ScanReport.parse(await scanOrigin(browser, origin, { pageTimeoutMs: 5_000 }));
    expect(report.pages).toEqual([{ url: `${origin}/`, status: "error", error: { code: "unreachable", detail: expect.stringContaining("ERR_CONNECTION_REFUSED") } }]);
  });
});

/** The ids of every permission record of the shop's project. */
async function permissionRecords() {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
    const page = await fetch(`${base}/privacy/v2/projects/${project.projectId}/permissions?limit=200${query}`, { headers: { authorization: `Bearer ${project.token}` } });
    const body = (await page.json()) as { items: { requestId: string }[]; nextCursor: string | null };
    ids.push(...body.items.map((item) => item.requestId));
    cursor = body.nextCursor;
  } while (cursor);
  return ids.sort();
}

describe("npm run scan", () => {
  it("scans over CDP (as from Browser Rendering), writes a report ScanReport accepts, violations printed first, and uploads it", async () => {
    const { chromium } = await import("playwright-core");
    const port = await closedPort();
    const remote = await chromium.launch({
      executablePath: "/usr/bin/chromium",
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--no-first-run", `--remote-debugging-port=${port}`],
    });
    try {
      const { webSocketDebuggerUrl } = await (await fetch(`http://127.0.0.1:${port}/json/version`)).json();
      const file = join(mkdtempSync(join(tmpdir(), "assent-scan-")), "report.json");
      const recordsBefore = await permissionRecords();
      const { stdout } = await promisify(execFile)("node", ["scripts/scan.mjs", `${shop.origin}/`, "--pages", "2", "--json", file, "--cdp", webSocketDebuggerUrl, "--project", project.projectId], {
        env: { ...process.env, ASSENT_URL: base, ASSENT_TOKEN: project.token },
      });
      const report = ScanReport.parse(JSON.parse(readFileSync(file, "utf8")));
      expect(report.pages.map((p) => p.url)).toEqual([`${shop.origin}/`, `${shop.origin}/products`]);
      expect(report.violations.some((v) => v.item === "_ga" && v.kind === "before-consent")).toBe(true);
      expect(stdout.indexOf("VIOLATIONS")).toBeGreaterThan(-1);
      expect(stdout.indexOf("VIOLATIONS")).toBeLessThan(stdout.indexOf("Cookies:"));
      expect(stdout).toContain("cookie _ga [analytics]");
      // Its Accept all and Reject all were recorded as visitors' decisions under its pass; those visitors went with
      // the upload, and the decisions of the scan above (scanOrigin alone, with no pass) stayed.
      expect(await permissionRecords()).toEqual(recordsBefore);
      expect(stdout).toMatch(new RegExp(`Report uploaded to project ${project.projectId}; [1-9]\\d* visitors the scan made there were deleted`));
      const listed = await fetch(`${base}/privacy/v2/projects/${project.projectId}/scans`, { headers: { authorization: `Bearer ${project.token}` } });
      expect((await listed.json()).items).toHaveLength(1);
    } finally {
      await remote.close();
    }
  }, 120_000);
});
