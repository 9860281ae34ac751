// IAB TCF's in-page API on a TCF project's pages (docs/tcf.md#in-the-page), in Chromium: IAB's own stub first in the
// head, then the widget, whose TCF chunk takes the stub's queue over with IAB's CmpApi. `ping`, the events and their
// order (CMP API v2: cmpuishown when the dialog shows, useractioncomplete on a decision, tcloaded for a returning
// visitor), removeEventListener, getTCData and the TC string decoded in Node with IAB's library to the choice made,
// `disclosedVendors` the vendors shown, a cross-origin child frame through `__tcfapiLocator`, and the calls Prebid.js's
// TCF consent module makes after Accept all, Reject all and a custom choice. The dialog asked again when the GVL
// extends what a vendor seeks (not for a new version alone), and the classic build leaving TCF out without a lying API.
import { TCString } from "@iabtechlabtcf/core";
import { build } from "vite";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./browser";
import { consentTaken, decoded, iabStub, prebidLike, recorded, tcfapi, tcfShop, trueKeys, vendors } from "./tcf-helpers";
import { banner, base, hostSite, moduleTag, recordPermissionBodies, shopPage, visitor, type Json, type Shop } from "./widget-helpers";

let browser: Browser;
let site: Awaited<ReturnType<typeof hostSite>>;
/** Another origin (another port) for the child frame. */
let other: Awaited<ReturnType<typeof hostSite>>;
let shop: Shop;

/**
 * Prebid.js itself, with its TCF consent module, configured as its docs show (`consentManagement.gdpr`, `cmpApi:
 * "iab"`), waiting for the visitor as long as the test may take; `requestBids` starts its consent lookup.
 */
const prebidPage = `<script>window.pbjs = window.pbjs || { que: [] };
  pbjs.que.push(function () {
    pbjs.setConfig({ consentManagement: { gdpr: { cmpApi: "iab", timeout: 120000, actionTimeout: 120000 } } });
    pbjs.requestBids({ adUnits: [] });
  });</script><script src="/prebid.js"></script>`;

/** Prebid.js bundled from npm with its TCF module (test/e2e/tcf/prebid-entry.js), as a publisher builds it, offline. */
async function prebidBundle(): Promise<string> {
  const output = await build({
    configFile: false,
    logLevel: "warn",
    build: {
      write: false,
      minify: true,
      lib: { entry: new URL("tcf/prebid-entry.js", import.meta.url).pathname, formats: ["iife"], name: "prebidBundle", fileName: () => "prebid.js" },
      rolldownOptions: { output: { codeSplitting: false } },
    },
  });
  return (output as { output: { code: string }[] }[])[0]!.output[0]!.code;
}

/** A child page on another origin asking the top page through `__tcfapiLocator` and postMessage, as IAB's spec shows. */
const childPage = `<!doctype html><script>
  function locator() {
    for (var f = window; f; f = f === top ? null : f.parent) { try { if (f.frames.__tcfapiLocator) return f; } catch (e) {} }
  }
  /** Every answer to the call goes to \`heard\` (addEventListener answers once per event). */
  function call(target, command, heard) {
    var callId = command + Math.random();
    addEventListener("message", function (event) {
      var data = typeof event.data === "string" ? JSON.parse(event.data) : event.data;
      if (data && data.__tcfapiReturn && data.__tcfapiReturn.callId === callId) heard(data.__tcfapiReturn);
    });
    target.postMessage({ __tcfapiCall: { command: command, version: 2, callId: callId } }, "*");
  }
  (function ask() {
    var target = locator();
    if (!target) return setTimeout(ask, 50);
    call(target, "ping", function (ping) { window.__ping = ping; });
    call(target, "addEventListener", function (answer) {
      if (answer.returnValue.eventStatus === "useractioncomplete") window.__tcData = answer;
    });
  })();
</script>`;

beforeAll(async () => {
  let prebid: string;
  [site, other, prebid] = await Promise.all([hostSite(), hostSite(), prebidBundle()]);
  ({ shop } = await tcfShop(site.origin));
  Object.assign(site.pages, {
    "/stub.html": { body: shopPage(shop.projectId, { head: iabStub + prebidLike + prebidPage + moduleTag }) },
    "/prebid.js": { body: prebid, type: "text/javascript" },
    "/plain.html": { body: shopPage(shop.projectId, { extra: `<iframe id="child" src="${other.origin}/child.html"></iframe>` }) },
    "/opt-out.html": { body: shopPage(shop.projectId, { regime: "opt-out" }) },
    "/classic.html": { body: shopPage(shop.projectId, { head: iabStub + prebidLike + `<script src="${base}/widget/assent.classic.js"></script>` }) },
  });
  other.pages["/child.html"] = { body: childPage };
  browser = await launchBrowser();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await Promise.all([site?.close(), other?.close()]);
});

