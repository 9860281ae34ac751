// The GPP fields from the visitor's decision (docs/gpp.md, "What each field says"), read back through IAB's library.
import { GppModel } from "@iabgpp/cmpapi";
import { describe, expect, it } from "vitest";
import { gppString } from "../../widget/src/gpp/encoding";
import { gppValues, sectionValues } from "../../widget/src/gpp/fields";
import type { Purpose } from "../../shared/browser/types";

/** A recipient as the configuration lists it (only their number matters here). */
const party = (partyId: string) => ({ partyId, referenceId: partyId }) as Purpose["recipients"][number];
const purpose = (referenceId: string, fields: Partial<Purpose>): Purpose =>
  ({ purposeId: `pur_${referenceId}`, referenceId, version: "1", legalGround: "consent", recipients: [], consentMode: [], sensitive: false, ...fields }) as Purpose;

/** The shop: marketing sells to a partner and stands for Google's ad types, analytics is sensitive, fraud is not consent. */
const marketing = purpose("marketing", { recipients: [party("pty_partner")], consentMode: ["ad_storage", "ad_user_data", "ad_personalization"] });
const analytics = purpose("analytics", { consentMode: ["analytics_storage"], sensitive: true });
const fraud = purpose("fraud", { legalGround: "legitimate_interests", recipients: [party("pty_bureau")] });
const shop = [marketing, analytics, fraud];

/** The links California's law prescribes under opt-out, which the widget then shows (worker/jurisdictions/rules.ts). */
const california = ["doNotSell", "limitSensitive"] as const;

/** Every section as IAB's library reads the string for this decision, on a page that showed `prescribed`. */
function decoded(
  purposes: Purpose[],
  refused: Purpose[],
  gpc = false,
  prescribed: readonly ("doNotSell" | "limitSensitive")[] = california,
  mspa?: Parameters<typeof gppValues>[0]["mspa"],
) {
  const decision = { purposes, allowed: (p: Purpose) => !refused.includes(p), gpc, prescribed: [...prescribed], mspa };
  const names = ["usnat", "usca", "usva", "usco", "usut", "usct"] as const;
  const model = new GppModel(gppString(Object.fromEntries(names.map((name) => [name, sectionValues(name, decision)]))));
  return model.toObject() as Record<string, Record<string, unknown>>;
}

