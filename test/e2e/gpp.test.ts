// The IAB GPP CMP API on a page (docs/gpp.md): under the opt-out regime for a California visitor (locally the
// project's jurisdiction, US-CA, stands in for the visitor's state), `__gpp` answers with usnat and usca, derived from
// the visitor's decision; IAB's own library (@iabgpp/cmpapi) decodes the page's string. Under opt-in there is no
// `__gpp` and the GPP chunk is never fetched.
import { readFileSync } from "node:fs";
import { GppModel } from "@iabgpp/cmpapi";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./browser";
import { adminToken, banner, base, dialog, gatedRan, gatedScript, hostSite, moduleTag, ok, shopPage, shopProject, visitor, type Json, type Shop } from "./widget-helpers";

let browser: Browser;
let site: Awaited<ReturnType<typeof hostSite>>;
let shop: Shop;
/** The GPP chunk's file name, from the build's manifest. */
let chunk: string;

/** The stub docs/gpp.md gives pages, taken from the page itself so the documented text is the tested one. */
const stub = /```html\n(<script>[\s\S]*?<\/script>)\n```/.exec(readFileSync(new URL("../../docs/gpp.md", import.meta.url), "utf8"))![1];
/** A vendor's listener registered with the stub before the widget loads: it records every event it hears. */
/** IAB's own stub (test/e2e/gpp/iab-stub.js), first in the head as IAB asks. */
const iabStub = `<script>${readFileSync(new URL("gpp/iab-stub.js", import.meta.url), "utf8")}</script>`;
/**
 * A vendor's listener on IAB's stub, which returns the registration instead of calling back: it records every event
 * as [eventName, data], and each event whose pingData disagrees with it (a display or signal event must carry its
 * new status in pingData too).
 */
const chainListener = `<script>window.__chain = []; window.__disagree = [];
  __gpp("addEventListener", function (e) {
    __chain.push([e.eventName, e.data]);
    var field = { cmpStatus: "cmpStatus", cmpDisplayStatus: "cmpDisplayStatus", signalStatus: "signalStatus" }[e.eventName];
    if (field && e.pingData[field] !== e.data) __disagree.push([e.eventName, e.data, e.pingData[field]]);
  });</script>`;
const earlyListener = `<script>window.__heard = []; __gpp("addEventListener", function (e) { window.__heard.push([e.eventName, e.data]); });
  __gpp("customCommand", function (data, success) { window.__queued = [data, success]; });</script>`;

