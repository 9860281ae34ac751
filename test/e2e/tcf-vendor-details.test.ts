// What the TCF dialog's second layer discloses of each vendor beyond its purposes (docs/tcf.md#what-each-layer-shows-and-why),
// in Chromium: its device storage (cookies, their lifetime, other means of access, and the vendor's own disclosure
// fetched from its `deviceStorageDisclosureUrl` when its details open: a valid one listed, a broken, failing or
// silent one a note and the link), the legal basis each purpose has after the publisher's restrictions, and Google's
// Ad Tech Providers listed with their own toggles, the AC string disclosing exactly those. The project's list is
// served to the browser with its vendors' storage fields rewritten to a local disclosure server: never the network.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./browser";
import { hostedLists } from "./tcf-lists-server";
import { adminToken, axeRun, axeSource, banner, base, dialog, hostSite, ok, recordPermissionBodies, shopPage, shopProject, visitor, type Json, type Shop } from "./widget-helpers";

let browser: Browser;
let site: Awaited<ReturnType<typeof hostSite>>;
let shop: Shop;
let list: Json;

/** The vendor disclosures' server: another origin, answering with CORS as the Tech Lab's spec requires; it records what it was asked. */
let disclosures: Server;
let disclosureOrigin: string;
const asked: { path: string; headers: IncomingHttpHeaders }[] = [];
/** Index Exchange's disclosure (the Tech Lab's "Device Storage Access & Disclosure" format). */
const valid = {
  disclosures: [
    { identifier: "CMID", type: "cookie", maxAgeSeconds: 31_536_000, cookieRefresh: true, domain: "*.casalemedia.com", purposes: [1, 2, 3] },
    { identifier: "ix_session", type: "cookie", maxAgeSeconds: 0, domain: "*.casalemedia.com", purposes: [1] },
    { identifier: "ix_features", type: "web", maxAgeSeconds: null, domain: "*", purposes: [1, 7] },
  ],
  domains: [{ domain: "*.casalemedia.com", use: "Ad serving" }],
};

const illustrations = ["A travel site stores a cookie to remember your language.", "A news app reads an identifier it stored to count your visits."];
const vendors = [10, 52, 755, 793];
const providers = [1, 89, 2677];
const settings = {
  enabled: true,
  cmpId: 300,
  cmpVersion: 2,
  vendors,
  // Index Exchange may not use purpose 2; Google must ask consent for 7 (its legitimate interest); Magnite must rest 10 on legitimate interest.
  publisherRestrictions: [
    { purpose: 2, type: "not-allowed", vendors: [10] },
    { purpose: 7, type: "require-consent", vendors: [755] },
    { purpose: 10, type: "require-legitimate-interest", vendors: [52] },
  ],
  publisherPurposes: { consent: [], legitimateInterest: [] },
  acProviders: providers,
};

/** The project's list with each vendor's storage declarations rewritten: a valid, a broken, a failing and a silent disclosure. */
function withStorage(served: Json) {
  const set = (id: number, fields: Json) => Object.assign(served.vendors[String(id)], fields);
  set(10, { usesCookies: true, cookieMaxAgeSeconds: 31_536_000, cookieRefresh: true, usesNonCookieAccess: true, deviceStorageDisclosureUrl: `${disclosureOrigin}/valid.json` });
  set(52, { usesCookies: true, cookieMaxAgeSeconds: 0, cookieRefresh: false, usesNonCookieAccess: false, deviceStorageDisclosureUrl: `${disclosureOrigin}/broken.json` });
  set(755, { usesCookies: true, cookieMaxAgeSeconds: 34_190_000, cookieRefresh: true, usesNonCookieAccess: true, deviceStorageDisclosureUrl: `${disclosureOrigin}/failing.json` });
  set(793, { usesCookies: false, cookieMaxAgeSeconds: null, cookieRefresh: false, usesNonCookieAccess: true, deviceStorageDisclosureUrl: `${disclosureOrigin}/silent.json` });
  // The GVL's illustrations of a purpose (TCF 2.2's examples; the vendored GVL has none yet).
  served.purposes["1"].illustrations = illustrations;
  return served;
}