/** What Prebid.js's TCF module resolved: the consent its bid requests carry. */
const prebidConsent = (page: Page) =>
  page.evaluate(async () => {
    const { consentString, gdprApplies, vendorData } = await (window as any).prebidConsent();
    return { consentString, gdprApplies, purposes: vendorData.purpose.consents, vendors: vendorData.vendor.consents, eventStatus: vendorData.eventStatus };
  });

describe("the TCF chunk on a page with IAB's stub", () => {
  it("Accept all: ping, cmpuishown then useractioncomplete, every purpose and vendor granted, the strings recorded and kept; tcloaded on the next visit", async () => {
    const { context, page } = await visitor(browser);
    const posted = recordPermissionBodies(context);
    await page.goto(`${site.origin}/stub.html`);
    await banner(page).getByRole("button", { name: "Accept all" }).waitFor();
    // The stub answered ping before the widget; then IAB's CmpApi answers it.
    expect(await page.evaluate(() => (window as any).__stubPing)).toMatchObject({ cmpLoaded: false, cmpStatus: "stub" });
    await page.waitForFunction(() => (window as any).__tcfEvents.length > 0, undefined, { timeout: 60_000 });
    expect((await tcfapi(page, "ping")).data).toMatchObject({
      gdprApplies: true,
      cmpLoaded: true,
      cmpStatus: "loaded",
      displayStatus: "visible",
      apiVersion: "2",
      cmpId: 300,
      cmpVersion: 2,
      tcfPolicyVersion: 5,
    });
    await banner(page).getByRole("button", { name: "Accept all" }).click();
    await consentTaken(page, 1);
    const { events, consent } = await recorded(page);
    expect(events).toEqual(["cmpuishown", "useractioncomplete"]);
    expect((await tcfapi(page, "ping")).data).toMatchObject({ displayStatus: "hidden" });
    expect(consent[0]).toMatchObject({ gdprApplies: true });
    const signals = decoded(consent[0].tcString);
    expect(signals).toMatchObject({ cmpId: 300, cmpVersion: 2, isServiceSpecific: true, vendorsDisclosed: vendors, publisherConsents: [1] });
    // Every purpose the dialog lists: the ones the vendors and the publisher seek (docs/tcf.md#from-the-widgets-decision).
    expect(signals.purposeConsents).toEqual([1, 2, 3, 4, 7, 9, 10]);
    expect(signals.vendorConsents).toEqual(vendors);
    expect(trueKeys(consent[0].purposes)).toEqual(signals.purposeConsents);
    expect(trueKeys(consent[0].vendors)).toEqual(vendors);
    // The decision carried the strings, which the service checked and recorded (it answered, so the listener heard).
    expect(posted.at(-1)!.meta.context).toMatchObject({ tcString: consent[0].tcString, acString: "2~1.89~dv." });
    // Google's Additional Consent Mode reads it as TCData's addtlConsent, in events and in getTCData.
    expect(consent[0]).toMatchObject({ addtlConsent: "2~1.89~dv." });
    expect((await tcfapi(page, "getTCData")).data).toMatchObject({ addtlConsent: "2~1.89~dv.", tcString: consent[0].tcString });
    expect(await prebidConsent(page)).toEqual({
      consentString: consent[0].tcString,
      gdprApplies: true,
      purposes: consent[0].purposes,
      vendors: consent[0].vendors,
      eventStatus: "useractioncomplete",
    });
    const getTcData = (await tcfapi(page, "getTCData")).data;
    expect(getTcData).toMatchObject({ tcString: consent[0].tcString, eventStatus: "useractioncomplete", cmpStatus: "loaded" });

    // removeEventListener: a listener removed hears nothing more; the first one hears the dialog shown again.
    const added = await page.evaluate(
      () =>
        new Promise<number>((resolve) =>
          (window as any).__tcfapi("addEventListener", 2, (tcData: Json) => {
            (window as any).__second = ((window as any).__second ?? 0) + 1;
            resolve(tcData.listenerId);
          }),
        ),
    );
    expect((await tcfapi(page, "removeEventListener", added)).data).toBe(true);
    await page.evaluate(() => (window as any).assent.show());
    await page.waitForFunction(() => (window as any).__tcfEvents.length === 3);
    expect((await recorded(page)).events.at(-1)).toBe("cmpuishown");
    expect((await tcfapi(page, "ping")).data).toMatchObject({ displayStatus: "visible" });
    expect(await page.evaluate(() => (window as any).__second)).toBe(1);
    await page.keyboard.press("Escape");
    // Closed without a decision: the string as it was, the dialog hidden.
    await page.waitForFunction(() => (window as any).__tcfEvents.length === 4);
    expect((await recorded(page)).events.at(-1)).toBe("useractioncomplete");

    // The next page view: the kept string, tcloaded, no dialog.
    await page.reload();
    await consentTaken(page, 1);
    expect(await recorded(page)).toEqual({ events: ["tcloaded"], consent: [expect.objectContaining({ tcString: consent[0].tcString })] });
    expect(await banner(page).count()).toBe(0);
    await context.close();
  });

  it("Reject all: no purpose, vendor or AC provider granted, and the vendors' legitimate interest objected to", async () => {
    const { context, page } = await visitor(browser);
    const posted = recordPermissionBodies(context);
    await page.goto(`${site.origin}/stub.html`);
    await page.waitForFunction(() => (window as any).__tcfEvents.length > 0, undefined, { timeout: 60_000 });
    await banner(page).getByRole("button", { name: "Reject all" }).click();
    await consentTaken(page, 1);
    const { consent } = await recorded(page);
    const signals = decoded(consent[0].tcString);
    expect(signals).toMatchObject({ purposeConsents: [], vendorConsents: [], vendorLegitimateInterests: [], vendorsDisclosed: vendors, publisherConsents: [] });
    expect(trueKeys(consent[0].purposes)).toEqual([]);
    expect(trueKeys(consent[0].vendors)).toEqual([]);
    expect(posted.at(-1)!.meta.context).toMatchObject({ tcString: consent[0].tcString, acString: "2~~dv.1.89" });
    expect(await prebidConsent(page)).toMatchObject({ consentString: consent[0].tcString, gdprApplies: true, eventStatus: "useractioncomplete" });
    expect(trueKeys((await prebidConsent(page)).vendors)).toEqual([]);
    await context.close();
  });

  it("a custom choice in the TCF layers: purposes 1 and 7 and Index Exchange granted, nothing else", async () => {
    const { context, page } = await visitor(browser);
    await page.goto(`${site.origin}/stub.html`);
    await page.waitForFunction(() => (window as any).__tcfEvents.length > 0, undefined, { timeout: 60_000 });
    await banner(page).getByRole("button", { name: "Customize" }).click();
    await page.getByRole("switch", { name: "Consent: Store and/or access information on a device", exact: true }).check();
    await page.getByRole("switch", { name: "Consent: Measure advertising performance", exact: true }).check();
    await page.locator("assent-consent #tcf-vendors > summary").click();
    await page.getByRole("switch", { name: "Consent: Index Exchange Inc.", exact: true }).check();
    await page.getByRole("button", { name: "Save choices" }).click();
    await consentTaken(page, 1);
    const { consent } = await recorded(page);
    const signals = decoded(consent[0].tcString);
    // The TCF toggles say it (docs/tcf.md#from-the-widgets-decision); the project's own purposes stay off.
    expect(signals.purposeConsents).toEqual([1, 7]);
    expect(signals.vendorConsents).toEqual([10]);
    expect(trueKeys(consent[0].purposes)).toEqual([1, 7]);
    expect(trueKeys(consent[0].vendors)).toEqual([10]);
    const prebid = await prebidConsent(page);
    expect([prebid.consentString, trueKeys(prebid.purposes), trueKeys(prebid.vendors)]).toEqual([consent[0].tcString, [1, 7], [10]]);
    await context.close();
  });
});

