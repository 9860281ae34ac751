// The widget's layout on pages that do not mean well and on screens that are small: host CSS, root font size,
// phones, long German words, forced colours, right-to-left pages, dark mode; and what it adds to the page (no
// landmarks, no layout shift, not the largest paint).
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { artifactPath, launchBrowser } from "./browser";
import { banner, dialog, gatedScript, hostSite, moduleTag, shopPage, shopProject, visitor, type Shop } from "./widget-helpers";

let browser: Browser;
let site: Awaited<ReturnType<typeof hostSite>>;
let shop: Shop;

const hostileCss = `<style>
  html { font-size: 62.5%; }
  * { box-sizing: content-box !important; }
  button { all: unset; }
  div { display: flex; }
  body { transform: scale(1); }
  .overlay { position: fixed; inset: 0; z-index: 2147483647; background: #ff000014; }
</style>`;

const article = `<main><p style="font-size:1.2em;max-width:60em">${"A long article paragraph about the shop. ".repeat(40)}</p></main>`;

beforeAll(async () => {
  site = await hostSite();
  shop = await shopProject(site.origin);
  Object.assign(site.pages, {
    "/hostile.html": { body: shopPage(shop.projectId, { head: hostileCss + moduleTag, extra: '<div class="overlay"></div>' }) },
    "/german.html": { body: shopPage(shop.projectId, { lang: "de" }) },
    // Urdu, which the widget does not ship: the visitor's browser language (English) is what the widget speaks.
    "/rtl.html": { body: shopPage(shop.projectId, { lang: "ur", htmlAttrs: 'dir="rtl"' }) },
    "/themed.html": { body: shopPage(shop.projectId, { head: moduleTag + "<style>assent-consent { --assent-background: #fffbeb; }</style>" }) },
    "/article.html": { body: shopPage(shop.projectId, { extra: article }) },
    "/plain.html": { body: shopPage(shop.projectId) },
    "/tiny.html": { body: shopPage(shop.projectId, { head: "<style>* { font-size: 3px !important; }</style>" + moduleTag }) },
    "/gated.js": gatedScript,
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

/** The smallest font size of any text the widget shows, and the widget's boxes. */
const measure = (page: Page) =>
  page.evaluate(() => {
    const root = document.querySelector("assent-consent")!.shadowRoot!;
    const sizes = Array.from(root.querySelectorAll<HTMLElement>("*"))
      .filter((e) => Array.from(e.childNodes).some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim()) && e.getClientRects().length)
      .map((e) => parseFloat(getComputedStyle(e).fontSize));
    const box = (selector: string) => {
      const element = root.querySelector(selector);
      if (!element || !element.getClientRects().length) return null;
      const { left, right, top, bottom, width, height } = element.getBoundingClientRect();
      return { left, right, top, bottom, width, height };
    };
    const targets = Array.from(root.querySelectorAll<HTMLElement>("button, [role=switch]"))
      .filter((e) => e.getClientRects().length && !e.classList.contains("link"))
      .map((e) => [e.getBoundingClientRect().width, e.getBoundingClientRect().height]);
    return { smallest: Math.min(...sizes), banner: box("[part~=banner]"), dialog: box("dialog"), targets, pageWidth: document.documentElement.scrollWidth };
  });

describe("hostile host CSS (root font 62.5%, content-box everywhere, unset buttons, flex divs, a top overlay, a transformed body)", () => {
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 360, height: 640 },
  ]) {
    it(`keeps its size and stays usable at ${viewport.width}x${viewport.height}`, async () => {
      const { context, page } = await visitor(browser, { viewport });
      await page.goto(`${site.origin}/hostile.html`);
      await banner(page).waitFor({ state: "visible" });
      await banner(page).evaluate((b) => Promise.all(b.getAnimations().map((a) => a.finished)));
      const first = await measure(page);
      expect(first.banner).toMatchObject({ left: 0, width: viewport.width });
      expect(Math.round(first.banner!.bottom)).toBe(viewport.height);
      expect(first.smallest).toBeGreaterThanOrEqual(12);
      for (const [width, height] of first.targets) expect(Math.min(width, height)).toBeGreaterThanOrEqual(24);
      await page.screenshot({ path: artifactPath(`widget-hostile-banner-${viewport.width}`) });
      // Above the page's highest overlay: clicks reach the widget.
      await page.getByRole("button", { name: "Customize" }).click();
      await dialog(page).waitFor({ state: "visible" });
      await dialog(page).evaluate((d) => Promise.all(d.getAnimations().map((a) => a.finished)));
      const second = await measure(page);
      const expected = viewport.width >= 700 ? 640 : viewport.width - 16;
      expect(second.dialog!.width).toBeCloseTo(expected, 0);
      expect(second.smallest).toBeGreaterThanOrEqual(12);
      for (const [width, height] of second.targets) expect(Math.min(width, height)).toBeGreaterThanOrEqual(24);
      await page.screenshot({ path: artifactPath(`widget-hostile-dialog-${viewport.width}`) });
      await context.close();
    });
  }
});

