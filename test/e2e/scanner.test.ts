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
import truthFile from "./scan-fixture-truth.json";
import { adminToken, base, shopProject } from "./widget-helpers";

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

/** The fixture's ground truth (scan-fixture-truth.json), its placeholders filled in. */
type Truth = typeof truthFile;
const truthOf = (fill: Record<string, string>): Truth =>
  JSON.parse(JSON.stringify(truthFile).replace(/\{(ads|video|service|shop)\}/g, (_, name: string) => fill[name]));
const pathsOf = (pages: string | string[], truth: Truth) => (pages === "all" ? truth.allPages : (pages as string[]));
/** A truth line covers what it names, `*` standing for any run of characters (a storage key's wildcard sits before its `@origin`). */
const covers = (pattern: string, value: string) =>
  new RegExp(`^${pattern.split("*").map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`).test(value);

/** Precision and recall of what was found against the truth, with what differs. */
function measured(found: string[], truth: string[]) {
  const unexpected = found.filter((item) => !truth.some((t) => covers(t, item)));
  const missed = truth.filter((t) => !found.some((item) => covers(t, item)));
  return {
    precision: found.length ? (found.length - unexpected.length) / found.length : 1,
    recall: truth.length ? (truth.length - missed.length) / truth.length : 1,
    unexpected,
    missed,
  };
}
const perfect = { precision: 1, recall: 1, unexpected: [], missed: [] };