describe("when the dialog shows again", () => {
  /** The next page view asks (cmpuishown), and the visitor accepts all. */
  const askedAgainAndAccepted = async (page: Page) => {
    await page.reload();
    await banner(page).getByRole("button", { name: "Accept all" }).waitFor();
    await page.waitForFunction(() => (window as any).__tcfEvents.length > 0, undefined, { timeout: 60_000 });
    expect((await recorded(page)).events).toEqual(["cmpuishown"]);
    await banner(page).getByRole("button", { name: "Accept all" }).click();
    await consentTaken(page, 1);
  };
  /** The next page view keeps the string: tcloaded, no dialog. */
  const quietOnReload = async (page: Page) => {
    await page.reload();
    await consentTaken(page, 1);
    expect((await recorded(page)).events).toEqual(["tcloaded"]);
  };

  it("not for a new GVL version alone; when the GVL extends what a project vendor seeks, once, with a string of the new list", async () => {
    const { context, page } = await visitor(browser);
    await page.goto(`${site.origin}/stub.html`);
    await page.waitForFunction(() => (window as any).__tcfEvents.length > 0, undefined, { timeout: 60_000 });
    await banner(page).getByRole("button", { name: "Accept all" }).click();
    await consentTaken(page, 1);
    // Later GVLs, as the service serves the project's list after the cron kept them: made here from the list it
    // serves now, in this browser only (the e2e service's GVL is every browser file's).
    let later = (list: Json) => {
      list.vendorListVersion += 1;
      list.purposes["2"].name += " (reworded)";
    };
    await context.route(`**/tcf/v3/projects/${shop.projectId}/vendor-list.json*`, async (route) => {
      const response = await route.fetch();
      const list = await response.json();
      later(list);
      await route.fulfill({ response, json: list });
    });
    await quietOnReload(page);
    expect(await banner(page).count()).toBe(0);

    // Google Advertising Products (755) now also seeks consent for purpose 2, which it held on legitimate interest.
    later = (list: Json) => {
      list.vendorListVersion += 2;
      list.vendors["755"].purposes.push(2);
    };
    await askedAgainAndAccepted(page);
    const renewed = TCString.decode((await recorded(page)).consent[0].tcString);
    expect(renewed.vendorListVersion).toBe(122);
    // Asked once: the next page view keeps the new string.
    await quietOnReload(page);
    expect(await banner(page).count()).toBe(0);

    // The project adds a Google Ad Tech Provider (2677): the kept AC string names it nowhere, so the visitor is asked.
    later = (list: Json) => {
      list.vendorListVersion += 2;
      list.vendors["755"].purposes.push(2);
      list.settings.acProviders.push(2677);
      list.acProviders["2677"] = { id: 2677, name: "An added provider", policyUrl: "https://provider.example/privacy" };
    };
    await askedAgainAndAccepted(page);
    expect((await tcfapi(page, "getTCData")).data).toMatchObject({ addtlConsent: "2~1.89.2677~dv." });
    await quietOnReload(page);
    await context.close();
  });
});

