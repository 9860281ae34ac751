// The React, Vue and Svelte packages (packages/react, packages/vue, packages/svelte) on real pages: each page is
// bundled here with the package's source and the framework, loads the real widget from the real service, and
// renders <AssentConsent> and useConsent. The element stays the widget's; these check that the wrappers hand it its
// settings and tell the page what it says. Then the React Native example's page, with the bridge
// react-native-webview gives it.
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { compile } from "svelte/compiler";
import { build, type Plugin, type Rolldown } from "vite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./browser";
import * as reactNative from "../../examples/react-native/consent";
import { answeredByService, banner, base, dialog, hostSite, moduleTag, ok, recordPermissionBodies, shopProject, visitor, type Json, type Shop } from "./widget-helpers";

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** Compiles .svelte files for the browser, as a Svelte app's bundler plugin would. */
const svelte: Plugin = {
  name: "svelte",
  transform(code, id) {
    if (!id.endsWith(".svelte")) return null;
    const { js } = compile(code, { filename: id, generate: "client" });
    return { code: js.code, map: js.map };
  },
};

/** One page's script: its entry, the framework and the package from source, as a site's bundler would make it. */
async function bundle(entry: string): Promise<string> {
  const result = await build({
    configFile: false,
    logLevel: "warn",
    plugins: [svelte],
    resolve: { alias: { "@assent/element": here("../../packages/element/src/index.ts") } },
    define: {
      "process.env.NODE_ENV": JSON.stringify("production"),
      __VUE_OPTIONS_API__: "false",
      __VUE_PROD_DEVTOOLS__: "false",
      __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: "false",
    },
    build: {
      write: false,
      minify: false,
      rolldownOptions: {
        input: here(entry),
        output: { format: "es", codeSplitting: false },
        // @assent/react's "use client" is for React Server Components setups; a plain browser bundle drops it.
        onLog: (level, log, handler) => log.code === "MODULE_LEVEL_DIRECTIVE" || handler(level, log),
      },
    },
  });
  const [output] = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  return output.output[0].code;
}

const frameworks = [
  { name: "React", script: "/react.js", entry: "frameworks/react-page.ts", application: "react-shop", internalReference: "order-7" },
  { name: "Vue", script: "/vue.js", entry: "frameworks/vue-page.ts", application: "vue-shop", internalReference: "order-8" },
  { name: "Svelte", script: "/svelte.js", entry: "frameworks/svelte-page.ts", application: "svelte-shop", internalReference: "order-9" },
];

let browser: Browser;
let site: Awaited<ReturnType<typeof hostSite>>;
let shop: Shop;