describe("GPP fields from the decision", () => {
  it("nothing refused: notices given, not opted out; not an MSPA covered transaction", () => {
    const { usnat, usca, usut } = decoded(shop, []);
    expect(usnat).toMatchObject({
      SharingNotice: 1,
      SaleOptOutNotice: 1,
      SharingOptOutNotice: 1,
      TargetedAdvertisingOptOutNotice: 1,
      SensitiveDataProcessingOptOutNotice: 1,
      SensitiveDataLimitUseNotice: 1,
      SaleOptOut: 2,
      SharingOptOut: 2,
      TargetedAdvertisingOptOut: 2,
      MspaCoveredTransaction: 2,
      MspaOptOutOptionMode: 0,
      MspaServiceProviderMode: 0,
      Gpc: false,
    });
    expect(usca).toMatchObject({ SaleOptOut: 2, SharingOptOut: 2, SensitiveDataLimitUseNotice: 1 });
    expect(usut).toMatchObject({ SensitiveDataProcessingOptOutNotice: 1, TargetedAdvertisingOptOut: 2 });
  });

  it("refusing the purpose that sells and advertises opts out of sale, sharing and targeted advertising in every section", () => {
    const sections = decoded(shop, [marketing]);
    for (const [name, section] of Object.entries(sections)) {
      for (const field of ["SaleOptOut", "SharingOptOut", "TargetedAdvertisingOptOut"]) {
        if (field in section) expect({ name, field, value: section[field] }).toEqual({ name, field, value: 1 });
      }
    }
  });

  it("refusing only analytics opts out of nothing sold or advertised", () => {
    expect(decoded(shop, [analytics]).usnat).toMatchObject({ SaleOptOut: 2, SharingOptOut: 2, TargetedAdvertisingOptOut: 2 });
  });

  it("GPC opts out of all three and is in the GPC subsection of usnat, usca, usco and usct", () => {
    const sections = decoded(shop, [], true);
    expect(sections.usnat).toMatchObject({ SaleOptOut: 1, SharingOptOut: 1, TargetedAdvertisingOptOut: 1, Gpc: true });
    expect(sections.usva).toMatchObject({ SaleOptOut: 1, TargetedAdvertisingOptOut: 1 });
    expect(Object.entries(sections).filter(([, s]) => s.Gpc === true).map(([name]) => name)).toEqual(["usnat", "usca", "usco", "usct"]);
  });

  it("what no consent purpose stands for is not applicable (0), whatever the visitor refused or GPC says", () => {
    const { usnat } = decoded([analytics, fraud], [analytics], true);
    expect(usnat).toMatchObject({
      SharingNotice: 1,
      SaleOptOutNotice: 0,
      SaleOptOut: 0,
      SharingOptOutNotice: 0,
      SharingOptOut: 0,
      TargetedAdvertisingOptOut: 0,
      SensitiveDataLimitUseNotice: 1,
    });
    expect(decoded([], []).usnat).toMatchObject({ SharingNotice: 0, SaleOptOut: 0, SensitiveDataLimitUseNotice: 0 });
  });

  it("says a Limit the Use notice was given only where the page showed one (California's words), not in Virginia", () => {
    expect(decoded(shop, []).usnat).toMatchObject({ SensitiveDataLimitUseNotice: 1 });
    expect(decoded(shop, []).usca).toMatchObject({ SensitiveDataLimitUseNotice: 1 });
    // A Virginia visitor's page shows the sensitive purpose's switch, not "Limit the Use of My Sensitive Personal Information".
    const virginia = decoded(shop, [], false, []);
    expect(virginia.usnat).toMatchObject({ SensitiveDataLimitUseNotice: 0, SensitiveDataProcessingOptOutNotice: 1 });
    expect(virginia.usut).toMatchObject({ SensitiveDataProcessingOptOutNotice: 1 });
  });

  it("declares the project's MSPA settings in every section: covered, in the mode it set, or not covered with no mode", () => {
    const modes = (mspa: Parameters<typeof gppValues>[0]["mspa"]) =>
      Object.entries(decoded(shop, [], false, california, mspa)).map(([name, section]) => [
        name,
        section.MspaCoveredTransaction,
        section.MspaOptOutOptionMode,
        section.MspaServiceProviderMode,
      ]);
    const names = ["usnat", "usca", "usva", "usco", "usut", "usct"];
    expect(modes({ mspaCoveredTransaction: true, mspaMode: "service-provider" })).toEqual(names.map((name) => [name, 1, 2, 1]));
    expect(modes({ mspaCoveredTransaction: true, mspaMode: "opt-out-option" })).toEqual(names.map((name) => [name, 1, 1, 2]));
    expect(modes({ mspaCoveredTransaction: false, mspaMode: null })).toEqual(names.map((name) => [name, 2, 0, 0]));
    expect(modes(undefined)).toEqual(names.map((name) => [name, 2, 0, 0]));
  });

  it("California: limiting a sensitive purpose writes the categories it processes into usca (2 opted out, 1 did not)", () => {
    const location = purpose("location", { sensitive: true, sensitiveCategories: ["precise-geolocation", "health"] });
    const beliefs = purpose("beliefs", { sensitive: true, sensitiveCategories: ["religious-or-philosophical-beliefs"] });
    const limited = decoded([location, beliefs], [location]);
    // usca's nine: (3) precise geolocation, (4) racial or ethnic origin, beliefs or union membership, (8) health.
    expect(limited.usca.SensitiveDataProcessing).toEqual([0, 0, 2, 1, 0, 0, 0, 2, 0]);
    // Nothing limited: every category processed says "did not opt out".
    expect(decoded([location, beliefs], []).usca.SensitiveDataProcessing).toEqual([0, 0, 1, 1, 0, 0, 0, 1, 0]);
    // Where the page did not give the Limit the Use notice, usca's categories are not applicable (0).
    expect(decoded([location, beliefs], [location], false, []).usca.SensitiveDataProcessing).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0]);
  });

  it("Virginia, Colorado, Connecticut: per category, 2 (consent) where the visitor agreed to every sensitive purpose processing it, else 1 (no consent)", () => {
    // Asked opt-in, as the bootstrap serves a sensitive purpose where the state's law asks consent for it.
    const location = purpose("location", { sensitive: true, regime: "opt-in", sensitiveCategories: ["precise-geolocation", "health"] });
    const beliefs = purpose("beliefs", { sensitive: true, regime: "opt-in", sensitiveCategories: ["religious-or-philosophical-beliefs", "health", "government-id"] });
    const processing = (refused: Purpose[], purposes = [location, beliefs]) => {
      const sections = decoded(purposes, refused, false, []);
      return [sections.usva.SensitiveDataProcessing, sections.usco.SensitiveDataProcessing, sections.usct.SensitiveDataProcessing];
    };
    // Positions: (1) racial or ethnic origin, (2) religious beliefs, (3) health, (4) sex life or sexual orientation,
    // (5) citizenship or immigration status, (6) genetic, (7) biometric, (8) precise geolocation (not in Colorado's
    // seven); a government id is in none of the three.
    // Before any decision nothing asked opt-in is allowed: no consent for any category processed.
    expect(processing([location, beliefs])).toEqual([
      [0, 1, 1, 0, 0, 0, 0, 1],
      [0, 1, 1, 0, 0, 0, 0],
      [0, 1, 1, 0, 0, 0, 0, 1],
    ]);
    // Agreed to the store finder only: its geolocation has consent; health, which beliefs also processes, does not.
    expect(processing([beliefs])).toEqual([
      [0, 1, 1, 0, 0, 0, 0, 2],
      [0, 1, 1, 0, 0, 0, 0],
      [0, 1, 1, 0, 0, 0, 0, 2],
    ]);
    expect(processing([])).toEqual([
      [0, 2, 2, 0, 0, 0, 0, 2],
      [0, 2, 2, 0, 0, 0, 0],
      [0, 2, 2, 0, 0, 0, 0, 2],
    ]);
    // A sensitive purpose that was not asked opt-in was never agreed to, only not refused: no consent.
    const unasked = purpose("unasked", { sensitive: true, sensitiveCategories: ["health"] });
    expect(processing([], [unasked])[0]).toEqual([0, 0, 1, 0, 0, 0, 0, 0]);
    // California's section keeps its own meaning (the Limit the Use opt-out), unaffected.
    expect(decoded([location], [], false, california).usca.SensitiveDataProcessing).toEqual([0, 0, 1, 0, 0, 0, 0, 1, 0]);
  });
});