describe("the classic build (assent.classic.js) on a TCF project", () => {
  it("is not in the classic build: the console says so, IAB's stub keeps saying no CMP loaded, and the decision carries no TC string", async () => {
    const { context, page } = await visitor(browser);
    const posted = recordPermissionBodies(context);
    const fetched: string[] = [];
    const warnings: string[] = [];
    page.on("request", (request) => fetched.push(request.url()));
    page.on("console", (message) => message.type() === "warning" && warnings.push(message.text()));
    await page.goto(`${site.origin}/classic.html`);
    await banner(page).getByRole("button", { name: "Accept all" }).waitFor();
    await expect.poll(() => warnings.some((text) => text.includes("IAB TCF, which needs the module build"))).toBe(true);
    const recordedDecision = page.waitForResponse((response) => /\/permissions$/.test(response.url()) && response.request().method() === "POST");
    await banner(page).getByRole("button", { name: "Accept all" }).click();
    expect((await recordedDecision).ok()).toBe(true);
    // No CmpApi took the stub over: it answers, truthfully, that no CMP has loaded, and has told its listeners nothing.
    expect((await tcfapi(page, "ping")).data).toMatchObject({ cmpLoaded: false, cmpStatus: "stub" });
    expect(await recorded(page)).toEqual({ events: [], consent: [] });
    expect(posted.at(-1)!.meta.context.tcString).toBeUndefined();
    expect(fetched.filter((url) => /\/widget\/tcf\.|vendor-list\.json/.test(url))).toEqual([]);
    await context.close();
  });
});

describe("the TCF chunk on a page without the stub", () => {
  it("adds the __tcfapiLocator frame and answers a cross-origin child's postMessage calls", async () => {
    const { context, page } = await visitor(browser);
    await page.goto(`${site.origin}/plain.html`);
    await page.waitForFunction(() => (window as any).__tcfapi, undefined, { timeout: 60_000 });
    await banner(page).getByRole("button", { name: "Accept all" }).click();
    const frame = page.frames().find((f) => f.url().startsWith(other.origin))!;
    await frame.waitForFunction(() => (window as any).__tcData, undefined, { timeout: 60_000 });
    const { ping, tcData } = await frame.evaluate(() => ({ ping: (window as any).__ping, tcData: (window as any).__tcData }));
    expect(ping).toMatchObject({ success: true, returnValue: { cmpStatus: "loaded", cmpId: 300, gdprApplies: true } });
    expect(tcData.success).toBe(true);
    expect(decoded(tcData.returnValue.tcString).vendorsDisclosed).toEqual(vendors);
    expect(await page.evaluate(() => document.querySelectorAll("iframe[name=__tcfapiLocator]").length)).toBe(1);
    await context.close();
  });

  it("is not loaded under the opt-out regime: no __tcfapi, no TCF chunk fetched", async () => {
    const { context, page } = await visitor(browser);
    const fetched: string[] = [];
    page.on("request", (request) => fetched.push(request.url()));
    await page.goto(`${site.origin}/opt-out.html`);
    await banner(page).waitFor();
    await page.evaluate(() => (window as any).assent.ready);
    expect(await page.evaluate(() => typeof (window as any).__tcfapi)).toBe("undefined");
    expect(fetched.filter((url) => /\/widget\/tcf\.|vendor-list\.json/.test(url))).toEqual([]);
    await context.close();
  });
});