beforeAll(async () => {
  disclosures = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://x").pathname;
    asked.push({ path, headers: request.headers });
    const cors = { "access-control-allow-origin": "*", "content-type": "application/json" };
    if (path === "/valid.json") return void response.writeHead(200, cors).end(JSON.stringify(valid));
    if (path === "/broken.json") return void response.writeHead(200, cors).end('{"disclosures": [{"identifier": 5, "type": "cookie"}');
    if (path === "/silent.json") return; // never answers: the widget's bounded wait ends it
    response.writeHead(500, cors).end("{}");
  });
  await new Promise<void>((resolve) => disclosures.listen(0, "127.0.0.1", resolve));
  disclosureOrigin = `http://127.0.0.1:${(disclosures.address() as AddressInfo).port}`;
  site = await hostSite();
  shop = await shopProject(site.origin);
  await hostedLists(base, adminToken);
  await ok("PUT", `/admin/v1/projects/${shop.projectId}/tcf`, adminToken, settings);
  list = withStorage(await (await fetch(`${base}/tcf/v3/projects/${shop.projectId}/vendor-list.json`)).json());
  site.pages["/shop.html"] = { body: shopPage(shop.projectId) };
  browser = await launchBrowser();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await site?.close();
  disclosures?.closeAllConnections();
  await new Promise((resolve) => disclosures?.close(resolve));
});

/** A new visitor, the project's list served with the rewritten storage fields, on the second layer's vendor list. */
async function onVendorList(): Promise<{ context: BrowserContext; page: Page; posted: Json[] }> {
  const { context, page } = await visitor(browser);
  const posted = recordPermissionBodies(context);
  await context.route(`**/tcf/v3/projects/${shop.projectId}/vendor-list.json*`, async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: withStorage(await response.json()) });
  });
  await page.goto(`${site.origin}/shop.html`);
  await banner(page).locator("[part~=tcf]").waitFor({ timeout: 60_000 });
  await banner(page).getByRole("button", { name: "Vendor list (4)" }).click();
  await dialog(page).locator("[part~=vendor]").first().waitFor({ timeout: 30_000 });
  return { context, page, posted };
}

const vendorEntry = (page: Page, id: number) => dialog(page).locator("[part~=vendor]", { has: page.locator("h3", { hasText: list.vendors[id].name }) });
const openDetails = (page: Page, id: number) => dialog(page).locator(`summary[aria-label="Details: ${list.vendors[id].name}"]`).click();
/** The items of one entry (`dt`) of a vendor's details. */
const entryItems = (page: Page, id: number, term: string) =>
  vendorEntry(page, id)
    .locator("dl")
    .evaluate((dl, term) => {
      const dt = Array.from(dl.querySelectorAll("dt")).find((d) => d.textContent === term);
      const dd = dt?.nextElementSibling;
      return dd ? Array.from(dd.querySelectorAll(":scope > ul > li"), (li) => li.textContent!.replace(/\s+/g, " ").trim()) : null;
    }, term);
const purposeNames = (ids: number[]) => ids.map((id) => list.purposes[id].name).join(", ");
const kept = (id: number, purpose: number) => `${list.purposes[purpose].name} (kept for ${list.vendors[id].dataRetention.purposes[purpose] ?? list.vendors[id].dataRetention.stdRetention} days)`;

