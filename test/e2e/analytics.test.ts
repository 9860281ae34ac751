// The widget's counting in Debian's Chromium against the real service: every decision path sends what happened in one
// beacon when the page is left, a refusal and a visitor whose storage throws are counted too, the service's report
// equals the events the browsers sent, and a running experiment's variants are served, counted, named in the receipt
// and drawn with Reject all as prominent as Accept all (docs/analytics.md).
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./browser";
import {
  adminToken, axeRun, axeSource, banner, dialog, gatedScript, hostSite, ok, recordPermissionBodies, shopPage, shopProject, visitor, waitForEvent,
  type Json, type Shop,
} from "./widget-helpers";

let browser: Browser;
let site: Awaited<ReturnType<typeof hostSite>>;

beforeAll(async () => {
  site = await hostSite();
  site.pages["/gated.js"] = gatedScript;
  site.pages["/left.html"] = { body: "<!doctype html><title>Elsewhere</title><p>elsewhere</p>" };
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

type Beacon = { report: Json; status?: number };

/**
 * Every beacon the context's pages send to the counting endpoint while they live, as it left the browser, with the
 * service's answer. (Chromium delivers a beacon sent as a page is left, but Playwright no longer reports it: that case
 * is read back from the service's report, below.)
 */
function recordBeacons(context: BrowserContext): Beacon[] {
  const beacons: Beacon[] = [];
  const byRequest = new Map<unknown, Beacon>();
  context.on("request", (request) => {
    if (request.method() !== "POST" || !request.url().endsWith("/analytics/events")) return;
    const beacon = { report: JSON.parse(request.postData() ?? "null") };
    byRequest.set(request, beacon);
    beacons.push(beacon);
  });
  context.on("response", (response) => {
    const beacon = byRequest.get(response.request());
    if (beacon) beacon.status = response.status();
  });
  return beacons;
}

/**
 * The page is hidden (the visitor switched tabs): the document says `hidden` and fires `visibilitychange`, as the
 * browser does, and the page lives on, so its beacons can be watched; waits until `count` were sent.
 */
async function hide(page: Page, beacons: Beacon[], count: number) {
  await page.evaluate(() => {
    Object.defineProperty(document, "visibilityState", { configurable: true, get: () => "hidden" });
    document.dispatchEvent(new Event("visibilitychange", { bubbles: true }));
  });
  await expect.poll(() => beacons.length, { timeout: 30_000 }).toBe(count);
  // Playwright does not always report a beacon's answer; every answer it does report is the service's 204.
  await expect.poll(() => beacons.some((b) => b.status), { timeout: 30_000 }).toBe(true);
  expect(beacons.filter((b) => b.status).map((b) => b.status)).toEqual(beacons.filter((b) => b.status).map(() => 204));
}

/** Leaves the page for another: `pagehide`, where the widget hands its queue over as the page goes. */
const leave = (page: Page) => page.goto(`${site.origin}/left.html`);

/** The project's report, polled until `done` holds of it: the counts land after the beacon is sent. */
async function reportWhen(projectId: string, done: (report: Json) => boolean) {
  const read = async () => (await ok("GET", `/admin/v1/projects/${projectId}/analytics`, adminToken)) as Json;
  await expect.poll(async () => done(await read()), { timeout: 30_000 }).toBe(true);
  return read();
}

const eventsOf = (beacons: Beacon[]) => beacons.flatMap((b) => b.report.events);

/** A visitor whose page's localStorage and sessionStorage throw, as with storage blocked (private modes, sandboxes). */
async function storageless() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US" });
  await context.addInitScript(() => {
    for (const name of ["localStorage", "sessionStorage"]) {
      Object.defineProperty(window, name, {
        get() {
          throw new DOMException("The page's storage is disabled.", "SecurityError");
        },
      });
    }
  });
  return { context, page: await context.newPage() };
}

/** Each shop's page, on a path of its own (without digits, so it is counted as it is). */
const paths = new Map<Shop, string>();
const pageOf = (shop: Shop) => paths.get(shop)!;

async function shopSite(name: string) {
  const shop = await shopProject(site.origin);
  paths.set(shop, `/shops/${name}.html`);
  site.pages[pageOf(shop)] = { body: shopPage(shop.projectId) };
  return shop;
}

/**
 * Opens the shop's page and waits until the counting chunk follows the widget: it is fetched after the bootstrap's
 * answer, and importing it again resolves only after the widget's own import has handed it the controller (its
 * callback was registered first). Then, for a first visit, waits for the first layer.
 */
async function arrive(page: Page, shop: Shop, { first = true } = {}) {
  const chunk = page.waitForResponse((r) => /\/widget\/analytics\.[\w-]+\.js$/.test(r.url()));
  await page.goto(site.origin + pageOf(shop));
  // A string, so that Vitest's transform leaves the page's own import() alone.
  await page.evaluate(`import(${JSON.stringify((await chunk).url())}).then(() => true)`);
  if (first) await banner(page).waitFor();
}

describe("counting every decision path", () => {
  let shop: Shop;
  beforeAll(async () => {
    shop = await shopSite("paths");
  });

  const everyPurpose = () => [shop.marketing.purposeId, shop.analytics.purposeId];
  /** What every beacon of the opt-in shop says besides its events. */
  const dimensions = () => ({ regime: "opt-in", language: "en", path: pageOf(shop) });

  it("accept all: the banner shown and the purposes granted, in one beacon when the page is left", async () => {
    const { context, page } = await visitor(browser);
    const beacons = recordBeacons(context);
    await arrive(page, shop);
    await banner(page).getByRole("button", { name: "Accept all" }).click();
    await waitForEvent(page, "assent-change");
    // Nothing leaves while the visitor is on the page.
    expect(beacons).toEqual([]);
    await hide(page, beacons, 1);
    expect(beacons[0].report).toEqual({
      ...dimensions(),
      events: [{ event: "banner_shown" }, { event: "accept_all", granted: everyPurpose(), refused: [] }],
    });
    // The service took it: the project's first count, shown as "1 to 9" (null) where nothing was 0.
    await reportWhen(shop.projectId, (report) => report.funnel.counts.accept_all === null);
    await context.close();
  });

  it("reject all: a refusal is counted like any decision", async () => {
    const { context, page } = await visitor(browser);
    const beacons = recordBeacons(context);
    await arrive(page, shop);
    await banner(page).getByRole("button", { name: "Reject all" }).click();
    await waitForEvent(page, "assent-change");
    await hide(page, beacons, 1);
    expect(beacons[0].report).toEqual({
      ...dimensions(),
      events: [{ event: "banner_shown" }, { event: "reject_all", granted: [], refused: everyPurpose() }],
    });
    await context.close();
  });

  it("customised: the preferences' Save with the purposes it granted and refused", async () => {
    const { context, page } = await visitor(browser);
    const beacons = recordBeacons(context);
    await arrive(page, shop);
    await banner(page).getByRole("button", { name: "Customize" }).click();
    await dialog(page).getByRole("switch", { name: "Marketing", exact: true }).check();
    await dialog(page).getByRole("button", { name: "Save" }).click();
    await waitForEvent(page, "assent-change");
    await hide(page, beacons, 1);
    expect(eventsOf(beacons)).toEqual([
      { event: "banner_shown" },
      { event: "customised", granted: [shop.marketing.purposeId], refused: [shop.analytics.purposeId] },
    ]);
    await context.close();
  });

  it("dismissed: closed with Escape, no decision", async () => {
    const { context, page } = await visitor(browser);
    const beacons = recordBeacons(context);
    await arrive(page, shop);
    await page.keyboard.press("Escape");
    await waitForEvent(page, "assent-dismiss");
    await hide(page, beacons, 1);
    expect(eventsOf(beacons)).toEqual([{ event: "banner_shown" }, { event: "dismissed" }]);
    await context.close();
  });

  it("preferences reopened and consent withdrawn on a later page view, each page view its own beacon", async () => {
    const { context, page } = await visitor(browser);
    const beacons = recordBeacons(context);
    await arrive(page, shop);
    await banner(page).getByRole("button", { name: "Accept all" }).click();
    await waitForEvent(page, "assent-change");
    await hide(page, beacons, 1);
    await arrive(page, shop, { first: false });
    await page.evaluate(() => (document.querySelector("assent-consent") as HTMLElement & { show(): void }).show());
    await dialog(page).getByRole("button", { name: "Reject all" }).click();
    await waitForEvent(page, "assent-change");
    await hide(page, beacons, 2);
    expect(beacons.map((b) => b.report.events)).toEqual([
      [{ event: "banner_shown" }, { event: "accept_all", granted: everyPurpose(), refused: [] }],
      [
        { event: "preferences_reopened" },
        { event: "reject_all", granted: [], refused: everyPurpose() },
        { event: "withdrawn", refused: everyPurpose() },
      ],
    ]);
    await context.close();
  });

  it("a visitor whose storage throws is counted, and the banner works", async () => {
    const { context, page } = await storageless();
    const beacons = recordBeacons(context);
    await arrive(page, shop);
    await banner(page).getByRole("button", { name: "Reject all" }).click();
    await banner(page).waitFor({ state: "detached" });
    await hide(page, beacons, 1);
    expect(eventsOf(beacons)).toEqual([{ event: "banner_shown" }, { event: "reject_all", granted: [], refused: everyPurpose() }]);
    await context.close();
  });
});

describe("the report equals what the browsers sent", () => {
  it("ten refusals, half without storage, half sent as the page is left: every count and opt-in total is the sum of the events", { timeout: 240_000 }, async () => {
    const shop = await shopSite("refusals");
    const refusal = [{ event: "banner_shown" }, { event: "reject_all", granted: [], refused: [shop.marketing.purposeId, shop.analytics.purposeId] }];
    const sent: Beacon[] = [];
    const contexts: BrowserContext[] = [];
    for (let i = 0; i < 10; i++) {
      const { context, page } = i % 2 ? await storageless() : await visitor(browser);
      const beacons = recordBeacons(context);
      await arrive(page, shop);
      await banner(page).getByRole("button", { name: "Reject all" }).click();
      await banner(page).waitFor({ state: "detached" });
      if (i < 5) {
        await hide(page, beacons, 1);
        expect(eventsOf(beacons)).toEqual(refusal);
        sent.push(...beacons);
      } else {
        // Left for another page: the beacon goes with pagehide, unseen here; the service's counts below hold it.
        await leave(page);
        sent.push({ report: { events: refusal } });
      }
      // Closed once the counts are in: closing a context could end a beacon still on its way.
      contexts.push(context);
    }
    const events = eventsOf(sent);
    const tally = (name: string) => events.filter((e) => e.event === name).length;
    const shownAs = (n: number) => (n === 0 || n >= 10 ? n : null);
    const answer = await reportWhen(shop.projectId, (report) => report.funnel.counts.banner_shown === 10);
    for (const name of Object.keys(answer.funnel.counts)) expect([name, answer.funnel.counts[name]]).toEqual([name, shownAs(tally(name))]);
    for (const purpose of [shop.marketing, shop.analytics]) {
      const row = answer.purposes.find((p: Json) => p.purposeId === purpose.purposeId);
      const refused = events.filter((e) => e.refused?.includes(purpose.purposeId)).length;
      expect(row.total).toMatchObject({ granted: 0, refused: shownAs(refused) });
    }
    await Promise.all(contexts.map((context) => context.close()));
    expect(answer.breakdowns.page).toEqual([expect.objectContaining({ value: pageOf(shop), counts: expect.objectContaining({ banner_shown: 10, reject_all: 10 }) })]);
  });
});

describe("a running experiment, served", () => {
  const words = { acceptAll: "Yes to all", rejectAll: "No to all", customize: "Let me choose", noticeOptIn: "A plainer notice." };
  const fair = { rejectAll: "first-layer" };
  /** Each variant's button style, as the experiment defines it: Reject all drawn as Accept all in each (the guardrail). */
  const styles: Record<string, string> = { control: "primary", outlined: "secondary", plain: "link" };

  /**
   * Reject all's and Accept all's prominence as drawn: box, place, what paints the button (fill, border, underline), and
   * the contrast of its text against what is behind it and of its fill and border against the banner.
   */
  const prominence = (page: Page) =>
    page.evaluate(() => {
      const root = document.querySelector("assent-consent")!.shadowRoot!;
      const frame = root.querySelector<HTMLElement>("[part~=banner]")!;
      const rgba = (color: string) => color.match(/[\d.]+/g)!.map(Number);
      const luminance = (color: string) => {
        const [r, g, b] = rgba(color).slice(0, 3).map((v) => {
          const c = v / 255;
          return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
        });
        return 0.2126 * r + 0.7152 * g + 0.0722 * b;
      };
      const contrast = (a: string, b: string) => {
        const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
        return Math.round(((hi + 0.05) / (lo + 0.05)) * 100) / 100;
      };
      const frameBox = frame.getBoundingClientRect();
      const background = getComputedStyle(frame).backgroundColor;
      // A transparent fill or border shows the banner behind it.
      const painted = (color: string) => (rgba(color)[3] === 0 ? background : color);
      return Object.fromEntries(
        ["accept", "reject"].map((name) => {
          const button = root.querySelector<HTMLElement>(`[part~=banner] button[part~=${name}]`)!;
          const box = button.getBoundingClientRect();
          const style = getComputedStyle(button);
          const fill = painted(style.backgroundColor);
          return [
            name,
            {
              width: Math.round(box.width),
              height: Math.round(box.height),
              top: Math.round(box.top),
              inBanner: box.top >= frameBox.top && box.bottom <= frameBox.bottom && box.left >= frameBox.left && box.right <= frameBox.right,
              fill: style.backgroundColor,
              border: `${style.borderTopWidth} ${style.borderTopColor}`,
              underline: style.textDecorationLine,
              text: contrast(style.color, fill),
              fillOnBanner: contrast(fill, background),
              borderOnBanner: contrast(painted(style.borderTopColor), background),
              fontSize: style.fontSize,
              fontWeight: style.fontWeight,
            },
          ];
        }),
      );
    });

  it("each variant is drawn with its words and button style from the first paint, Reject all as prominent as Accept all, axe-clean, and counted and recorded under its name", { timeout: 360_000 }, async () => {
    const shop = await shopSite("experiment");
    const experiment = await ok("POST", `/admin/v1/projects/${shop.projectId}/experiments`, adminToken, {
      name: "Plainer words, quieter buttons",
      variants: Object.entries(styles).map(([name, style]) => ({
        name,
        layout: { ...fair, accept: style, reject: style },
        ...(name === "plain" ? { wording: { en: words } } : {}),
      })),
    });
    await ok("POST", `/admin/v1/projects/${shop.projectId}/experiments/${experiment.experimentId}/start`, adminToken);

    const drawn = new Map<string, Json>();
    // Each new visitor is a fresh identity, so a fresh draw: until all three variants were drawn (1 in 50,000 to need more).
    for (let i = 0; i < 30 && drawn.size < 3; i++) {
      const { context, page } = await visitor(browser);
      const beacons = recordBeacons(context);
      const permissions = recordPermissionBodies(context);
      const bootstrap = page.waitForResponse((r) => r.url().endsWith("/bootstrap") && r.request().method() === "POST");
      // The first layer's buttons as first painted: read in the frame the banner appears in, before anything else runs.
      await page.addInitScript(() => {
        new MutationObserver((_, observer) => {
          const root = document.querySelector("assent-consent")?.shadowRoot;
          const button = root?.querySelector("[part~=banner] button[part~=accept]");
          if (!button) return;
          (window as unknown as { firstPaint: string }).firstPaint = getComputedStyle(button).backgroundColor + " " + getComputedStyle(button).textDecorationLine;
          observer.disconnect();
        }).observe(document, { childList: true, subtree: true });
      });
      await arrive(page, shop);
      const variant: string = (await (await bootstrap).json()).variant;
      expect(Object.keys(styles)).toContain(variant);
      // The words of the visitor's variant, applied by the service.
      const reject = variant === "plain" ? words.rejectAll : "Reject all";
      const accept = variant === "plain" ? words.acceptAll : "Accept all";
      await banner(page).getByRole("button", { name: accept }).waitFor();
      expect(await banner(page).locator("#banner-text").innerText()).toContain(variant === "plain" ? words.noticeOptIn : "Shop AB would like to use your data");
      if (!drawn.has(variant)) {
        const measured = await prominence(page);
        expect(measured.reject, variant).toEqual(measured.accept);
        expect(measured.reject.inBanner).toBe(true);
        expect(measured.reject.text, variant).toBeGreaterThanOrEqual(4.5);
        // No flash of another style: the banner's first frame already had this one.
        expect(await page.evaluate(() => (window as unknown as { firstPaint: string }).firstPaint), variant).toBe(
          `${measured.accept.fill} ${measured.accept.underline}`,
        );
        await page.addScriptTag({ content: axeSource });
        expect(await axeRun(page), variant).toEqual([]);
        await page.emulateMedia({ colorScheme: "dark" });
        expect(await axeRun(page), `${variant}, dark`).toEqual([]);
        expect((await prominence(page)).reject.text, `${variant}, dark`).toBeGreaterThanOrEqual(4.5);
        await page.emulateMedia({ colorScheme: "light" });
        drawn.set(variant, measured.accept);
      }
      await banner(page).getByRole("button", { name: reject }).click();
      await waitForEvent(page, "assent-change");
      // The decision's request, so its receipt, names the variant.
      expect(permissions.map((p) => p.meta.context.variant)).toEqual([variant]);
      await hide(page, beacons, 1);
      expect(beacons[0].report.variant).toBe(variant);
      await context.close();
    }
    expect([...drawn.keys()].sort()).toEqual(["control", "outlined", "plain"]);
    // Each style as defined: filled with the accent; outlined in it; underlined text with no fill or border.
    const [control, outlined, plain] = ["control", "outlined", "plain"].map((name) => drawn.get(name)!);
    const accent = control.fill;
    expect(accent).not.toBe("rgba(0, 0, 0, 0)");
    expect(control).toMatchObject({ underline: "none", border: `2px ${accent}` });
    expect(outlined).toMatchObject({ fill: "rgba(0, 0, 0, 0)", underline: "none", border: `2px ${accent}` });
    expect(plain).toMatchObject({ fill: "rgba(0, 0, 0, 0)", underline: "underline", border: "2px rgba(0, 0, 0, 0)" });
    expect(plain.borderOnBanner).toBe(1);
    expect(outlined.borderOnBanner).toBeGreaterThanOrEqual(3);
  });
});