describe("a shop with trackers and the Assent widget, against its ground truth", () => {
  let report: ScanReport;
  let truth: Truth;
  const page = (path: string) => `${shop.origin}${path}`;
  const cookie = (name: string) => report.cookies.find((c) => c.name === name);
  const violations = (kind: string, item: string) => report.violations.filter((v) => v.kind === kind && v.item === item);

  beforeAll(async () => {
    truth = truthOf({ ads: new URL(shop.at("ads.localhost")).host, video: new URL(shop.at("video.localhost")).host, service: new URL(base).host, shop: shop.origin });
    // A generous load limit and two pages at a time: the file shares two cores with the service and other browser
    // files, and at a load of 40 to 76 three of the four pages' first loads took over 30 s (each its own `timeout`).
    report = ScanReport.parse(await scanOrigin(browser, `${shop.origin}/`, { maxPages: 20, pageTimeoutMs: 60_000, concurrency: 2 }));
  }, 600_000);

  it("follows the site's links only, skips what robots.txt disallows, reports a missing page, and says every page was scanned", () => {
    expect(report.origin).toBe(shop.origin);
    expect(report.database).toEqual({ name: "Open Cookie Database", revision: "0ee5a17" });
    const errors = JSON.stringify(report.pages.filter((p) => p.error || !p.scanned));
    expect(Object.fromEntries(report.pages.map((p) => [new URL(p.url).pathname, p.error?.code ?? "ok"])), errors).toEqual(truth.pages);
    // A linked page that answers 404 is what the site is: seen. Every pass of every page says what it did.
    expect(report.pages.every((p) => p.scanned)).toBe(true);
    expect(report.complete).toBe(true);
    expect(report.pages.find((p) => p.url === page("/"))!.passes).toEqual([
      { phase: "before-consent", did: "Loaded the page and made no decision." },
      { phase: "after-accept", did: expect.stringMatching(/^Clicked "Accept all" on the banner; the widget recorded the decision\. The page was then loaded again/) },
      { phase: "after-reject", did: expect.stringMatching(/^Clicked "Reject all" on the banner; the widget recorded the decision\./) },
    ]);
  });

  it("loads a page with the widget four times: its first visit, on which Accept all is then clicked, a clean visit for Reject all, and a reload after each decision", () => {
    // Failed before: five, the Accept all visit loading the page a first time of its own beside the first visit.
    // Each load is a context's worth of work for the scan's two cores (docs/scanner.md#where-a-scan-waits).
    for (const path of ["/", "/about", "/products"]) expect({ path, loads: shop.loads(path) }).toEqual({ path, loads: 4 });
    // The missing page has no widget: its first visit and the Reject all visit begun beside it, no decision.
    expect(shop.loads("/missing")).toBe(2);
  });

  it("finds every cookie a browser keeps and no other: precision and recall 1.00, categories, first phases and pages as the truth says", () => {
    // Failed before: px_lax and px_nosec (refused by every browser) were reported, and the ad frame's own cookie was missed.
    expect(measured(report.cookies.map((c) => `${c.name}@${c.domain}`), truth.cookies.map((c) => `${c.name}@${c.domain}`))).toEqual(perfect);
    for (const t of truth.cookies) {
      const found = report.cookies.find((c) => c.name === t.name && c.domain === t.domain)!;
      expect({ name: t.name, category: found.category, firstSeen: found.firstSeen, pages: [...found.pages].sort() }).toEqual({
        name: t.name, category: t.category, firstSeen: t.firstSeen, pages: pathsOf(t.pages, truth).map(page).sort(),
      });
    }
  });

  it("lists the cookies no browser keeps apart, each with why", () => {
    expect(measured((report.refusedCookies ?? []).map((c) => `${c.name}@${c.domain}`), truth.refusedCookies.map((c) => `${c.name}@${c.domain}`))).toEqual(perfect);
    for (const t of truth.refusedCookies) expect(report.refusedCookies!.find((c) => c.name === t.name)!.reason).toContain(t.reason);
    const flagged = new Set(report.violations.map((v) => v.item));
    for (const t of truth.refusedCookies) expect(flagged.has(t.name)).toBe(false);
  });

  it("finds every storage key a passive scan can see and no other, the ad frame's own among them", () => {
    // Failed before in the headless shell, against a truth that listed the ad frame's ad_frame_seen as not seen (the
    // full Chromium's contexts deny a third-party frame its storage; the shell, like a visitor's browser, does not).
    const key = (s: { area: string; name: string; origin: string }) => `${s.area}:${s.name}@${s.origin}`;
    expect(measured(report.storage.map(key), truth.storage.map(key))).toEqual(perfect);
    for (const t of truth.storage) {
      for (const found of report.storage.filter((s) => s.area === t.area && covers(t.name, s.name))) {
        expect({ name: found.name, category: found.category }).toEqual({ name: found.name, category: t.category });
        if (!t.name.endsWith("*")) expect({ name: t.name, firstSeen: found.firstSeen, pages: [...found.pages].sort() }).toEqual({ name: t.name, firstSeen: t.firstSeen, pages: pathsOf(t.pages, truth).map(page).sort() });
      }
    }
  });

  it("finds every third-party host and no other, with categories", () => {
    expect(measured(report.thirdPartyHosts.map((h) => h.host), truth.thirdPartyHosts.map((h) => h.host))).toEqual(perfect);
    for (const t of truth.thirdPartyHosts) {
      const found = report.thirdPartyHosts.find((h) => h.host === t.host)!;
      expect({ host: t.host, category: found.category, firstSeen: found.firstSeen }).toEqual({ host: t.host, category: t.category, firstSeen: t.firstSeen });
    }
  });

  it("reports exactly the truth's violations: essential cookies (session, load balancer, XSRF), what the gated heatmap sets, refused cookies and Assent's own never", () => {
    // Failed before: PHPSESSID and AWSALB were flagged before consent and after Reject all, as px_lax and px_nosec were.
    const expected = truth.violations.flatMap((v) => pathsOf(v.pages, truth).map((path) => `${v.kind} ${v.itemType} ${v.item} ${path}`)).sort();
    const found = report.violations.map((v) => `${v.kind} ${v.itemType} ${v.item} ${new URL(v.page).pathname}`).sort();
    expect(found).toEqual(expected);
  });

  it("records cookie attributes, the ad network's third-party cookie as its header set it, and the initiators", () => {
    expect(cookie("_ga")).toMatchObject({ vendor: "Google Analytics 4 (gtag.js)", party: "first", source: "vendor catalogue: Google Analytics 4 (gtag.js)" });
    expect(cookie("_ga")!.expires).toBeGreaterThan(Date.now() / 1000);
    expect(cookie("PHPSESSID")).toMatchObject({ httpOnly: true, expires: null, source: "Open Cookie Database: Functional" });
    expect(cookie("XSRF-TOKEN")).toMatchObject({ sameSite: "Strict", httpOnly: false, expires: null });
    expect(cookie("shop_cart")).toMatchObject({ vendor: null, httpOnly: true, source: null });
    expect(cookie("IDE")).toMatchObject({ domain: "ads.localhost", path: "/x", party: "third", secure: true, sameSite: "None", httpOnly: false });
    expect(cookie("IDE")!.expires).toBeGreaterThan(Date.now() / 1000);
    expect(cookie("ad_frame_uid")).toMatchObject({ party: "third", secure: true, sameSite: "None", path: "/" });
    expect(violations("before-consent", "_ga")).toContainEqual({
      kind: "before-consent", itemType: "cookie", item: "_ga", category: "analytics", page: page("/"), initiator: `${shop.origin}/js/analytics.js`,
    });
    expect(violations("before-consent", "_fbp")[0]).toMatchObject({ initiator: `${shop.at("ads.localhost")}/pixel.js` });
    expect(violations("before-consent", "ad_frame_uid")[0]).toMatchObject({ initiator: `${shop.at("ads.localhost")}/frame` });
    expect(violations("before-consent", "ajs_anonymous_id")[0]).toMatchObject({ initiator: `${shop.origin}/js/analytics.js` });
    expect(violations("after-reject", "ajs_user_id")).toContainEqual(expect.objectContaining({ page: page("/"), initiator: `${shop.origin}/js/analytics.js` }));
    const ads = report.thirdPartyHosts.find((h) => h.host === new URL(shop.at("ads.localhost")).host)!;
    expect(ads.resourceTypes).toEqual(expect.arrayContaining(["script", "beacon", "image", "iframe"]));
    expect(ads.initiators).toContain(`${shop.at("ads.localhost")}/pixel.js`);
    // The gated heatmap's beacon: only after Accept all.
    expect(ads.initiators).toContain(`${shop.origin}/js/heatmap.js`);
    expect(report.thirdPartyHosts.find((h) => h.host === new URL(base).host)).toMatchObject({ vendor: "Assent" });
  });

  it("lists scripts and iframes with their sources and the purpose already gating them", () => {
    const element = (src: string) => report.elements.find((e) => e.src === src);
    expect(element(`${shop.origin}/js/heatmap.js`)).toMatchObject({ kind: "script", gatedBy: "analytics" });
    expect(element(`${shop.at("ads.localhost")}/pixel.js`)).toMatchObject({ kind: "script", gatedBy: null, category: "marketing" });
    expect(element(`${shop.origin}/js/analytics.js`)).toMatchObject({ gatedBy: null, category: "analytics" });
    expect(element(`${shop.at("video.localhost")}/embed`)).toMatchObject({ kind: "iframe", gatedBy: null });
  });

  it("proposes purposes with Consent Mode types, gating markup for each ungated tracker, and the host list", () => {
    expect(report.proposal.purposes.map(({ category, consentModeTypes }) => [category, consentModeTypes])).toEqual(
      expect.arrayContaining([
        ["analytics", ["analytics_storage"]],
        ["marketing", ["ad_storage", "ad_user_data", "ad_personalization"]],
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
    expect(report.proposal.hosts.map((h) => h.host)).not.toContain(new URL(shop.at("ads.localhost")).host);
    const proposed = report.proposal.purposes.map((p) => p.category);
    expect(report.proposal.hosts.every((h) => proposed.includes(h.category))).toBe(true);
    expect(report.proposal.hosts.map((h) => h.host)).not.toContain(new URL(base).host);
  });
});

describe("pages under an opt-out or notice regime", () => {
  it.each([["opt-out"], ["notice"]])("%s: decides through \"Your privacy choices\", since OK records nothing, and says so", async (regime) => {
    // Failed before: both passes ended in decision_not_recorded ("did not record Accept all").
    const report = ScanReport.parse(await scanOrigin(browser, `${shop.origin}/regime/${regime}`, { maxPages: 1, pageTimeoutMs: 60_000 }));
    const [scanned] = report.pages;
    expect(scanned, JSON.stringify(scanned)).toMatchObject({ status: "ok", error: null, scanned: true });
    expect(scanned.passes!.map((p) => p.phase)).toEqual(["before-consent", "after-accept", "after-reject"]);
    for (const [phase, words] of [["after-accept", "Accept all"], ["after-reject", "Reject all"]]) {
      expect(scanned.passes!.find((p) => p.phase === phase)!.did).toMatch(
        new RegExp(`OK and "Your privacy choices" .*opened the choices and clicked "${words}" there; the widget recorded the decision`),
      );
    }
  }, 400_000);
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
        guard: async (url) => (new URL(url).hostname === "internal.localhost" ? "not a public address" : undefined),
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
      expect(report.pages).toMatchObject([{ url: `${origin}/`, status: "error", error: { code: "decision_not_recorded", detail: expect.stringContaining("Accept all") }, scanned: false }]);
      expect(report.complete).toBe(false);
    } finally {
      server.close();
    }
  }, 60_000);
});

