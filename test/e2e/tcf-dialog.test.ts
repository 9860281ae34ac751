// The TCF dialog's layers on a TCF project's page (docs/tcf.md#what-each-layer-shows-and-why; TCF Policies, Appendix B),
// in Chromium: the first layer's purposes (stacks where a stack says exactly some of them) and special features in
// the GVL's names, the number of vendors, the note on legitimate interest and the vendor list's button; the second
// layer's purposes, special features and vendors with what the GVL says of each (purposes per legal basis, retention,
// data categories, policy links, device storage with each vendor's own disclosure, Google's Ad Tech Providers); a custom choice in the toggles written into the TC string exactly, decoded in Node
// with IAB's library, `disclosedVendors` the vendors the dialog listed; axe on both layers; the keyboard.
import { TCString } from "@iabtechlabtcf/core";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstLayer, type FirstLayerGvl } from "../../shared/tcf/first-layer";
import { launchBrowser } from "./browser";
import { tcfShop } from "./tcf-helpers";
import { axeRun, axeSource, banner, dialog, focused, hostSite, recordPermissionBodies, shopPage, visitor, type Json, type Shop } from "./widget-helpers";

let browser: Browser;
let site: Awaited<ReturnType<typeof hostSite>>;
let shop: Shop;
/** The project's vendor list as the page reads it (the GVL with the project's vendors). */
let list: FirstLayerGvl & Json;

/**
 * The project's vendors (test/fixtures/tcf/vendor-list.json): Index Exchange (10), Magnite (52) and Amazon (793) ask
 * consent and declare flexible or special purposes, Google (755) rests purposes 2, 7, 9 and 10 on legitimate interest;
 * Amazon seeks special feature 1 (precise geolocation).
 */
const vendors = [10, 52, 755, 793];
const settings = {
  enabled: true,
  cmpId: 300,
  cmpVersion: 2,
  vendors,
  publisherRestrictions: [],
  publisherPurposes: { consent: [], legitimateInterest: [] },
  acProviders: [89],
};

/**
 * Each vendor's device storage disclosure (its GVL `deviceStorageDisclosureUrl`), answered in the browser as the
 * vendor would, with CORS: the tests never reach the network. test/e2e/tcf-vendor-details.test.ts holds the fetch to
 * the broken, failing and silent cases.
 */
const disclosure = { disclosures: [{ identifier: "uid", type: "cookie", maxAgeSeconds: 86_400, domain: "*", purposes: [1] }] };