describe("a host that forces an absurd font size (* { font-size: 3px !important })", () => {
  it("clamps to a readable size: no text under 12 px, targets of 24 px, a dialog as wide as the layout needs", async () => {
    const { context, page } = await visitor(browser);
    await page.goto(`${site.origin}/tiny.html`);
    await banner(page).waitFor({ state: "visible" });
    const first = await measure(page);
    expect(first.smallest).toBeGreaterThanOrEqual(12);
    await banner(page).getByRole("button", { name: "Customize" }).click();
    await dialog(page).waitFor({ state: "visible" });
    const second = await measure(page);
    expect(second.smallest).toBeGreaterThanOrEqual(12);
    expect(second.dialog!.width).toBeGreaterThanOrEqual(480);
    for (const [width, height] of [...first.targets, ...second.targets]) {
      expect(width).toBeGreaterThanOrEqual(24);
      expect(height).toBeGreaterThanOrEqual(24);
    }
    await context.close();
  });
});

describe("small screens and other languages", () => {
  it("German at 320 px: long words wrap, nothing overflows sideways, every button on screen", async () => {
    const { context, page } = await visitor(browser, { viewport: { width: 320, height: 640 }, locale: "de-DE" });
    await page.goto(`${site.origin}/german.html`);
    await banner(page).waitFor({ state: "visible" });
    const onScreen = () =>
      page.evaluate(() => {
        const root = document.querySelector("assent-consent")!.shadowRoot!;
        const layer = root.querySelector("dialog[open]") ?? root.querySelector("[part~=banner]")!;
        return {
          fits: layer.scrollWidth <= layer.clientWidth,
          buttons: Array.from(layer.querySelectorAll("button")).every((b) => b.getBoundingClientRect().right <= 320 && b.getBoundingClientRect().left >= 0),
          page: document.documentElement.scrollWidth,
        };
      });
    expect(await onScreen()).toEqual({ fits: true, buttons: true, page: 320 });
    await page.screenshot({ path: artifactPath("widget-german-banner-320") });
    await page.getByRole("button", { name: "Anpassen" }).click();
    await dialog(page).waitFor({ state: "visible" });
    expect(await page.getByRole("dialog", { name: "Ihre Datenschutzeinstellungen" }).count()).toBe(1);
    expect(await onScreen()).toEqual({ fits: true, buttons: true, page: 320 });
    await page.screenshot({ path: artifactPath("widget-german-dialog-320") });
    await context.close();
  });

  it("on a right-to-left page, English stays left to right (dir follows the widget's language)", async () => {
    const { context, page } = await visitor(browser);
    await page.goto(`${site.origin}/rtl.html`);
    await banner(page).waitFor({ state: "visible" });
    expect(await banner(page).evaluate((b) => [b.getAttribute("dir"), getComputedStyle(b).direction, b.getAttribute("lang")])).toEqual([
      "ltr",
      "ltr",
      "en",
    ]);
    await context.close();
  });

  it("forced colours: a switch shows its state in a system colour (on differs from off)", async () => {
    const { context, page } = await visitor(browser, { forcedColors: "active" });
    await page.goto(`${site.origin}/german.html`);
    await page.getByRole("button", { name: "Anpassen" }).click();
    await dialog(page).waitFor({ state: "visible" });
    await page.getByRole("switch", { name: "Marketing", exact: true }).check();
    // Forced colours replace authored backgrounds with Canvas: the state must show in a system colour of its own.
    const look = (name: string) => page.getByRole("switch", { name, exact: true }).evaluate((s) => getComputedStyle(s).backgroundColor);
    expect(await look("Marketing")).not.toBe(await look("Analytics"));
    await context.close();
  });

  it("dark mode follows prefers-color-scheme, unless the page themes it", async () => {
    const background = async (path: string) => {
      const { context, page } = await visitor(browser, { colorScheme: "dark" });
      await page.goto(`${site.origin}${path}`);
      await banner(page).waitFor({ state: "visible" });
      const color = await banner(page).evaluate((b) => getComputedStyle(b).backgroundColor);
      if (path === "/german.html") await page.screenshot({ path: artifactPath("widget-dark-banner") });
      await context.close();
      return color;
    };
    expect(await background("/german.html")).toBe("rgb(17, 24, 39)");
    expect(await background("/themed.html")).toBe("rgb(255, 251, 235)");
  });
});

