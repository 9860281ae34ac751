// The widget's one request to first paint (the bootstrap, BOOTSTRAP-CONTRACT.md), what it does with the answer:
// Google Consent Mode v2, the regimes, GPC, a returning visitor without blocking calls, re-prompting after a new
// purpose version, receipts; all against the real service.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./browser";
import {
  banner, dataLayer, dialog, events, gatedScript, hostSite, ok, recordPermissionBodies, recordRequests, shopPage, shopProject,
  switchStates, visitor, waitForEvent, type Json, type Shop,
} from "./widget-helpers";

let browser: Browser;
let site: Awaited<ReturnType<typeof hostSite>>;
let shop: Shop;

beforeAll(async () => {
  site = await hostSite();
  shop = await shopProject(site.origin);
  Object.assign(site.pages, {
    "/plain.html": { body: shopPage(shop.projectId) },
    "/consent-mode.html": { body: shopPage(shop.projectId, { attrs: "consent-mode" }) },
    "/opt-out.html": { body: shopPage(shop.projectId, { attrs: 'regime="opt-out"', extra: '<a href="#" data-assent-open>Your privacy choices</a>' }) },
    "/notice.html": { body: shopPage(shop.projectId, { attrs: 'regime="notice"' }) },
    "/gated.js": gatedScript,
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

/** A fresh visitor whose permission posts are recorded as they leave the page. */
async function bootstrapped(options: Parameters<typeof visitor>[1] = {}) {
  const { context, page } = await visitor(browser, options);
  return { context, page, permissionBodies: recordPermissionBodies(context) };
}

// The counting beacon a page view sends when it is left (docs/analytics.md) is no call of the next page view's.
const apiCalls = (requests: ReturnType<typeof recordRequests>) =>
  requests.filter((r) => !r.path.startsWith("/widget/") && !r.path.endsWith("/analytics/events")).map((r) => `${r.method} ${r.path.replace(/prj_\w+/, "{project}")}`);

const denied = { ad_storage: "denied", ad_user_data: "denied", ad_personalization: "denied", analytics_storage: "denied" };
const granted = { ad_storage: "granted", ad_user_data: "granted", ad_personalization: "granted", analytics_storage: "granted" };
/** Before the project's settings are known: redaction on, everything but security denied, waiting for an update. */
const firstDefaults = [
  ["set", "ads_data_redaction", true],
  [
    "consent",
    "default",
    { ...denied, functionality_storage: "denied", personalization_storage: "denied", security_storage: "granted", wait_for_update: 500 },
  ],
];
/** The gtag commands a bootstrap's Consent Mode settings make: redaction, passthrough, then each default. */
const projectDefaultsOf = (settings: Json) => [
  ...(settings.adsDataRedaction ? [["set", "ads_data_redaction", true]] : []),
  ...(settings.urlPassthrough ? [["set", "url_passthrough", true]] : []),
  ...settings.defaults.map((entry: Json) => ["consent", "default", { ...entry, wait_for_update: settings.waitForUpdate }]),
];
/** Opens a page and returns the Consent Mode settings its bootstrap answered with. */
async function open(page: Page, path: string): Promise<Json> {
  const answer = page.waitForResponse((response) => response.url().endsWith("/bootstrap") && response.request().method() === "POST");
  await page.goto(`${site.origin}${path}`);
  return (await (await answer).json()).consentMode;
}
const gtmEvent = (consents: Json, consentMode: Json) => ({ event: "assent_consent_update", assent: { consents, consentMode } });

describe("a first visit", () => {
  let context: BrowserContext;
  let page: Page;
  let requests: ReturnType<typeof recordRequests>;
  let projectDefaults: unknown[];

  beforeAll(async () => {
    ({ context, page } = await bootstrapped());
    requests = recordRequests(page);
    projectDefaults = projectDefaultsOf(await open(page, "/consent-mode.html"));
    await banner(page).waitFor({ state: "visible" });
  });
  afterAll(() => context.close());

  it("makes exactly one request to the service before the banner shows: the bootstrap, a CORS simple request", async () => {
    expect(apiCalls(requests)).toEqual(["POST /browser/v1/projects/{project}/bootstrap"]);
    const [call] = requests.filter((r) => r.path.endsWith("/bootstrap"));
    expect(call.headers["content-type"]).toBe("text/plain;charset=UTF-8");
    expect(call.headers.authorization).toBeUndefined();
    expect(await events(page, "assent-ready")).toHaveLength(1);
  });

  it("sets Consent Mode defaults at once (the page has consent-mode), then the project's, and no update before a decision", async () => {
    const layer = await dataLayer(page);
    expect(layer).toEqual([...firstDefaults, ...projectDefaults]);
  });

  it("on Accept all: an update granting every mapped type, and the GTM event", async () => {
    await page.getByRole("button", { name: "Accept all" }).click();
    await banner(page).waitFor({ state: "detached" });
    expect((await dataLayer(page)).slice(-2)).toEqual([
      ["consent", "update", granted],
      gtmEvent({ marketing: true, analytics: true, fraud: true }, granted),
    ]);
  });

  it("a returning visitor: the stored decision gates and updates Consent Mode at once, while the bootstrap still hangs", async () => {
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    await page.route(/\/bootstrap$/, async (route) => {
      await held;
      await route.fallback();
    });
    requests.length = 0;
    await page.reload();
    await waitForEvent(page, "assent-ready");
    await page.waitForFunction(() => document.getElementById("gated")?.textContent === "ran");
    expect(await page.evaluate(() => (window as any).assent.getConsent().consents)).toEqual({ marketing: true, analytics: true, fraud: true });
    expect(await banner(page).count()).toBe(0);
    expect(await dataLayer(page)).toEqual([...projectDefaults, ["consent", "update", granted], gtmEvent({ marketing: true, analytics: true, fraud: true }, granted)]);
    // The only call so far is the background revalidation, still unanswered.
    expect(apiCalls(requests)).toEqual(["POST /browser/v1/projects/{project}/bootstrap"]);
    answer();
    await page.waitForFunction(() => performance.getEntriesByType("resource").some((e) => e.name.endsWith("/bootstrap")));
    expect(await banner(page).count()).toBe(0);
    expect(await events(page, "assent-change")).toEqual([]);
    await page.unroute(/\/bootstrap$/);
  });
});

describe("Consent Mode updates for each decision", () => {
  it("Reject all: every mapped type denied", async () => {
    const { context, page } = await bootstrapped();
    const projectDefaults = projectDefaultsOf(await open(page, "/plain.html"));
    await banner(page).waitFor({ state: "visible" });
    // Without the consent-mode attribute the first defaults are the project's, set when the bootstrap answers.
    expect(await dataLayer(page)).toEqual(projectDefaults);
    await page.getByRole("button", { name: "Reject all" }).click();
    await banner(page).waitFor({ state: "detached" });
    expect((await dataLayer(page)).slice(-2)).toEqual([
      ["consent", "update", denied],
      gtmEvent({ marketing: false, analytics: false, fraud: true }, denied),
    ]);
    await context.close();
  });

  it("a returning visitor whose consent was withdrawn elsewhere: the bootstrap's answer updates Consent Mode", async () => {
    const { context, page, permissionBodies } = await bootstrapped();
    await open(page, "/plain.html");
    await page.getByRole("button", { name: "Accept all" }).click();
    await banner(page).waitFor({ state: "detached" });
    // The same person withdraws marketing on another device: the shop's backend records it.
    const [accepted] = permissionBodies;
    const marketing = accepted.request.purposes.find((p: Json) => p.purposeId === shop.marketing.purposeId);
    const denyAll = (value: unknown): unknown =>
      Array.isArray(value) ? value.map(denyAll) : value && typeof value === "object"
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === "status" ? "denied" : denyAll(v)]))
        : value;
    await ok("POST", shop.under("/permissions"), shop.token, {
      ...accepted,
      requested: new Date().toISOString(),
      request: { purposes: [denyAll(marketing)] },
    });
    await open(page, "/plain.html");
    await waitForEvent(page, "assent-change");
    const modes = { ad_storage: "denied", ad_user_data: "denied", ad_personalization: "denied", analytics_storage: "granted" };
    expect((await dataLayer(page)).slice(-2)).toEqual([["consent", "update", modes], gtmEvent({ marketing: false, analytics: true, fraud: true }, modes)]);
    await context.close();
  });

  it("a partial choice: analytics only", async () => {
    const { context, page } = await bootstrapped();
    await page.goto(`${site.origin}/plain.html`);
    await page.getByRole("button", { name: "Customize" }).click();
    await dialog(page).waitFor({ state: "visible" });
    await page.getByRole("switch", { name: "Analytics", exact: true }).check();
    await page.getByRole("button", { name: "Save choices" }).click();
    await dialog(page).waitFor({ state: "hidden" });
    const modes = { ad_storage: "denied", ad_user_data: "denied", ad_personalization: "denied", analytics_storage: "granted" };
    expect((await dataLayer(page)).slice(-2)).toEqual([["consent", "update", modes], gtmEvent({ marketing: false, analytics: true, fraud: true }, modes)]);
    expect(await page.locator("#gated").textContent()).toBe("not run");
    await context.close();
  });
});

describe("regimes, forced with the element's regime attribute (honoured by the service in local development only)", () => {
  it("opt-out: a compact notice with Your privacy choices (California's words only in California); purposes run until the visitor opts out", async () => {
    const { context, page } = await bootstrapped();
    const requests = recordRequests(page);
    await page.goto(`${site.origin}/opt-out.html`);
    await banner(page).waitFor({ state: "visible" });
    const [call] = requests.filter((r) => r.path.endsWith("/bootstrap"));
    expect(JSON.parse(call.body!)).toMatchObject({ regime: "opt-out", languages: ["en", "en-US"] });
    expect(await banner(page).locator("button").allTextContents()).toEqual(["Your privacy choices", "OK"]);
    expect(await banner(page).locator("#banner-text").textContent()).toContain("You can opt out at any time.");
    await page.waitForFunction(() => document.getElementById("gated")?.textContent === "ran");
    expect((await dataLayer(page)).slice(-2)).toEqual([["consent", "update", granted], gtmEvent({ marketing: true, analytics: true, fraud: true }, granted)]);
    await banner(page).getByRole("button", { name: "Your privacy choices" }).click();
    await dialog(page).waitFor({ state: "visible" });
    expect(await switchStates(page)).toEqual({ Marketing: true, Analytics: true });
    await page.getByRole("switch", { name: "Marketing", exact: true }).uncheck();
    await page.getByRole("button", { name: "Save choices" }).click();
    await dialog(page).waitFor({ state: "hidden" });
    expect((await events(page, "assent-change")).at(-1)?.consents).toEqual({ marketing: false, analytics: true, fraud: true });
    // The page's own "Your privacy choices" link reopens the preferences.
    await page.getByRole("link", { name: "Your privacy choices" }).click();
    await dialog(page).waitFor({ state: "visible" });
    await context.close();
  });

  it("opt-out with GPC: the service records the opt-out of sale and sharing, and the notice says so", async () => {
    const { context, page } = await bootstrapped({ gpc: true });
    await page.goto(`${site.origin}/opt-out.html`);
    await banner(page).waitFor({ state: "visible" });
    expect(await banner(page).locator(".note").textContent()).toContain("you were opted out of the sale and sharing");
    const [ready] = await events(page, "assent-ready");
    expect(ready.consents).toEqual({ marketing: false, analytics: true, fraud: true });
    expect(await page.locator("#gated").textContent()).toBe("not run");
    const { items } = await ok("GET", shop.under(`/permissions?identityId=${ready.identityId}`), shop.token);
    expect(items.map((i: Json) => i.request.purposes.map((p: Json) => [p.referenceId, p.status]))).toEqual([[["marketing", "denied"]]]);
    await context.close();
  });

  it("notice: a notice with OK; once seen it does not come back", async () => {
    const { context, page } = await bootstrapped();
    await page.goto(`${site.origin}/notice.html`);
    await banner(page).waitFor({ state: "visible" });
    expect(await banner(page).locator("#banner-text").textContent()).toContain("where you can also object");
    await banner(page).getByRole("button", { name: "OK" }).click();
    await banner(page).waitFor({ state: "detached" });
    await page.reload();
    await waitForEvent(page, "assent-ready");
    await page.waitForLoadState("networkidle");
    expect(await banner(page).count()).toBe(0);
    await context.close();
  });

  it("opt-in with GPC: the service records the signal with the decision (meta.context.signals), the widget does not send it", async () => {
    const { context, page, permissionBodies } = await bootstrapped({ gpc: true });
    await page.goto(`${site.origin}/plain.html`);
    const recorded = page.waitForResponse((r) => r.request().method() === "POST" && r.url().endsWith("/permissions"));
    await page.getByRole("button", { name: "Reject all" }).click();
    const record = await (await recorded).json();
    expect(record.meta.context.signals).toEqual({ gpc: true });
    expect(permissionBodies.map((b) => b.meta.context.gpc)).toEqual([undefined]);
    await context.close();
  });
});

describe("receipts and new versions", () => {
  it("a decision in the preferences layer ends on Download receipt with the service's signed receipt, also in assent-change", async () => {
    const { context, page } = await bootstrapped();
    await page.goto(`${site.origin}/plain.html`);
    await page.getByRole("button", { name: "Customize" }).click();
    await dialog(page).waitFor({ state: "visible" });
    await dialog(page).getByRole("button", { name: "Save choices" }).click();
    const link = page.getByRole("link", { name: "Download receipt" });
    await link.waitFor();
    const receipt = (await events(page, "assent-change"))[0].receipt as string;
    // A compact JWS of the service's receipt type (verified against the JWKS in test/api/proof.test.ts).
    const header = JSON.parse(Buffer.from(receipt.split(".")[0], "base64url").toString());
    expect(header).toMatchObject({ alg: "ES256", typ: "assent-receipt+jwt" });
    expect(await link.getAttribute("href")).toBe(`data:application/jose;charset=utf-8,${receipt}`);
    expect(await link.getAttribute("download")).toBe("assent-receipt.jws");
    expect((await events(page, "assent-change"))[0].receipt).toBe(receipt);
    await page.getByRole("button", { name: "Close" }).click();
    await banner(page).waitFor({ state: "detached" });
    expect(await events(page, "assent-dismiss")).toEqual([]);
    await context.close();
  });

  it("asks again after a purpose gets a version that requires new consent", async () => {
    const { context, page } = await bootstrapped();
    await page.goto(`${site.origin}/plain.html`);
    await page.getByRole("button", { name: "Accept all" }).click();
    await banner(page).waitFor({ state: "detached" });
    const { analytics } = shop;
    await ok("PUT", shop.under(`/configurations/purposes/${analytics.purposeId}`), shop.token, {
      referenceId: "analytics",
      name: "Analytics",
      description: [{ language: "en", text: "Counting visits and clicks." }],
      legalGround: "consent",
      dataGroups: [shop.usage.dataGroupId],
      processors: [],
      recipients: [],
      controllers: [shop.shop.partyId],
      requireNewConsent: true,
    });
    await page.reload();
    await banner(page).waitFor({ state: "visible" });
    expect((await events(page, "assent-change")).at(-1)?.consents).toEqual({ marketing: true, analytics: false, fraud: true });
    await page.getByRole("button", { name: "Customize" }).click();
    await dialog(page).waitFor({ state: "visible" });
    expect(await page.locator("assent-consent .purpose").filter({ hasText: "Analytics" }).locator(".tag.new").count()).toBe(1);
    expect(await switchStates(page)).toEqual({ Marketing: true, Analytics: false });
    await context.close();
  });
});
