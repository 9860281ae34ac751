// The Google Tag Manager template against the real widget and service: its sandboxed code runs in Chromium through
// the sandbox stand-in (test/integrations/gtm), loads the classic widget for a project whose own Consent Mode is off,
// and tells Consent Mode and the dataLayer what each decision allows.
import { readFileSync } from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readTemplate } from "../integrations/gtm/template-file";
import { launchBrowser } from "./browser";
import { adminToken, banner, base, dataLayer, hostSite, ok, shopProject, visitor, waitForEvent, type Json, type Shop } from "./widget-helpers";

let browser: Browser;
let site: Awaited<ReturnType<typeof hostSite>>;
let shop: Shop;
let defaults: Json[];

const template = readTemplate(new URL("../../integrations/gtm/template.tpl", import.meta.url).pathname);

/** The sandbox stand-in as a classic script that leaves `window.gtmSandbox`. */
const sandboxScript = () => {
  const source = readFileSync(new URL("../integrations/gtm/sandbox.ts", import.meta.url), "utf8");
  const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } });
  return `(function (exports) {\n${outputText}\n})(window.gtmSandbox = {});`;
};

/** A page with Tag Manager's part played by the stand-in: the template runs first in <head>, as on Consent Initialization. */
const tagManagerPage = (fields: Json) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>
  <script>${sandboxScript()}</script>
  <script>
    window.__run = window.gtmSandbox.runTemplate(${JSON.stringify(template.code)}, ${JSON.stringify(template.permissions)}, ${JSON.stringify(fields)}, {
      page: {
        window,
        loadScript(url, onLoad, onError) {
          const script = document.createElement("script");
          script.src = url;
          script.onload = onLoad;
          script.onerror = onError;
          document.head.append(script);
        },
      },
      extraScriptUrls: [${JSON.stringify(`${base}/widget/*`)}],
    });
  </script></head><body><h1>Shop</h1></body></html>`;

const run = (page: Page) => page.evaluate(() => {
  const { defaults, updates, gtagSets, injected, calls, outcome } = (window as any).__run;
  return { defaults, updates, gtagSets, injected, calls: calls.map((c: Json) => c.api), outcome };
});

const granted = { ad_storage: "granted", ad_user_data: "granted", ad_personalization: "granted", analytics_storage: "granted" };
const denied = { ad_storage: "denied", ad_user_data: "denied", ad_personalization: "denied", analytics_storage: "denied" };

beforeAll(async () => {
  site = await hostSite();
  shop = await shopProject(site.origin);
  // With the template, Tag Manager sends the Consent Mode commands: the project's own (the widget's) are off.
  await ok("PUT", `/admin/v1/projects/${shop.projectId}/consent-mode`, adminToken, { enabled: false, waitForUpdate: 500, urlPassthrough: false, adsDataRedaction: true });
  // The project's defaults as docs/gtm.md reads them: the bootstrap's consentMode.defaults, one row each.
  const answer = await fetch(`${base}/browser/v1/projects/${shop.projectId}/bootstrap`, {
    method: "POST",
    headers: { origin: site.origin, "content-type": "text/plain;charset=UTF-8" },
    body: "{}",
  });
  defaults = (await answer.json()).consentMode.defaults;
  const rows = defaults.map(({ region, ...types }) => ({ region: (region ?? []).join(", "), ...types }));
  site.pages["/"] = {
    body: tagManagerPage({
      projectId: shop.projectId,
      serviceOrigin: base,
      language: "",
      regionDefaults: rows,
      waitForUpdate: "500",
      adsDataRedaction: true,
      urlPassthrough: false,
      eventName: "assent_consent_update",
    }),
  };
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

describe("the template with the real widget", () => {
  let context: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    ({ context, page } = await visitor(browser));
    await page.goto(`${site.origin}/`);
    await banner(page).waitFor({ state: "visible" });
    await waitForEvent(page, "assent-ready");
  });
  afterAll(() => context.close());

  it("sets the project's defaults per region, then loads the widget, which places its element for the project", async () => {
    const result = await run(page);
    expect(defaults.length).toBeGreaterThan(1);
    const scoped = defaults.filter((d) => d.region).map((d) => ({ ...d, wait_for_update: 500 }));
    const everywhere = defaults.filter((d) => !d.region).map((d) => ({ ...d, wait_for_update: 500 }));
    expect(result.defaults).toEqual([...scoped, ...everywhere]);
    expect(result.gtagSets).toEqual([{ ads_data_redaction: true, url_passthrough: false }]);
    expect(result.injected).toEqual([`${base}/widget/assent.classic.js?project=${shop.projectId}`]);
    expect(result.calls.indexOf("injectScript")).toBeGreaterThan(result.calls.lastIndexOf("setDefaultConsentState"));
    expect(result.outcome).toBe("success");
    expect(await page.evaluate(() => Array.from(document.querySelectorAll("assent-consent")).map((e) => e.getAttribute("project")))).toEqual([shop.projectId]);
  });

  it("before a decision: the widget's state denies what the consent purposes map, and the widget itself sends no gtag command", async () => {
    await page.waitForFunction(() => (window as any).__run.updates.length > 0);
    expect((await run(page)).updates).toEqual([denied]);
    expect(await dataLayer(page)).toEqual([
      { event: "assent_consent_update", assent: { consents: { marketing: false, analytics: false, fraud: true }, consentMode: denied } },
    ]);
  });

  it("Accept all: an update granting every type the purposes map, and the dataLayer event", async () => {
    await page.getByRole("button", { name: "Accept all" }).click();
    await banner(page).waitFor({ state: "detached" });
    await page.waitForFunction(() => (window as any).__run.updates.length > 1);
    expect((await run(page)).updates).toEqual([denied, granted]);
    expect((await dataLayer(page)).at(-1)).toEqual({
      event: "assent_consent_update",
      assent: { consents: { marketing: true, analytics: true, fraud: true }, consentMode: granted },
    });
    expect((await dataLayer(page)).filter((entry: unknown) => Array.isArray(entry))).toEqual([]);
  });

  it("a returning visitor: the stored decision reaches Consent Mode while the bootstrap still hangs", async () => {
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    await page.route(/\/bootstrap$/, async (route) => {
      await held;
      await route.fallback();
    });
    await page.reload();
    await page.waitForFunction(() => (window as any).__run?.updates.length > 0);
    expect((await run(page)).updates).toEqual([granted]);
    expect(await banner(page).count()).toBe(0);
    answer();
    await page.unroute(/\/bootstrap$/);
  });
});