describe("a vendor's device storage", () => {
  it("shows cookies, their lifetime and other access from the GVL, and the vendor's disclosure fetched only once its details open", async () => {
    const { context, page } = await onVendorList();
    expect(asked).toEqual([]);
    await openDetails(page, 10);
    const disclosed = vendorEntry(page, 10).locator("[part~=storage-disclosure] li");
    await expect.poll(() => disclosed.count(), { timeout: 30_000 }).toBe(3);
    expect(await entryItems(page, 10, "Storage on your device")).toEqual(["Uses cookies: up to 365 days, renewed on each visit", "Other storage or access on the device, such as web storage"]);
    expect((await disclosed.allTextContents()).map((t) => t.replace(/\s+/g, " ").trim())).toEqual([
      `CMID (a cookie, *.casalemedia.com, up to 365 days, renewed on each visit): ${purposeNames([1, 2, 3])}`,
      `ix_session (a cookie, *.casalemedia.com, session only): ${purposeNames([1])}`,
      `ix_features (web storage, *): ${purposeNames([1, 7])}`,
    ]);
    // Asked once, from the page, without the visitor's cookies or the page's address.
    expect(asked.map((a) => a.path)).toEqual(["/valid.json"]);
    expect(asked[0]!.headers.referer).toBeUndefined();
    expect(asked[0]!.headers.cookie).toBeUndefined();
    expect(await vendorEntry(page, 10).getByRole("link", { name: `Storage on your device: ${list.vendors[10].name}` }).getAttribute("href")).toBe(`${disclosureOrigin}/valid.json`);

    // A session cookie, no other access; no cookies at all; a lifetime in days rounded up.
    await openDetails(page, 52);
    await openDetails(page, 755);
    await openDetails(page, 793);
    await expect.poll(() => entryItems(page, 52, "Storage on your device")).toEqual(["Uses cookies: session only"]);
    expect(await entryItems(page, 755, "Storage on your device")).toEqual(["Uses cookies: up to 396 days, renewed on each visit", "Other storage or access on the device, such as web storage"]);
    expect(await entryItems(page, 793, "Storage on your device")).toEqual(["No cookies", "Other storage or access on the device, such as web storage"]);
    // A broken document, a failing server and one that never answers: a plain note and the link, the dialog unharmed.
    for (const [id, file] of [[52, "broken"], [755, "failing"], [793, "silent"]] as const) {
      await vendorEntry(page, id).getByText("The vendor's storage details could not be loaded.").waitFor({ timeout: 60_000 });
      expect(await vendorEntry(page, id).getByRole("link", { name: `Storage on your device: ${list.vendors[id].name}` }).getAttribute("href")).toBe(`${disclosureOrigin}/${file}.json`);
      expect(await vendorEntry(page, id).locator("[part~=storage-disclosure] li").count()).toBe(0);
    }
    // Closing and reopening asks nothing again.
    await openDetails(page, 10);
    await openDetails(page, 10);
    await expect.poll(() => disclosed.count()).toBe(3);
    expect(asked.filter((a) => a.path === "/valid.json")).toHaveLength(1);
    await page.addScriptTag({ content: axeSource });
    expect(await axeRun(page)).toEqual([]);
    await context.close();
  });
});

describe("publisher restrictions in a vendor's details", () => {
  it("each purpose under the legal basis it has after the restriction; a purpose not allowed named as such", async () => {
    const { context, page } = await onVendorList();
    for (const id of [10, 52, 755]) await openDetails(page, id);
    await expect.poll(() => dialog(page).locator("[part~=vendor] dl").count()).toBe(3);
    // Index Exchange: purpose 2 not allowed.
    expect(await entryItems(page, 10, "Consent")).toEqual([1, 3, 4, 7, 9, 10].map((p) => kept(10, p)));
    expect(await entryItems(page, 10, "Not allowed by this site")).toEqual([list.purposes[2].name]);
    // Magnite: purpose 10 moved from consent to legitimate interest.
    expect(await entryItems(page, 52, "Consent")).toEqual([1, 2, 3, 4, 7].map((p) => kept(52, p)));
    expect(await entryItems(page, 52, "Legitimate interests")).toEqual([kept(52, 10)]);
    // Google: purpose 7 moved from legitimate interest to consent.
    expect(await entryItems(page, 755, "Consent")).toEqual([1, 3, 4, 7].map((p) => kept(755, p)));
    expect(await entryItems(page, 755, "Legitimate interests")).toEqual([2, 9, 10].map((p) => kept(755, p)));
    expect(await entryItems(page, 755, "Not allowed by this site")).toBeNull();
    // Magnite, consent only in the GVL, now rests purpose 10 on legitimate interest: the visitor may object to it.
    await dialog(page).getByRole("switch", { name: `Legitimate interests: ${list.vendors[52].name}`, exact: true }).waitFor();
    await context.close();
  });
});