describe("what it adds to the page", () => {
  it("the first layer never dims the page, also after the preferences were open (the dialog's backdrop is its own)", async () => {
    const { context, page } = await visitor(browser);
    await page.goto(`${site.origin}/plain.html`);
    await banner(page).waitFor({ state: "visible" });
    const backdrop = () => banner(page).evaluate((b) => getComputedStyle(b, "::backdrop").backgroundColor);
    expect(await backdrop()).toBe("rgba(0, 0, 0, 0)");
    await page.evaluate(() => (document.querySelector("assent-consent") as any).show());
    await dialog(page).waitFor({ state: "visible" });
    await page.evaluate(() => ((document.querySelector("assent-consent") as any).open = false));
    // Another language is another bootstrap, after which the first layer asks again.
    await page.evaluate(() => document.querySelector("assent-consent")!.setAttribute("lang", "de"));
    await page.locator("assent-consent [part~=banner][lang=de]").waitFor({ state: "visible" });
    expect(await backdrop()).toBe("rgba(0, 0, 0, 0)");
    await context.close();
  });

  it("no landmarks, and every control has a name of its own", async () => {
    const { context, page } = await visitor(browser);
    await page.goto(`${site.origin}/german.html`);
    await page.getByRole("button", { name: "Anpassen" }).click();
    await dialog(page).waitFor({ state: "visible" });
    const found = await page.evaluate(() => {
      const root = document.querySelector("assent-consent")!.shadowRoot!;
      const landmarks = root.querySelectorAll("header, footer, nav, main, aside, section, form, [role=banner], [role=contentinfo], [role=region]");
      const names = Array.from(root.querySelectorAll("summary, [role=switch], button")).map((e) => e.getAttribute("aria-label") ?? e.textContent!.trim());
      return { landmarks: landmarks.length, names: names.length, unique: new Set(names).size };
    });
    expect(found.landmarks).toBe(0);
    expect(found.unique).toBe(found.names);
    await context.close();
  });

  for (const reducedMotion of ["no-preference", "reduce"] as const) {
    it(`the banner shifts nothing and is not the largest contentful paint, even on a page with little else (motion: ${reducedMotion})`, async () => {
      const { context, page } = await visitor(browser, { reducedMotion });
      await context.addInitScript(() => {
        const w = window as any;
        w.__shifts = 0;
        w.__lcp = [];
        const shifts = (entries: any[]) => entries.forEach((e) => (w.__shifts += e.value));
        // Text in a shadow root is reported without its element.
        const paints = (entries: any[]) => entries.forEach((e) => w.__lcp.push(e.element?.tagName ?? "in a shadow root"));
        const observers = [
          [new PerformanceObserver((list) => shifts(list.getEntries())), shifts, "layout-shift"],
          [new PerformanceObserver((list) => paints(list.getEntries())), paints, "largest-contentful-paint"],
        ] as const;
        for (const [observer, , type] of observers) observer.observe({ type, buffered: true });
        // Entries of frames already rendered whose observer callback is still to come.
        w.__collect = () => observers.forEach(([observer, record]) => record(observer.takeRecords()));
      });
      await page.goto(`${site.origin}/plain.html`);
      await banner(page).waitFor({ state: "visible" });
      await banner(page).evaluate((b) => Promise.all(b.getAnimations().map((a) => a.finished)));
      // A shift or a paint is reported for the frame that renders it: two frames after the banner settled, every one
      // it could cause has been, and is collected now instead of whenever the observers' callbacks run.
      await page.evaluate(() => new Promise((rendered) => requestAnimationFrame(() => requestAnimationFrame(rendered))));
      await page.evaluate(() => (window as any).__collect());
      expect(await page.evaluate(() => (window as any).__shifts)).toBe(0);
      expect(await page.evaluate(() => (window as any).__lcp)).toEqual(["H1"]);
      await context.close();
    });
  }

  it("screenshots of the first layer on a page with content, wide and on a phone", async () => {
    const { context, page } = await visitor(browser);
    await page.goto(`${site.origin}/article.html`);
    await banner(page).waitFor({ state: "visible" });
    await banner(page).evaluate((b) => Promise.all(b.getAnimations().map((a) => a.finished)));
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.screenshot({ path: artifactPath("widget-banner") });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: artifactPath("widget-banner-phone") });
    await context.close();
  });
});
