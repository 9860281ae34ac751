// The rules a banner follows beyond the regime (docs/regulatory-readiness.md): purposes exempt from consent, and a
// refusal that stands for the project's period.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./browser";
import { adminToken, answeredByService, banner, base, dialog, gatedScript, hostSite, ok, shopPage, shopProject, visitor, type Json, type Shop } from "./widget-helpers";

let browser: Browser;
let site: Awaited<ReturnType<typeof hostSite>>;
let shop: Shop;
let cart: Json;
/** A second shop whose refusals stand for `refusalSeconds`. */
let brief: Shop;
const refusalSeconds = 20;

beforeAll(async () => {
  site = await hostSite();
  shop = await shopProject(site.origin);
  await ok("PUT", shop.under(`/configurations/purposes/${shop.analytics.purposeId}`), shop.token, {
    referenceId: "analytics",
    name: "Analytics",
    legalGround: "consent",
    controllers: [shop.shop.partyId],
    sensitive: true,
    requireNewConsent: false,
  });
  cart = await ok("POST", shop.under("/configurations/purposes"), shop.token, {
    referenceId: "cart",
    name: "Shopping cart",
    description: [{ language: "en", text: "Keeps what you put in the cart." }],
    legalGround: "contract",
    controllers: [shop.shop.partyId],
    exemption: { reason: "requested-service", regime: "eprivacy" },
  });
  Object.assign(site.pages, {
    "/exempt.html": {
      body: shopPage(shop.projectId, {
        extra: `<p id="cart">not run</p><script type="text/plain" data-assent-purpose="cart" src="/cart.js"></script>`,
      }),
    },
    "/cart.js": { body: `document.getElementById("cart").textContent = "ran";`, type: "text/javascript" },
    "/gated.js": gatedScript,
  });
  brief = await shopProject(site.origin);
  await ok("PUT", `/admin/v1/projects/${brief.projectId}/jurisdictions`, adminToken, { rules: [], rest: "opt-in", refusalStandsSeconds: refusalSeconds });
  site.pages["/brief.html"] = { body: shopPage(brief.projectId) };
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

describe("exempt purposes", () => {
  it("are never gated, are shown as information and not as a switch, and the decision records the exemption", async () => {
    const { context, page } = await visitor(browser);
    await page.goto(`${site.origin}/exempt.html`);
    await banner(page).waitFor({ state: "visible" });
    // Opt-in, nothing decided: the exempt purpose's script runs, the consent purpose's does not.
    await page.waitForFunction(() => document.getElementById("cart")?.textContent === "ran");
    expect(await page.locator("#gated").textContent()).toBe("not run");
    expect(await page.evaluate(() => (window as any).assent.getConsent()?.consents.cart)).toBe(true);

    await page.getByRole("button", { name: "Customize" }).click();
    await dialog(page).waitFor({ state: "visible" });
    const entry = dialog(page).locator("[part=purpose]", { hasText: "Shopping cart" });
    await expect.poll(() => entry.locator("[part=exempt]").textContent()).toBe("Needs no consent");
    expect(await entry.getByRole("switch").count()).toBe(0);
    expect(await entry.getByRole("button", { name: /Object/ }).count()).toBe(0);
    expect(await dialog(page).getByRole("switch", { name: "Marketing" }).count()).toBe(1);

    const recorded = page.waitForResponse((r) => r.url().startsWith(base) && r.url().endsWith("/permissions") && r.request().method() === "POST");
    await dialog(page).getByRole("button", { name: "Reject all" }).click();
    const record = await (await recorded).json();
    expect(record.meta.context.exemptions).toEqual([{ purposeId: cart.purposeId, version: "1", reason: "requested-service", regime: "eprivacy" }]);
    expect(record.request.purposes.map((p: Json) => p.purposeId)).not.toContain(cart.purposeId);
    expect(await page.locator("#cart").textContent()).toBe("ran");
    await context.close();
  });
});

/** Loads (or reloads) the page and waits until the widget has taken the bootstrap's answer; returns that answer. */
async function bootstrapped(page: Page, load: () => Promise<unknown>): Promise<Json> {
  const answer = page.waitForResponse((r) => r.url().startsWith(base) && r.url().endsWith("/bootstrap"));
  await load();
  const body = await (await answer).json();
  await page.waitForFunction(() => (window as any).assent.getConsent()?.identityId);
  return body;
}

const asked = (page: Page) => page.evaluate(() => document.querySelector("assent-consent")!.hasAttribute("banner"));

describe("a refusal stands", () => {
  it("after Reject all the widget does not ask again on reload; once the project's period has passed it asks, and the refusal still gates", async () => {
    const { context, page } = await visitor(browser);
    await bootstrapped(page, () => page.goto(`${site.origin}/brief.html`));
    await banner(page).waitFor({ state: "visible" });
    await page.getByRole("button", { name: "Reject all" }).click();
    await banner(page).waitFor({ state: "detached" });

    // A reload while the period runs (it is long enough for a reload on a loaded machine).
    const within = await bootstrapped(page, () => page.reload());
    expect(within.askAgain).toEqual([]);
    await answeredByService(page);
    expect(await asked(page)).toBe(false);

    // The period passes: the service names the refused purposes, and the first layer asks about them again.
    await expect
      .poll(async () => (await bootstrapped(page, () => page.reload())).askAgain.length, { timeout: (refusalSeconds + 30) * 1000, interval: 2000 })
      .toBe(2);
    await banner(page).waitFor({ state: "visible" });
    expect(await page.locator("#gated").textContent()).toBe("not run");
    expect(await page.evaluate(() => (window as any).assent.getConsent().consents.marketing)).toBe(false);
    await context.close();
  }, 120_000);

  it("a new version that requires consent asks again at once", async () => {
    const fresh = await shopProject(site.origin);
    site.pages["/fresh.html"] = { body: shopPage(fresh.projectId) };
    const { context, page } = await visitor(browser);
    await bootstrapped(page, () => page.goto(`${site.origin}/fresh.html`));
    await page.getByRole("button", { name: "Reject all" }).click();
    await banner(page).waitFor({ state: "detached" });
    await bootstrapped(page, () => page.reload());
    await answeredByService(page);
    expect(await asked(page)).toBe(false);

    const current = await ok("GET", fresh.under(`/configurations/purposes/${fresh.marketing.purposeId}`), fresh.token);
    const { projectId, purposeId, version, created, updated, ...content } = current;
    await ok("PUT", fresh.under(`/configurations/purposes/${purposeId}`), fresh.token, { ...content, name: "Marketing by post", requireNewConsent: true });
    await bootstrapped(page, () => page.reload());
    await banner(page).waitFor({ state: "visible" });
    await context.close();
  });
});

describe("US opt-out wording", () => {
  /** A shop whose visitors are, locally, where `jurisdiction` says, with its Analytics marked sensitive. */
  async function shopIn(jurisdiction: string) {
    const made = await shopProject(site.origin, { jurisdiction });
    await ok("PUT", made.under(`/configurations/purposes/${made.analytics.purposeId}`), made.token, {
      referenceId: "analytics",
      name: "Analytics",
      legalGround: "consent",
      controllers: [made.shop.partyId],
      sensitive: true,
      requireNewConsent: false,
    });
    site.pages[`/${jurisdiction}.html`] = { body: shopPage(made.projectId, { regime: null }) };
    return `${site.origin}/${jurisdiction}.html`;
  }
  const openChoices = async (page: Page, button: string) => {
    await banner(page).getByRole("button", { name: button }).click();
    await dialog(page).waitFor({ state: "visible" });
    await dialog(page).locator("[part=purpose]", { hasText: "Analytics" }).waitFor();
  };
  const limitNotes = (page: Page) => dialog(page).locator("[part=limit-sensitive]").allTextContents();

  it("a visitor in California: Do Not Sell or Share links to the choices, and the sensitive purpose says Limit the Use", async () => {
    const url = await shopIn("US-CA");
    const { context, page } = await visitor(browser);
    await page.goto(url);
    await banner(page).waitFor({ state: "visible" });
    expect(await banner(page).locator("button").allTextContents()).toEqual(["Do Not Sell or Share My Personal Information", "OK"]);
    await openChoices(page, "Do Not Sell or Share My Personal Information");
    const analytics = dialog(page).locator("[part=purpose]", { hasText: "Analytics" });
    expect(await analytics.locator("[part=limit-sensitive]").textContent()).toBe("Limit the Use of My Sensitive Personal Information");
    expect(await limitNotes(page)).toHaveLength(1);
    await context.close();
  });

  it("a visitor in another opt-out state (Virginia): the choices without California's words", async () => {
    const url = await shopIn("US-VA");
    const { context, page } = await visitor(browser);
    await page.goto(url);
    await banner(page).waitFor({ state: "visible" });
    expect(await banner(page).locator("button").allTextContents()).toEqual(["Your privacy choices", "OK"]);
    await openChoices(page, "Your privacy choices");
    expect(await limitNotes(page)).toEqual([]);
    await context.close();
  });

  it("a visitor in the EU: neither", async () => {
    const url = await shopIn("DE");
    const { context, page } = await visitor(browser);
    await page.goto(url);
    await banner(page).waitFor({ state: "visible" });
    expect(await banner(page).locator("button").allTextContents()).toEqual(["Reject all", "Customize", "Accept all"]);
    await openChoices(page, "Customize");
    expect(await limitNotes(page)).toEqual([]);
    expect(await page.locator("assent-consent").evaluate((host) => `${host.textContent} ${host.shadowRoot!.textContent}`)).not.toContain("Do Not Sell");
    await context.close();
  });
});

describe("browser signals", () => {
  it("GPC and a signal defined only as data (the service's TEST_SIGNALS) are recorded with the decision", async () => {
    const { context, page } = await visitor(browser, { gpc: true });
    // As a browser would send it: on the request itself, added below the page (so no CORS preflight asks about it).
    await context.route(`${base}/**`, (route) => route.continue({ headers: { ...route.request().headers(), "x-assent-test-signal": "1" } }));
    await page.goto(`${site.origin}/exempt.html`);
    await banner(page).waitFor({ state: "visible" });
    const recorded = page.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith("/permissions"));
    await page.getByRole("button", { name: "Reject all" }).click();
    const record = await (await recorded).json();
    expect(record.meta.context.signals).toEqual({ gpc: true, "test-optout": true });
    await context.close();
  });
});
