// Every shipped language in Chromium at a phone's and a desktop's width: the first layer and the preferences layer
// fit (no sideways overflow, every button on screen and at least 24x24 px), right to left for Arabic, Hebrew and
// Persian; and how the language is chosen (element, page, browser, regional fallback, the project's default), with
// a project's own wording set through the API. One page for both widths: the language is switched through the
// element's `lang` (each switch is a bootstrap, as a returning visitor's), not by reloading, and each layer is measured
// at one width, then the page resized to the other.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { english } from "../../shared/i18n/strings";
import { shippedStrings } from "../../shared/i18n/shipped";
import { artifactPath, launchBrowser } from "./browser";
import { banner, gatedScript, hostSite, ok, shopPage, shopProject, visitor, type Shop } from "./widget-helpers";

let browser: Browser;
let site: Awaited<ReturnType<typeof hostSite>>;
let shop: Shop;

const languages = Object.keys(shippedStrings);
const rightToLeft = ["ar", "fa", "he"];
/** Pictures docs/languages.md shows (npm run screenshots copies them from test/artifacts/run/). */
const pictured = ["de", "ar", "ja"];

beforeAll(async () => {
  site = await hostSite();
  shop = await shopProject(site.origin);
  Object.assign(site.pages, {
    "/page.html": { body: shopPage(shop.projectId) },
    "/gated.js": gatedScript,
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

type Layout = {
  dir: string | null;
  direction: string;
  overflow: boolean;
  pageWidth: number;
  buttons: { name: string; visible: boolean; width: number; height: number; left: number; right: number }[];
  /** Where the title's text sits: distance from the layer's start (left) and end (right) edges. */
  title: { fromLeft: number; fromRight: number };
};

/** The layer showing in `language` (banner or dialog), once it shows, measured. */
async function layout(page: Page, layer: "banner" | "dialog", language: string): Promise<Layout> {
  const selector = layer === "banner" ? "[part~=banner]:popover-open" : "dialog[open]";
  await page.waitForFunction(
    ([selector, language]) => document.querySelector("assent-consent")?.shadowRoot?.querySelector(selector)?.getAttribute("lang") === language,
    [selector, language] as const,
  );
  return page.evaluate((selector) => {
    const root = document.querySelector("assent-consent")!.shadowRoot!;
    const element = root.querySelector<HTMLElement>(selector)!;
    // Every purpose's details open, so the parties with their role labels are laid out too.
    element.querySelectorAll("details").forEach((d) => (d.open = true));
    const box = element.getBoundingClientRect();
    const scrollers = [element, ...Array.from(element.querySelectorAll<HTMLElement>("*"))];
    const title = element.querySelector("h2")!;
    const range = document.createRange();
    range.selectNodeContents(title);
    const text = range.getBoundingClientRect();
    return {
      dir: element.getAttribute("dir"),
      direction: getComputedStyle(element).direction,
      overflow: scrollers.some((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== "visible"),
      pageWidth: document.documentElement.scrollWidth,
      buttons: Array.from(element.querySelectorAll<HTMLElement>("button")).map((b) => {
        const r = b.getBoundingClientRect();
        return { name: b.textContent!.trim(), visible: b.checkVisibility(), width: r.width, height: r.height, left: r.left, right: r.right };
      }),
      title: { fromLeft: text.left - box.left, fromRight: box.right - text.right },
    };
  }, selector);
}

/** A picture for the docs, once the layer's entry animation has finished. */
async function picture(page: Page, name: string) {
  await page.evaluate(() => Promise.all(document.querySelector("assent-consent")!.shadowRoot!.getAnimations().map((a) => a.finished)));
  await page.screenshot({ path: artifactPath(name) });
}

function expectFits(measured: Layout, width: number, language: string) {
  const where = `${language} at ${width} px`;
  expect(measured.overflow, `${where}: something scrolls sideways`).toBe(false);
  expect(measured.pageWidth, `${where}: the page got wider`).toBe(width);
  expect(measured.buttons.length, where).toBeGreaterThan(0);
  for (const b of measured.buttons) {
    expect(b.visible, `${where}: ${b.name}`).toBe(true);
    expect(b.left, `${where}: ${b.name} off the left edge`).toBeGreaterThanOrEqual(0);
    expect(b.right, `${where}: ${b.name} off the right edge`).toBeLessThanOrEqual(width);
    expect(Math.min(b.width, b.height), `${where}: ${b.name} is ${b.width}x${b.height}`).toBeGreaterThanOrEqual(24);
  }
  const rtl = rightToLeft.includes(language);
  expect([measured.dir, measured.direction], where).toEqual(rtl ? ["rtl", "rtl"] : ["ltr", "ltr"]);
  // The title starts at the start edge: the right one in a right-to-left language.
  if (rtl) expect(measured.title.fromRight, where).toBeLessThan(measured.title.fromLeft);
  else expect(measured.title.fromLeft, where).toBeLessThan(measured.title.fromRight);
}

// The layout checks below measure real glyphs only where the machine has a font for each script: without one,
// Chromium draws every letter as the same empty box (.ci/run installs fonts-noto-core, fonts-droid-fallback and
// fonts-nanum next to Chromium).
it("has a font for every shipped language's script, so the widths below are real glyphs", async () => {
  const { page } = await visitor(browser, {});
  const boxed = await page.evaluate((words) => {
    const context = document.createElement("canvas").getContext("2d")!;
    context.font = "16px sans-serif";
    // A private-use code point no font draws: the width of the box that stands in for a missing glyph.
    const box = context.measureText("\uE000").width;
    return Object.entries(words).flatMap(([language, text]) => {
      const letters = [...text].filter((c) => /\p{L}/u.test(c) && c > "\u024F");
      const missing = letters.filter((c) => context.measureText(c).width === box);
      return letters.length && missing.length > letters.length / 2 ? [language] : [];
    });
  }, Object.fromEntries(languages.map((language) => [language, shippedStrings[language].title + shippedStrings[language].acceptAll])));
  await page.context().close();
  expect(boxed, "languages drawn as boxes: install fonts-noto-core fonts-droid-fallback fonts-nanum").toEqual([]);
});

/** A phone's and a desktop's viewport, each layer measured at both. */
const viewports = [
  { width: 320, height: 640 },
  { width: 1280, height: 800 },
];

describe(`every shipped language at ${viewports.map((v) => v.width).join(" and ")} px`, () => {
  let page: Page;
  beforeAll(async () => {
    ({ page } = await visitor(browser, { viewport: viewports[0] }));
    await page.goto(`${site.origin}/page.html`);
    await banner(page).waitFor({ state: "visible" });
  });
  afterAll(async () => {
    await page.context().close();
  });

  /**
   * The layer measured at each width, the viewport resized in between: the layers' layout is CSS alone (media and
   * container queries, no script listens for a resize), so a measure after the resize is the layout at that width.
   * The widths are taken in the order that starts where the last layer ended, one resize per layer.
   */
  async function atEachWidth(layer: "banner" | "dialog", language: string, check: (measured: Layout, width: number) => Promise<void>) {
    const order = page.viewportSize()!.width === viewports[0].width ? viewports : [...viewports].reverse();
    for (const viewport of order) {
      await page.setViewportSize(viewport);
      const measured = await layout(page, layer, language);
      expectFits(measured, viewport.width, language);
      await check(measured, viewport.width);
    }
  }

  it(`renders the first layer and the preferences layer in all ${languages.length} languages at both widths, and fits`, async () => {
    for (const language of languages) {
      const words = shippedStrings[language];
      await page.evaluate((language) => document.querySelector("assent-consent")!.setAttribute("lang", language), language);
      await atEachWidth("banner", language, async (first, width) => {
        expect(first.buttons.map((b) => b.name), language).toEqual([words.rejectAll, words.customize, words.acceptAll]);
        if (pictured.includes(language)) await picture(page, `widget-${language}-banner-${width}`);
      });

      await page.evaluate(() => (document.querySelector("assent-consent") as any).show());
      await atEachWidth("dialog", language, async (second, width) => {
        expect(second.buttons.map((b) => b.name), language).toEqual(expect.arrayContaining([words.object, words.rejectAll, words.save, words.acceptAll]));
        expect(await page.locator("assent-consent dialog .x").getAttribute("aria-label"), language).toBe(words.close);
        // The GDPR's terms label the legal grounds and the parties' roles.
        const labels = await page.locator("assent-consent dialog .tag").allTextContents();
        expect(labels, language).toEqual(expect.arrayContaining([words.consent, words.legitimateInterests, words.controller, words.processor]));
        if (pictured.includes(language)) await picture(page, `widget-${language}-dialog-${width}`);
      });
      await page.evaluate(() => ((document.querySelector("assent-consent") as any).open = false));
    }
    // A bootstrap and two layers at two widths for each of the 53 languages, one after another: 13 to 26 s a width on
    // a busy two-core machine, past half of the suite's minute. Each wait inside still fails on its own after 30 s.
  }, 360_000);
});

describe("which language a visitor gets", () => {
  const title = (page: Page) => page.locator("assent-consent [part~=banner] h2").textContent();

  async function visit(path: string, body: string, options: Parameters<typeof visitor>[1] = {}) {
    site.pages[path] = { body };
    const { context, page } = await visitor(browser, options);
    await page.goto(`${site.origin}${path}`);
    await banner(page).waitFor({ state: "visible" });
    return { context, page };
  }

  it("the element's lang first, then the page's, then the browser's list", async () => {
    const cases: [string, string, string, string][] = [
      // [element lang, page lang, browser locale, expected]
      ["fi", "pl", "ja-JP", "fi"],
      ["", "pl", "ja-JP", "pl"],
      ["", "", "ja-JP", "ja"],
      ["tlh", "", "uk-UA", "uk"],
    ];
    for (const [element, pageLang, locale, expected] of cases) {
      const attrs = element ? `lang="${element}"` : "";
      const { context, page } = await visit(`/order-${element}-${pageLang}-${locale}.html`, shopPage(shop.projectId, { attrs, lang: pageLang }), { locale });
      expect(await title(page), `${element}/${pageLang}/${locale}`).toBe(shippedStrings[expected].title);
      await context.close();
    }
  });

  it("a region or script the widget does not ship finds its language: pt-PT, zh-TW, zh-CN, nb-NO, sr-Latn", async () => {
    const cases: [string, string][] = [
      ["pt-PT", "pt"],
      ["pt-BR", "pt-BR"],
      ["zh-TW", "zh-Hant"],
      ["zh-CN", "zh-Hans"],
      ["nb-NO", "nb"],
      ["sr-Latn", "sr"],
    ];
    for (const [tag, expected] of cases) {
      const { context, page } = await visit(`/region-${tag}.html`, shopPage(shop.projectId, { lang: tag }));
      expect(await title(page), tag).toBe(shippedStrings[expected].title);
      expect(await banner(page).getAttribute("lang"), tag).toBe(expected);
      await context.close();
    }
  });

  it("the project's default language when nothing the visitor reads is spoken; then its own wording and its own language", async () => {
    const project = await shopProject(site.origin);
    const current = await ok("GET", project.under(""), project.token);
    const { projectId: _id, created: _c, updated: _u, ...rest } = current;
    const metadata = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== null));
    await ok("PUT", project.under(""), project.token, { ...metadata, defaultLanguage: "it" });
    const unspoken = { locale: "kl-GL" };
    const first = await visit("/default.html", shopPage(project.projectId, { lang: "kl" }), unspoken);
    expect(await title(first.page)).toBe(shippedStrings.it.title);
    await first.context.close();

    // The operator's own words over the shipped Italian, and Greenlandic added with every string.
    await ok("PUT", project.under("/configurations/ui-strings/it"), project.token, { strings: { acceptAll: "Va bene, accetto" } });
    const greenlandic = Object.fromEntries(Object.entries(english).map(([key, text]) => [key, `[kl] ${text}`]));
    const added = await visit("/default.html", shopPage(project.projectId, { lang: "it" }), unspoken);
    expect(await added.page.getByRole("button", { name: "Va bene, accetto" }).count()).toBe(1);
    expect(await added.page.getByRole("button", { name: shippedStrings.it.rejectAll }).count()).toBe(1);
    await added.context.close();
    await ok("PUT", project.under("/configurations/ui-strings/kl"), project.token, { strings: greenlandic });
    const own = await visit("/greenlandic.html", shopPage(project.projectId, { lang: "kl" }), unspoken);
    expect(await title(own.page)).toBe(`[kl] ${english.title}`);
    expect(await own.page.getByRole("button", { name: `[kl] ${english.acceptAll}` }).count()).toBe(1);
    expect(await banner(own.page).getAttribute("lang")).toBe("kl");
    await own.context.close();
  });
});