describe("pages that fight the crawler", () => {
  it("gives each its own error and scans the rest", async () => {
    // A small byte limit, passed at once by /huge's first megabyte, and a load limit far above it: with the default
    // 10 MiB, a loaded machine streamed it slower than the load limit and /huge came back `timeout`.
    const report = ScanReport.parse(await scanOrigin(browser, `${hostile.origin}/`, { pageTimeoutMs: 20_000, settleMs: 1_000, maxBytes: 1024 * 1024 }));
    const byPath = Object.fromEntries(report.pages.map((p) => [new URL(p.url).pathname, [p.error?.code ?? "ok", p.scanned]]));
    expect(byPath).toEqual({
      "/": ["ok", true],
      "/loop": ["redirect_loop", false],
      "/never-settles": ["timeout", false],
      "/huge": ["too_large", false],
      "/popups": ["popup_storm", true],
      "/alerts": ["dialog_loop", true],
      "/endless": ["endless_scroll", true],
      "/calm": ["ok", true],
    });
    expect(report.complete).toBe(false);
    expect(report.cookies.find((c) => c.name === "_ga")!.pages).toContain(`${hostile.origin}/calm`);
  }, 180_000);

  it("reports an unreachable start page as that page's error, not scanned", async () => {
    const origin = `http://localhost:${await closedPort()}`;
    const report = ScanReport.parse(await scanOrigin(browser, origin, { pageTimeoutMs: 5_000 }));
    expect(report.pages).toEqual([
      {
        url: `${origin}/`, status: "error", error: { code: "unreachable", detail: expect.stringContaining("ERR_CONNECTION_REFUSED") }, scanned: false,
        passes: [{ phase: "before-consent", did: "Could not load the page (unreachable), so made no decision." }],
      },
    ]);
    expect(report.complete).toBe(false);
  });
});