beforeAll(async () => {
  site = await hostSite();
  shop = await shopProject(site.origin);
  await ok("PUT", `/admin/v1/projects/${shop.projectId}`, adminToken, {
    name: "E2E shop",
    controller: { name: "Shop AB", email: "privacy@shop.example" },
    policies: { privacy: "https://shop.example/privacy" },
    jurisdiction: "US-CA",
    defaultLanguage: "en",
  });
  Object.assign(site.pages, {
    "/stub.html": { body: shopPage(shop.projectId, { attrs: 'regime="opt-out"', head: stub + earlyListener + moduleTag }) },
    "/iab-stub.html": { body: shopPage(shop.projectId, { attrs: 'regime="opt-out"', head: iabStub + chainListener + moduleTag }) },
    "/plain.html": { body: shopPage(shop.projectId, { attrs: 'regime="opt-out"' }) },
    "/opt-in.html": { body: shopPage(shop.projectId) },
    "/classic.html": { body: shopPage(shop.projectId, { attrs: 'regime="opt-out"', head: `<script src="${base}/widget/assent.classic.js"></script>` }) },
    "/gated.js": gatedScript,
  });
  const manifest = await (await fetch(`${base}/widget/manifest.json`)).json();
  chunk = manifest["assent.js"].chunks.find((name: string) => name.startsWith("gpp."));
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

/** `__gpp(command, callback, parameter)` in the page: what the callback got. */
const gpp = (page: Page, command: string, parameter?: unknown) =>
  page.evaluate(
    ([command, parameter]) =>
      new Promise<{ data: any; success: boolean }>((resolve) => (window as any).__gpp(command, (data: unknown, success: boolean) => resolve({ data, success }), parameter)),
    [command, parameter] as const,
  );

const loaded = (page: Page) =>
  page.waitForFunction(() => {
    let status: string | undefined;
    (window as any).__gpp?.("ping", (data: Json) => (status = data.cmpStatus));
    return status === "loaded";
  });

/** Every script the page fetched from the service's widget folder. */
const widgetScripts = (page: Page) => {
  const seen: string[] = [];
  page.on("request", (request) => {
    if (request.url().startsWith(`${base}/widget/`)) seen.push(new URL(request.url()).pathname.slice("/widget/".length));
  });
  return seen;
};

describe("GPP under the opt-out regime (California)", () => {
  it("ping, the sections IAB's library decodes, sections not used, and listeners hearing the opt-out", async () => {
    expect(chunk).toBeTruthy();
    const { context, page } = await visitor(browser);
    const scripts = widgetScripts(page);
    await page.goto(`${site.origin}/stub.html`);
    await banner(page).waitFor({ state: "visible" });
    await loaded(page);
    expect(scripts).toContain(chunk);

    const ping = (await gpp(page, "ping")).data;
    expect(ping).toMatchObject({
      gppVersion: "1.1",
      cmpStatus: "loaded",
      cmpDisplayStatus: "visible",
      signalStatus: "ready",
      supportedAPIs: ["7:usnat", "8:usca"],
      cmpId: 0,
      sectionList: [7, 8],
      applicableSections: [8],
    });
    // IAB's library reads the page's string as the page's own API answers it.
    const model = new GppModel(ping.gppString);
    expect(model.getSectionIds()).toEqual([7, 8]);
    expect(ping.parsedSections).toEqual(model.toObject());
    const usnat = (await gpp(page, "getSection", "usnat")).data;
    expect(usnat).toEqual(model.getSection("usnat"));
    expect((await gpp(page, "getSection", "usca")).data).toEqual(model.getSection("usca"));
    // Nothing refused yet: the notices were given and the visitor has not opted out.
    expect(usnat).toMatchObject({ SaleOptOutNotice: 1, SharingOptOutNotice: 1, TargetedAdvertisingOptOutNotice: 1, SaleOptOut: 2, SharingOptOut: 2, TargetedAdvertisingOptOut: 2, MspaCoveredTransaction: 2, Gpc: false });
    expect(await gpp(page, "hasSection", "usnat")).toEqual({ data: true, success: true });
    expect(await gpp(page, "getField", "usca.SaleOptOut")).toEqual({ data: 2, success: true });

    // Sections the project's rules do not use here are not served.
    for (const name of ["usva", "usco", "usut", "usct", "tcfeuv2"]) {
      expect({ name, has: (await gpp(page, "hasSection", name)).data }).toEqual({ name, has: false });
      expect({ name, section: (await gpp(page, "getSection", name)).data }).toEqual({ name, section: null });
    }
    expect((await gpp(page, "getField", "usva.SaleOptOut")).data).toBeNull();
    expect(await gpp(page, "nonsense")).toEqual({ data: null, success: false });

    // The stub's listener was taken over, and the call it queued was answered.
    expect(await page.evaluate(() => (window as any).__heard)).toEqual([
      ["listenerRegistered", true],
      ["cmpStatus", "loaded"],
      ["cmpDisplayStatus", "visible"],
      ["signalStatus", "ready"],
    ]);
    expect(await page.evaluate(() => (window as any).__queued)).toEqual([null, false]);
    // A listener added now gets an id and the ping data.
    const registered = await page.evaluate(
      () => new Promise<Json>((resolve) => (window as any).__gpp("addEventListener", (event: Json) => ((window as any).__later ??= []).push(event) && resolve(event))),
    );
    expect(registered).toMatchObject({ eventName: "listenerRegistered", data: true, pingData: { cmpStatus: "loaded" } });

    // The visitor opts out of the sale and sharing (Marketing: a recipient and Google's ad types).
    await banner(page).getByRole("button", { name: "Do Not Sell or Share My Personal Information" }).click();
    await dialog(page).waitFor({ state: "visible" });
    await page.getByRole("switch", { name: "Marketing", exact: true }).uncheck();
    await page.getByRole("button", { name: "Save choices" }).click();
    await dialog(page).waitFor({ state: "hidden" });
    await page.waitForFunction(() => (window as any).__heard.filter(([name]: string[]) => name === "sectionChange").length === 2);
    expect((await page.evaluate(() => (window as any).__heard)).filter(([name]: string[]) => name === "sectionChange")).toEqual([
      ["sectionChange", "usnat"],
      ["sectionChange", "usca"],
    ]);
    const after = new GppModel((await gpp(page, "ping")).data.gppString);
    expect(after.getSection("usnat")).toMatchObject({ SaleOptOut: 1, SharingOptOut: 1, TargetedAdvertisingOptOut: 1 });
    expect(after.getSection("usca")).toMatchObject({ SaleOptOut: 1, SharingOptOut: 1 });
    expect(await gpp(page, "getField", "usnat.SaleOptOut")).toEqual({ data: 1, success: true });
    const later = await page.evaluate(() => (window as any).__later.map((e: Json) => [e.eventName, e.data]));
    expect(later).toEqual(expect.arrayContaining([["sectionChange", "usnat"], ["sectionChange", "usca"]]));

    // A listener removed hears no more; removing it again says so.
    const removed = await gpp(page, "removeEventListener", registered.listenerId);
    expect(removed.data).toMatchObject({ eventName: "listenerRemoved", listenerId: registered.listenerId, data: true });
    expect((await gpp(page, "removeEventListener", registered.listenerId)).data.data).toBe(false);
    await context.close();
  });

  it("with GPC and without the stub: opted out from the first answer, the __gppLocator frame, frames answered by message", async () => {
    const { context, page } = await visitor(browser, { gpc: true });
    await page.goto(`${site.origin}/plain.html`);
    await loaded(page);
    const usnat = (await gpp(page, "getSection", "usnat")).data;
    expect(usnat).toMatchObject({ SaleOptOut: 1, SharingOptOut: 1, TargetedAdvertisingOptOut: 1, Gpc: true });
    expect(new GppModel((await gpp(page, "ping")).data.gppString).getSection("usca")).toMatchObject({ SaleOptOut: 1, Gpc: true });
    expect(await page.evaluate(() => !!window.frames["__gppLocator" as any])).toBe(true);
    // A frame's call (here the page posting to itself, as a string like many vendors' frames do) is answered in kind.
    const reply = await page.evaluate(
      () =>
        new Promise<Json>((resolve) => {
          addEventListener("message", (event) => {
            if (typeof event.data === "string" && event.data.includes("__gppReturn")) resolve(JSON.parse(event.data));
          });
          postMessage(JSON.stringify({ __gppCall: { command: "getField", parameter: "usca.Gpc", callId: "c1", version: "1.1" } }), "*");
        }),
    );
    expect(reply).toEqual({ __gppReturn: { returnValue: true, success: true, callId: "c1" } });
    await context.close();
  });
});

describe("the CMP API's events, in the order GPP CMP API 1.1 gives (addEventListener, event order examples 1 and 2)", () => {
  const chain = (page: Page) => page.evaluate(() => (window as any).__chain as [string, unknown][]);
  /** Waits until the chain holds `count` events, then returns them. */
  const chainOf = async (page: Page, count: number) => {
    await page.waitForFunction((n) => (window as any).__chain.length >= n, count);
    return chain(page);
  };
  const status = async (page: Page) => {
    const { signalStatus, cmpDisplayStatus } = (await gpp(page, "ping")).data;
    return { signalStatus, cmpDisplayStatus };
  };

  it("takes over IAB's stub: its listeners hear loaded, visible, ready; a decision is framed by not ready and ready; the display events follow the page", async () => {
    const { context, page } = await visitor(browser);
    await page.goto(`${site.origin}/iab-stub.html`);
    await banner(page).waitFor({ state: "visible" });
    // Example 1: the CMP has loaded and shows its layer; the opt-out string holds before any choice.
    expect(await chainOf(page, 3)).toEqual([
      ["cmpStatus", "loaded"],
      ["cmpDisplayStatus", "visible"],
      ["signalStatus", "ready"],
    ]);
    expect(await status(page)).toEqual({ signalStatus: "ready", cmpDisplayStatus: "visible" });

    // The visitor opens the choices: the CMP is about to process input, so the signal is not ready while they show.
    await banner(page).getByRole("button", { name: "Do Not Sell or Share My Personal Information" }).click();
    await dialog(page).waitFor({ state: "visible" });
    expect((await chainOf(page, 4)).slice(3)).toEqual([["signalStatus", "not ready"]]);
    expect(await status(page)).toEqual({ signalStatus: "not ready", cmpDisplayStatus: "visible" });

    // Save: the layer closes, the sections change, then ready: the last event agrees with the page.
    await page.getByRole("switch", { name: "Marketing", exact: true }).uncheck();
    await page.getByRole("button", { name: "Save choices" }).click();
    await dialog(page).waitFor({ state: "hidden" });
    expect((await chainOf(page, 8)).slice(4)).toEqual([
      ["cmpDisplayStatus", "hidden"],
      ["sectionChange", "usnat"],
      ["sectionChange", "usca"],
      ["signalStatus", "ready"],
    ]);
    expect(await status(page)).toEqual({ signalStatus: "ready", cmpDisplayStatus: "hidden" });
    expect(new GppModel((await gpp(page, "ping")).data.gppString).getSection("usca")).toMatchObject({ SaleOptOut: 1, SharingOptOut: 1 });

    // Example 2: the visitor resurfaces the layer (a "Privacy choices" link) and closes it without a change.
    await page.evaluate(() => (document.querySelector("assent-consent") as any).show());
    await dialog(page).waitFor({ state: "visible" });
    expect((await chainOf(page, 10)).slice(8)).toEqual([
      ["signalStatus", "not ready"],
      ["cmpDisplayStatus", "visible"],
    ]);
    await page.keyboard.press("Escape");
    await dialog(page).waitFor({ state: "hidden" });
    expect((await chainOf(page, 12)).slice(10)).toEqual([
      ["cmpDisplayStatus", "hidden"],
      ["signalStatus", "ready"],
    ]);
    expect(await status(page)).toEqual({ signalStatus: "ready", cmpDisplayStatus: "hidden" });
    expect(await page.evaluate(() => (window as any).__disagree)).toEqual([]);
    await context.close();
  });
});

describe("sensitive data in Virginia: opt-in consent, as the state's law asks (Va. Code 59.1-578(A)(5))", () => {
  it("the sensitive purpose waits for consent while the rest runs; usva says no consent, then consent once the visitor agrees", async () => {
    // A Virginia project (locally its jurisdiction stands in for the visitor's state) with a sensitive store finder.
    const virginia = await shopProject(site.origin, { jurisdiction: "US-VA" });
    await ok("POST", virginia.under("/configurations/purposes"), virginia.token, {
      referenceId: "location",
      name: "Store finder",
      description: [{ language: "en", text: "Finds the store nearest to you from where you are." }],
      legalGround: "consent",
      controllers: [virginia.shop.partyId],
      sensitive: true,
      sensitiveCategories: ["precise-geolocation"],
    });
    const sensitive = `<p id="sensitive">not run</p><script type="text/plain" data-assent-purpose="location" src="/sensitive.js"></script>`;
    site.pages["/virginia.html"] = { body: shopPage(virginia.projectId, { attrs: 'regime="opt-out"', extra: sensitive }) };
    site.pages["/sensitive.js"] = { body: `document.getElementById("sensitive").textContent = "ran";`, type: "text/javascript" };

    const { context, page } = await visitor(browser);
    await page.goto(`${site.origin}/virginia.html`);
    await banner(page).waitFor({ state: "visible" });
    await loaded(page);
    // Before any decision: marketing runs until the visitor opts out; the sensitive purpose does not run at all.
    await gatedRan(page);
    expect(await page.locator("#sensitive").textContent()).toBe("not run");
    const consentOf = async () => {
      const ping = (await gpp(page, "ping")).data;
      const model = new GppModel(ping.gppString);
      // What the page answers is what IAB's library reads from the page's string.
      expect(ping.parsedSections).toEqual(model.toObject());
      expect(ping.supportedAPIs).toEqual(["7:usnat", "9:usva"]);
      return model.getSection("usva").SensitiveDataProcessing;
    };
    // usva's eight categories: (8) precise geolocation, 1 no consent.
    expect(await consentOf()).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);

    // The visitor agrees in the choices: the switch was off, as nothing ran.
    await banner(page).getByRole("button", { name: "Your privacy choices" }).click();
    await dialog(page).waitFor({ state: "visible" });
    const finder = page.getByRole("switch", { name: "Store finder", exact: true });
    expect(await finder.isChecked()).toBe(false);
    await finder.check();
    await page.getByRole("button", { name: "Save choices" }).click();
    await dialog(page).waitFor({ state: "hidden" });
    await page.locator("#sensitive", { hasText: /^ran$/ }).waitFor();
    await page.waitForFunction(() => {
      let ready = false;
      (window as any).__gpp("ping", (data: Json) => (ready = data.signalStatus === "ready"));
      return ready;
    });
    expect(await consentOf()).toEqual([0, 0, 0, 0, 0, 0, 0, 2]);
    await context.close();
  });
});

describe("GPP in the classic build", () => {
  it("carries the GPP code in its one file: __gpp answers with no chunk fetched", async () => {
    const { context, page } = await visitor(browser);
    const scripts = widgetScripts(page);
    await page.goto(`${site.origin}/classic.html`);
    await loaded(page);
    expect((await gpp(page, "ping")).data).toMatchObject({ sectionList: [7, 8], applicableSections: [8] });
    expect(new GppModel((await gpp(page, "ping")).data.gppString).getSection("usca")).toMatchObject({ SaleOptOut: 2, SaleOptOutNotice: 1 });
    expect(scripts).toEqual(["assent.classic.js"]);
    await context.close();
  });
});

describe("GPP under the opt-in regime", () => {
  it("has no __gpp, no __gppLocator frame, and never fetches the GPP chunk", async () => {
    const { context, page } = await visitor(browser);
    const scripts = widgetScripts(page);
    await page.goto(`${site.origin}/opt-in.html`);
    await banner(page).waitFor({ state: "visible" });
    await page.waitForLoadState("networkidle");
    expect(scripts).toContain("assent.js");
    expect(scripts).not.toContain(chunk);
    expect(await page.evaluate(() => typeof (window as any).__gpp)).toBe("undefined");
    expect(await page.evaluate(() => !!window.frames["__gppLocator" as any])).toBe(false);
    await context.close();
  });
});