describe("Google's Ad Tech Providers", () => {
  it("are listed with their policies and own toggles; the AC string discloses exactly those listed and consents to those switched on", async () => {
    const { context, page, posted } = await onVendorList();
    const atp = (await (await fetch(`${base}/tcf/atp/additional-consent-providers.json`)).json()).providers as Json[];
    const section = dialog(page).locator("[part~=ac-providers]");
    await section.waitFor();
    expect(await section.locator("h4").allTextContents()).toEqual(providers.map((id) => atp.find((p) => p.id === id)!.name));
    await section.getByText("Not in IAB's vendor list: Google's Additional Consent string tells them your consent").waitFor();
    for (const id of providers) {
      const provider = atp.find((p) => p.id === id)!;
      expect(await section.getByRole("link", { name: `Privacy policy: ${provider.name}` }).getAttribute("href")).toBe(provider.policyUrl);
      expect(await section.getByRole("switch", { name: `Consent: ${provider.name}`, exact: true }).isChecked()).toBe(false);
    }
    await dialog(page).getByRole("switch", { name: `Consent: ${list.purposes[1].name}`, exact: true }).check();
    await section.getByRole("switch", { name: `Consent: ${atp.find((p) => p.id === 89)!.name}`, exact: true }).check();
    await page.addScriptTag({ content: axeSource });
    expect(await axeRun(page)).toEqual([]);
    await dialog(page).getByRole("button", { name: "Save choices" }).click();
    await dialog(page).waitFor({ state: "hidden" });
    await expect.poll(() => posted.length).toBeGreaterThan(0);
    const [version, consented, disclosed] = posted.at(-1)!.meta.context.acString.split("~");
    const ids = (text: string) => (text ? text.split(".").map(Number) : []);
    expect(version).toBe("2");
    expect(ids(consented)).toEqual([89]);
    // Part 5 names the disclosed providers not consented to (Google's AC v2): together, exactly the providers listed.
    expect([...ids(consented), ...ids(disclosed.replace(/^dv\.?/, ""))].sort((a, b) => a - b)).toEqual(providers);

    // The next page view: the provider's toggle stands as chosen.
    await page.reload();
    await page.waitForFunction(() => (window as any).__tcfapi, undefined, { timeout: 60_000 });
    await page.evaluate(() => (document.querySelector("assent-consent") as any).show());
    await dialog(page).getByRole("button", { name: "Vendor list (4)" }).or(dialog(page).locator("#tcf-vendors > summary")).first().click();
    const meta = dialog(page).getByRole("switch", { name: `Consent: ${atp.find((p) => p.id === 89)!.name}`, exact: true });
    await meta.waitFor({ timeout: 30_000 });
    expect(await meta.isChecked()).toBe(true);
    expect(await dialog(page).getByRole("switch", { name: `Consent: ${atp.find((p) => p.id === 1)!.name}`, exact: true }).isChecked()).toBe(false);
    await context.close();
  });

  it("Accept all consents to every listed provider, and nothing with Reject all", async () => {
    for (const [button, consented] of [["Accept all", providers], ["Reject all", []]] as const) {
      const { context, page, posted } = await onVendorList();
      await dialog(page).getByRole("button", { name: button }).click();
      await dialog(page).waitFor({ state: "hidden" });
      await expect.poll(() => posted.length).toBeGreaterThan(0);
      const [, given, dv] = posted.at(-1)!.meta.context.acString.split("~");
      expect(given).toBe(consented.join("."));
      expect(dv).toBe(`dv.${providers.filter((id) => !(consented as readonly number[]).includes(id)).join(".")}`);
      await context.close();
    }
  });
});

describe("the purposes' illustrations", () => {
  it("the second layer shows a purpose's GVL illustrations under its description, behind a disclosure of their own; none where the GVL has none", async () => {
    const { context, page } = await onVendorList();
    const purpose = dialog(page).locator("[part~=tcf-purpose]", { has: page.locator("h3", { hasText: list.purposes[1].name }) });
    const examples = purpose.locator("details[part~=illustrations]");
    await examples.locator("summary").click();
    expect(await examples.locator("li").allTextContents()).toEqual(illustrations);
    expect(await examples.locator("summary").getAttribute("aria-label")).toBe(`Examples: ${list.purposes[1].name}`);
    const other = dialog(page).locator("[part~=tcf-purpose]", { has: page.locator("h3", { hasText: list.purposes[2].name }) });
    expect(await other.locator("details[part~=illustrations]").count()).toBe(0);
    await page.addScriptTag({ content: axeSource });
    expect(await axeRun(page)).toEqual([]);
    await context.close();
  });
});