describe("npm run scan's exit codes", () => {
  const scan = (...args: string[]) =>
    promisify(execFile)("node", ["scripts/scan.mjs", ...args]).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
    );

  it("exits 3 for a site that is down (a refused port, an unknown name), naming each page and why", async () => {
    // Failed before: both exited 0 with "VIOLATIONS: 0".
    const refused = `http://localhost:${await closedPort()}/`;
    const down = await scan(refused, "--timeout", "10");
    expect(down.code).toBe(3);
    expect(down.stderr).toContain(`INCOMPLETE: 1 of 1 pages could not be scanned as asked`);
    expect(down.stderr).toContain(`${refused}: unreachable: net::ERR_CONNECTION_REFUSED`);
    expect(down.stdout).toMatch(/^INCOMPLETE: 1 of 1 pages/m);
    const unknown = await scan("http://no-such-shop.invalid/", "--timeout", "10");
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toContain("http://no-such-shop.invalid/: unreachable: net::ERR_NAME_NOT_RESOLVED");
  }, 120_000);

  it("exits 1 before visiting any page when --project's token is the admin token, saying which token it needs", async () => {
    // The docs said the admin token works; project routes refuse it (401). Now docs and message name scans:write.
    const refused = await promisify(execFile)("node", ["scripts/scan.mjs", `${shop.origin}/`, "--project", project.projectId], {
      env: { ...process.env, ASSENT_URL: base, ASSENT_TOKEN: adminToken },
    }).then(() => ({ code: 0, stdout: "", stderr: "" }), (error: { code: number; stdout: string; stderr: string }) => error);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("--project needs ASSENT_TOKEN to hold an access token with the scans:write scope");
    expect(refused.stderr).toContain("401");
    expect(refused.stdout).not.toContain("Scanned");
  });

  it("exits 2 on bad arguments before any browser starts", async () => {
    const bad = await scan(`${hostile.origin}/`, "--pages", "-1");
    expect(bad).toMatchObject({ code: 2, stdout: "" });
    expect(bad.stderr).toContain('--pages takes a whole number from 1 to 100, not "-1"');
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