beforeAll(async () => {
  site = await hostSite();
  ({ shop, list } = (await tcfShop(site.origin, settings)) as { shop: Shop; list: FirstLayerGvl & Json });
  site.pages["/shop.html"] = { body: shopPage(shop.projectId) };
  browser = await launchBrowser();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

/** A new visitor on the page, once the TCF chunk has added its part to the first layer. */
async function firstVisit() {
  const { context, page } = await visitor(browser);
  const disclosures = new Set(vendors.map((id) => (list.vendors[id] as Json).deviceStorageDisclosureUrl));
  await context.route(
    (url) => disclosures.has(url.href),
    (route) => route.fulfill({ json: disclosure, headers: { "access-control-allow-origin": "*" } }),
  );
  const posted = recordPermissionBodies(context);
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
  await page.goto(`${site.origin}/shop.html`);
  await banner(page)
    .locator("[part~=tcf]")
    .waitFor({ timeout: 50_000 })
    .catch((error: Error) => Promise.reject(new Error(`${error.message}\nThe page's errors: ${errors.join("; ") || "none"}`)));
  return { context, page, posted };
}

/** From the first layer, the vendor list's button: the second layer opens on the list, which takes focus. */
async function openVendorList(page: Page) {
  await banner(page).getByRole("button", { name: "Vendor list (4)" }).click();
  await dialog(page).waitFor({ state: "visible" });
  await dialog(page).locator("[part~=vendor]").first().waitFor();
}

const ids = (vector: { forEach(callback: (value: boolean, id: number) => void): void }) => {
  const out: number[] = [];
  vector.forEach((value, id) => value && out.push(id));
  return out;
};

describe("the TCF dialog's first layer", () => {
  it("names the purposes (as stacks), special features, the number of vendors and legitimate interest, with a button to the vendor list; axe finds nothing", async () => {
    const { context, page } = await firstVisit();
    // The vendors seek purposes 1, 2, 3, 4, 7, 9 and 10 and special feature 1: stack 2 says exactly 2 and 7 (stack 42
    // needs 5, 6, 8 and 11 too, stack 1 special feature 2 too), the other purposes stand alone.
    expect(firstLayer(list, settings).stacks.map((s) => s.id)).toEqual([2]);
    const part = banner(page).locator("[part~=tcf]");
    // A stack with its description (Appendix B: a stack stands for its purposes only with its standard name and description).
    expect((await part.locator("[part~=tcf-purposes] li").allTextContents()).map((text) => text.replace(/\s+/g, " ").trim())).toEqual([
      `${list.stacks["2"]!.name} ${(list.stacks["2"] as Json).description}`,
      ...[1, 3, 4, 9, 10].map((id) => list.purposes[id]!.name),
      list.specialFeatures["1"]!.name,
    ]);
    const text = await part.locator("p").textContent();
    expect(text).toContain("We and our 4 vendors");
    expect(text).toContain("legitimate interest, which you can object to under Customize");
    await part.getByRole("button", { name: "Vendor list (4)" }).waitFor();
    // Accept all, Reject all and Customize stay the widget's own, alike.
    expect(await banner(page).locator(".actions button").allTextContents()).toEqual(["Reject all", "Customize", "Accept all"]);
    await page.addScriptTag({ content: axeSource });
    expect(await axeRun(page)).toEqual([]);
    await context.close();
  });
});

describe("the TCF dialog's second layer", () => {
  it("lists each vendor with the GVL's purposes per legal basis, retention, data categories and policy links; axe finds nothing with details open", async () => {
    const { context, page } = await firstVisit();
    await openVendorList(page);
    expect(await focused(page)).toBe("Vendor list (4)");
    const listed = dialog(page).locator("[part~=vendor]");
    expect(await listed.locator("h3").allTextContents()).toEqual(vendors.map((id) => list.vendors[id]!.name));
    // The purposes and special feature with their toggles, each named by the GVL.
    const purposeNames = firstLayer(list, settings).purposes.map((p) => p.name);
    for (const name of purposeNames) await dialog(page).getByRole("switch", { name: `Consent: ${name}`, exact: true }).waitFor();
    for (const id of [2, 7, 9, 10]) await dialog(page).getByRole("switch", { name: `Legitimate interests: ${list.purposes[id]!.name}`, exact: true }).waitFor();
    expect(await dialog(page).getByRole("switch", { name: `Legitimate interests: ${list.purposes["1"]!.name}` }).count()).toBe(0);
    await dialog(page).getByRole("switch", { name: `Consent: ${list.specialFeatures["1"]!.name}`, exact: true }).waitFor();

    const google: Json = list.vendors["755"]!;
    await dialog(page).locator(`summary[aria-label="Details: ${google.name}"]`).click();
    const details = listed.nth(2).locator("dl");
    await details.waitFor();
    const terms = await details.locator("dt").allTextContents();
    expect(terms).toEqual(["Consent", "Legitimate interests", "Special purposes and features", "Data used", "Storage on your device"]);
    await listed.nth(2).locator("[part~=storage-disclosure] li").waitFor();
    const entries = await details.locator("dd").evaluateAll((dds) => dds.map((dd) => Array.from(dd.querySelectorAll(":scope > ul > li"), (li) => li.textContent)));
    expect(entries).toEqual([
      google.purposes.map((id: number) => `${list.purposes[id]!.name} (kept for 548 days)`),
      google.legIntPurposes.map((id: number) => `${list.purposes[id]!.name} (kept for 548 days)`),
      [
        ...google.specialPurposes.map((id: number) => `${list.specialPurposes[id].name} (kept for 548 days)`),
        ...google.features.map((id: number) => list.features[id].name),
      ],
      google.dataDeclaration.map((id: number) => list.dataCategories[id].name),
      ["Uses cookies: up to 396 days, renewed on each visit", "Other storage or access on the device, such as web storage"],
    ]);
    expect(await listed.nth(2).getByRole("link", { name: `Privacy policy: ${google.name}` }).getAttribute("href")).toBe(google.urls[0].privacy);
    expect(await listed.nth(2).getByRole("link", { name: `Legitimate interests: ${google.name}` }).getAttribute("href")).toBe(google.urls[0].legIntClaim);
    // A vendor that claims no legitimate interest has no objection toggle; one that asks consent has its consent toggle.
    expect(await dialog(page).getByRole("switch", { name: `Legitimate interests: ${list.vendors["793"]!.name}` }).count()).toBe(0);
    for (const id of vendors) await dialog(page).getByRole("switch", { name: `Consent: ${list.vendors[id]!.name}`, exact: true }).waitFor();

    for (const id of vendors.filter((id) => id !== 755)) await dialog(page).locator(`summary[aria-label="Details: ${list.vendors[id]!.name}"]`).click();
    await expect.poll(() => dialog(page).locator("[part~=vendor] dl").count()).toBe(vendors.length);
    // Every vendor's disclosure listed, and Google's Ad Tech Provider with its toggle, before axe looks.
    await expect.poll(() => dialog(page).locator("[part~=storage-disclosure] li").count()).toBe(vendors.length);
    await dialog(page).locator("[part~=ac-providers]").getByRole("switch", { name: "Consent: Meta Platforms", exact: true }).waitFor();
    await page.addScriptTag({ content: axeSource });
    expect(await axeRun(page)).toEqual([]);
    await context.close();
  });

  it("keyboard: Tab reaches every toggle of the layers, and Escape closes the dialog as the widget's other layers", async () => {
    const { context, page } = await firstVisit();
    await openVendorList(page);
    const switches = await dialog(page).getByRole("switch").evaluateAll((all) => all.map((s) => s.getAttribute("aria-label")));
    const tcfSwitches = switches.filter((label) => label!.startsWith("Consent: ") || label!.startsWith("Legitimate interests: "));
    expect(tcfSwitches.length).toBeGreaterThan(vendors.length * 2);
    const reached = new Set<string | null>();
    for (let i = 0; i < switches.length * 3 && !switches.every((label) => reached.has(label)); i++) {
      await page.keyboard.press("Tab");
      reached.add(await focused(page));
    }
    expect(switches.filter((label) => !reached.has(label))).toEqual([]);
    // Space flips the focused toggle.
    await dialog(page).getByRole("switch", { name: `Consent: ${list.vendors["52"]!.name}`, exact: true }).focus();
    await page.keyboard.press("Space");
    expect(await dialog(page).getByRole("switch", { name: `Consent: ${list.vendors["52"]!.name}`, exact: true }).isChecked()).toBe(true);
    await page.keyboard.press("Escape");
    await dialog(page).waitFor({ state: "hidden" });
    await context.close();
  });
});

describe("the TC string of the layers' toggles", () => {
  it("a custom choice (purpose 1 and Index Exchange on, Google objected to) is exactly what the string says; disclosedVendors the vendors listed", async () => {
    const { context, page, posted } = await firstVisit();
    await openVendorList(page);
    const listedNames = await dialog(page).locator("[part~=vendor] h3").allTextContents();
    await dialog(page).getByRole("switch", { name: `Consent: ${list.purposes["1"]!.name}`, exact: true }).check();
    await dialog(page).getByRole("switch", { name: `Consent: ${list.vendors["10"]!.name}`, exact: true }).check();
    await dialog(page).getByRole("switch", { name: `Legitimate interests: ${list.vendors["755"]!.name}`, exact: true }).uncheck();
    await dialog(page).getByRole("switch", { name: `Legitimate interests: ${list.purposes["9"]!.name}`, exact: true }).uncheck();
    await dialog(page).getByRole("button", { name: "Save choices" }).click();
    await dialog(page).waitFor({ state: "hidden" });
    await expect.poll(() => posted.length).toBeGreaterThan(0);
    const model = TCString.decode(posted.at(-1)!.meta.context.tcString);
    expect({
      purposeConsents: ids(model.purposeConsents),
      purposeLegitimateInterests: ids(model.purposeLegitimateInterests),
      specialFeatureOptins: ids(model.specialFeatureOptins),
      vendorConsents: ids(model.vendorConsents),
      vendorLegitimateInterests: ids(model.vendorLegitimateInterests),
      vendorsDisclosed: ids(model.vendorsDisclosed),
    }).toEqual({
      purposeConsents: [1],
      // Google rests 2, 7, 9 and 10 on legitimate interest; the visitor objected to 9.
      purposeLegitimateInterests: [2, 7, 10],
      specialFeatureOptins: [],
      vendorConsents: [10],
      // Google objected to; the others claim legitimate interest only for special purposes, which stands once disclosed.
      vendorLegitimateInterests: [10, 52, 793],
      vendorsDisclosed: vendors,
    });
    expect(ids(model.vendorsDisclosed).map((id) => list.vendors[id]!.name)).toEqual(listedNames);

    // The next page view: the toggles stand as chosen.
    await page.reload();
    await page.waitForFunction(() => (window as any).__tcfapi, undefined, { timeout: 60_000 });
    await page.evaluate(() => (document.querySelector("assent-consent") as any).show());
    const purposeOne = dialog(page).getByRole("switch", { name: `Consent: ${list.purposes["1"]!.name}`, exact: true });
    await purposeOne.waitFor();
    expect(await purposeOne.isChecked()).toBe(true);
    expect(await dialog(page).getByRole("switch", { name: `Legitimate interests: ${list.purposes["9"]!.name}`, exact: true }).isChecked()).toBe(false);
    expect(await dialog(page).getByRole("switch", { name: `Legitimate interests: ${list.purposes["7"]!.name}`, exact: true }).isChecked()).toBe(true);
    await context.close();
  });
});
