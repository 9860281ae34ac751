// What the TCF browser files share: the TCF project's vendors and settings, IAB's stub and a listener reading consent
// as Prebid.js's TCF module does, `__tcfapi` called in the page, and the TC string decoded in Node with IAB's library.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { TCString } from "@iabtechlabtcf/core";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { hostedLists } from "./tcf-lists-server";
import { adminToken, banner, base, ok, shopProject, type Json } from "./widget-helpers";

/** The project's vendors (test/fixtures/tcf/vendor-list.json): Google (consent 1, 3, 4; LI 2, 7, 9, 10), Index Exchange, Magnite, Amazon. */
export const vendors = [10, 52, 755, 793];
export const settings = {
  enabled: true,
  cmpId: 300,
  cmpVersion: 2,
  vendors,
  publisherRestrictions: [],
  publisherPurposes: { consent: [1], legitimateInterest: [] },
  acProviders: [1, 89],
};

/** IAB's stub (@iabtechlabtcf/stub), inline first in the head as IAB asks. */
export const iabStub = `<script>${readFileSync(createRequire(import.meta.url).resolve("@iabtechlabtcf/stub/lib/stub.js"), "utf8")}</script>`;
/**
 * What Prebid.js's TCF consent module does (modules/consentManagementTcf.ts): `addEventListener` with version 2, and
 * on `tcloaded` or `useractioncomplete` it takes `tcString`, `gdprApplies`, `purpose.consents` and `vendor.consents`.
 * Registered with the stub before the widget loads, it also records every event's status, in order.
 */
export const prebidLike = `<script>window.__tcfEvents = []; window.__tcfConsent = [];
  __tcfapi("addEventListener", 2, function (tcData, success) {
    __tcfEvents.push(tcData.eventStatus);
    if (success && (tcData.eventStatus === "tcloaded" || tcData.eventStatus === "useractioncomplete")) {
      __tcfConsent.push({ tcString: tcData.tcString, addtlConsent: tcData.addtlConsent, gdprApplies: tcData.gdprApplies, purposes: tcData.purpose.consents, vendors: tcData.vendor.consents });
    }
  });
  __tcfapi("ping", 2, function (ping) { window.__stubPing = ping; });</script>`;

/** `__tcfapi(command, 2, callback, parameter)` in the page: what the callback got first. */
export const tcfapi = (page: Page, command: string, parameter?: unknown) =>
  page.evaluate(
    ([command, parameter]) =>
      new Promise<{ data: any; success: boolean }>((resolve) => (window as any).__tcfapi(command, 2, (data: unknown, success: boolean) => resolve({ data, success }), parameter)),
    [command, parameter] as const,
  );

export const recorded = (page: Page) => page.evaluate(() => ({ events: (window as any).__tcfEvents as string[], consent: (window as any).__tcfConsent as Json[] }));
/** Waits until the Prebid-like listener has taken `count` consents. */
export const consentTaken = (page: Page, count: number) => page.waitForFunction((n) => (window as any).__tcfConsent.length >= n, count, { timeout: 60_000 });

/** The TC string's signals, decoded in Node with IAB's library. */
export function decoded(tcString: string) {
  const model = TCString.decode(tcString);
  const ids = (vector: { forEach(callback: (value: boolean, id: number) => void): void }) => {
    const out: number[] = [];
    vector.forEach((value, id) => value && out.push(id));
    return out;
  };
  return {
    cmpId: model.cmpId,
    cmpVersion: model.cmpVersion,
    isServiceSpecific: model.isServiceSpecific,
    purposeConsents: ids(model.purposeConsents),
    vendorConsents: ids(model.vendorConsents),
    vendorsDisclosed: ids(model.vendorsDisclosed),
    publisherConsents: ids(model.publisherConsents),
    vendorLegitimateInterests: ids(model.vendorLegitimateInterests),
  };
}
export const trueKeys = (vector: Record<string, boolean>) => Object.keys(vector).filter((id) => vector[id]).map(Number);

/**
 * A shop project of the host site with TCF on (`tcfSettings`), once the service keeps the lists the global setup's
 * stand-in serves (the vendored snapshot: settings need the GVL and the ATP list), and its vendor list as the page
 * reads it in English.
 */
export async function tcfShop(siteOrigin: string, tcfSettings: Json = settings) {
  const shop = await shopProject(siteOrigin);
  await hostedLists(base, adminToken);
  await ok("PUT", `/admin/v1/projects/${shop.projectId}/tcf`, adminToken, tcfSettings);
  const list: Json = await (await fetch(`${base}/tcf/v3/projects/${shop.projectId}/vendor-list.json`)).json();
  return { shop, list };
}

/** The first layer is showing with its TCF part (`cmpuishown`, nothing else yet); Accept all writes a TC string disclosing the project's vendors. */
export async function acceptAllWithTcf(page: Page) {
  await page.waitForFunction(() => (window as any).__tcfEvents.length > 0, undefined, { timeout: 60_000 });
  expect((await recorded(page)).events).toEqual(["cmpuishown"]);
  await banner(page).getByRole("button", { name: "Accept all" }).click();
  await consentTaken(page, 1);
  expect(decoded((await recorded(page)).consent[0].tcString).vendorsDisclosed).toEqual(vendors);
}