beforeAll(async () => {
  site = await hostSite();
  shop = await shopProject(site.origin);
  for (const { script, entry } of frameworks) {
    site.pages[script] = { body: await bundle(entry), type: "text/javascript" };
    site.pages[script.replace(".js", ".html")] = {
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>${moduleTag}</head>
        <body><div id="root"></div><script type="module" src="${script}"></script></body></html>`,
    };
  }
  browser = await launchBrowser();
  // Three Vite builds (React, Vue, Svelte) and a browser: CPU-bound, so a busy machine stretches them past the
  // project's 120 s hook limit (a CI run at high load skipped the file).
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

const heard = (page: Page): Promise<string[]> => page.evaluate(() => (window as any).__heard ?? []);
const text = (page: Page, id: string) => page.locator(`#${id}`).textContent();
const waitForText = (page: Page, id: string, value: string) =>
  page.waitForFunction(([id, value]) => document.getElementById(id)?.textContent === value, [id, value]);

describe.each(frameworks)("$name", ({ script, application, internalReference }) => {
  const url = (query = "") => `${site.origin}${script.replace(".js", ".html")}?project=${shop.projectId}${query}`;
  let context: BrowserContext;
  let page: Page;
  let permissions: Json[];

  beforeAll(async () => {
    ({ context, page } = await visitor(browser));
    permissions = recordPermissionBodies(context);
    await page.goto(url());
    await banner(page).waitFor({ state: "visible" });
  });
  afterAll(() => context?.close());

  it("puts the element into the page with the component's props: the banner shows", async () => {
    const element = await page.evaluate(() => {
      const element = document.querySelector("assent-consent")!;
      return {
        count: document.querySelectorAll("assent-consent").length,
        attributes: Object.fromEntries(["project", "lang", "regime", "application", "internal-reference"].map((name) => [name, element.getAttribute(name)])),
        upgraded: element.constructor !== HTMLElement,
      };
    });
    expect(element).toEqual({
      count: 1,
      attributes: { project: shop.projectId, lang: "en", regime: "opt-in", application, "internal-reference": internalReference },
      upgraded: true,
    });
    await expect.poll(() => banner(page).getByRole("button", { name: "Accept all" }).count()).toBe(1);
  });

  it("useConsent says false before a decision; the ready callback heard the same", async () => {
    await waitForText(page, "marketing", "false");
    expect(await heard(page)).toEqual(["ready false"]);
  });

  it("a changed lang reaches the same element, which speaks Swedish", async () => {
    await page.evaluate(() => ((window as any).__element = document.querySelector("assent-consent")));
    await page.click("#swedish");
    await banner(page).getByRole("button", { name: "Godkänn alla" }).waitFor();
    expect(await page.evaluate(() => (window as any).__element === document.querySelector("assent-consent"))).toBe(true);
    expect(await page.locator("assent-consent").getAttribute("lang")).toBe("sv");
  });

  it("after Accept all: useConsent flips to true, the change callback hears it, and the decision carries the props", async () => {
    await banner(page).getByRole("button", { name: "Godkänn alla" }).click();
    await waitForText(page, "marketing", "true");
    expect((await heard(page)).filter((entry) => entry.startsWith("change"))).toEqual(["change true"]);
    expect(permissions).toHaveLength(1);
    expect(permissions[0].meta.context).toMatchObject({ application, internalReference, language: "sv" });
    expect(await text(page, "identity")).toMatch(/^idn_/);
  });

  it("a returning visitor: useConsent is true from the stored decision, with no banner", async () => {
    await page.reload();
    await waitForText(page, "marketing", "true");
    expect(await heard(page)).toContain("ready true");
    await answeredByService(page);
    expect(await banner(page).count()).toBe(0);
  });

  it("taking the component out takes the element out", async () => {
    await page.click("#remove");
    await page.locator("assent-consent").waitFor({ state: "detached" });
  });

  it("a tokenProvider prop reaches the element before it connects: the widget speaks for that identity", async () => {
    const identity = await ok("POST", shop.under("/identities"), shop.token, { referenceId: `framework-user-${application}` });
    const minted = await ok("POST", shop.under(`/identities/${identity.identityId}/tokens`), shop.token);
    const signedIn = await visitor(browser);
    await signedIn.context.addInitScript((token) => ((window as any).__token = token), minted.access_token as string);
    await signedIn.page.goto(url("&provider"));
    await waitForText(signedIn.page, "identity", identity.identityId);
    expect(await heard(signedIn.page)).toEqual(["ready false"]);
    await signedIn.context.close();
  });
});

describe("the React Native example's page (examples/react-native/consent.ts)", () => {
  it("carries the user's token to the widget, which posts JSON to ReactNativeWebView, and reopens on window.assent.show()", async () => {
    const identity = await ok("POST", shop.under("/identities"), shop.token, { referenceId: "app-user-rn" });
    const auth = { identityId: identity.identityId as string, token: (await ok("POST", shop.under(`/identities/${identity.identityId}/tokens`), shop.token)).access_token as string };
    Object.assign(reactNative.settings, { assent: base, project: shop.projectId });
    site.pages["/app.html"] = { body: reactNative.consentPage("en", auth) };
    const { context, page } = await visitor(browser);
    // What react-native-webview gives the page: a postMessage that takes text.
    await context.addInitScript(() => {
      const w = window as any;
      w.__posted = [];
      w.ReactNativeWebView = { postMessage: (text: string) => w.__posted.push(JSON.parse(text)) };
    });
    const posted = (): Promise<Json[]> => page.evaluate(() => (window as any).__posted);
    await page.goto(`${site.origin}/app.html`);
    await banner(page).getByRole("button", { name: "Accept all" }).click();
    await expect.poll(async () => (await posted()).map((message) => message.type)).toEqual(["assent-ready", "assent-change"]);
    const [ready, change] = await posted();
    expect(ready.state).toMatchObject({ identityId: auth.identityId, consents: { marketing: false, analytics: false } });
    expect(change.state).toMatchObject({ identityId: auth.identityId, consents: { marketing: true, analytics: true } });
    await page.evaluate(reactNative.showPreferencesScript);
    await dialog(page).waitFor({ state: "visible" });
    await context.close();
  });
});
