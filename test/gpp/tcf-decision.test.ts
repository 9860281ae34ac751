// The TCF choice of the dialog's toggles (widget/src/tcf/decision.ts, docs/tcf.md#from-the-widgets-decision), over the
// vendored GVL and generated projects and toggles: the TC string written from them decodes with IAB's library to
// exactly what the toggles say (as far as the Policies let a string say it), a kept string gives the same toggles
// back, and Accept all and Reject all set every toggle.
import type { VendorList } from "@iabtechlabtcf/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { firstLayer } from "../../shared/tcf/first-layer";
import { everything, listedVendors, objectable, tcfChoice, togglesOf, type Toggles } from "../../widget/src/tcf/decision";
import { acConsentsOf, acString, decodedSignals, signalsOf, tcString, type TcfPageSettings } from "../../widget/src/tcf/tc-string";
import snapshot from "../fixtures/tcf/vendor-list.json";

const gvl = snapshot as unknown as VendorList;
const vendorIds = Object.keys(gvl.vendors).map(Number);
const consentOnly = [1, 3, 4, 5, 6];
const ascending = (ids: number[]) => [...new Set(ids)].sort((a, b) => a - b);

/** A project's settings (some of the GVL's vendors) and toggles drawn from what its dialog lists. */
const drawn = fc
  .record({ vendors: fc.subarray(vendorIds, { minLength: 1 }), publisherConsent: fc.subarray([1, 2, 3]), acProviders: fc.subarray([1, 89]) })
  .chain(({ vendors, publisherConsent, acProviders }) => {
    const settings: TcfPageSettings & { acProviders: number[] } = {
      cmpId: 300,
      cmpVersion: 1,
      vendors,
      publisherRestrictions: [],
      publisherPurposes: { consent: publisherConsent, legitimateInterest: [] },
      acProviders,
    };
    const layer = firstLayer(gvl, settings);
    const listed = listedVendors(gvl, vendors);
    const some = (ids: number[]) => fc.subarray(ids).map(ascending);
    return fc
      .record({
        purposes: some(layer.purposes.map((p) => p.id)),
        objections: some(layer.legitimateInterestPurposes),
        specialFeatures: some(layer.specialFeatures.map((f) => f.id)),
        vendors: some(listed.filter((v) => v.purposes.length > 0).map((v) => v.id)),
        vendorObjections: some(listed.filter((v) => objectable(v, [])).map((v) => v.id)),
        acProviders: some(acProviders),
      })
      .map((toggles: Toggles) => ({ settings, layer, toggles }));
  });

const stringOf = (settings: TcfPageSettings & { acProviders: number[] }, toggles: Toggles) =>
  tcString(gvl, signalsOf(gvl, settings, tcfChoice(settings, toggles), "en", "SE"), new Date("2026-11-28T12:00:00Z"), "en");

describe("the TCF choice of the dialog's toggles", () => {
  it("writes a TC string that decodes to exactly the toggles, and a kept string gives the toggles back", () => {
    fc.assert(
      fc.property(drawn, ({ settings, layer, toggles }) => {
        const decoded = decodedSignals(stringOf(settings, toggles), gvl);
        const listed = listedVendors(gvl, settings.vendors);
        expect(decoded.purposeConsents).toEqual(toggles.purposes);
        expect(decoded.specialFeatureOptins).toEqual(toggles.specialFeatures);
        expect(decoded.vendorConsents).toEqual(toggles.vendors);
        expect(decoded.vendorsDisclosed).toEqual(ascending(settings.vendors));
        // Legitimate interest stands wherever a listed vendor claims it and the visitor did not object; never for 1, 3 to 6.
        const claimed = ascending(listed.flatMap((v) => v.legIntPurposes));
        expect(decoded.purposeLegitimateInterests).toEqual(claimed.filter((id) => !toggles.objections.includes(id) && !consentOnly.includes(id)));
        for (const id of toggles.vendorObjections) expect(decoded.vendorLegitimateInterests).not.toContain(id);
        expect(decoded.publisherConsents).toEqual(settings.publisherPurposes.consent.filter((id) => toggles.purposes.includes(id)));
        // Google's AC providers: consented where switched on with purpose 1 (storage), which a kept AC string gives back.
        const ac = acString(tcfChoice(settings, toggles).acConsents, settings.acProviders);
        const acGiven = toggles.purposes.includes(1) ? toggles.acProviders : [];
        expect(acConsentsOf(ac)).toEqual(acGiven);
        expect(togglesOf(decoded, gvl, settings, layer, acConsentsOf(ac))).toEqual({ ...toggles, acProviders: acGiven });
      }),
      { numRuns: 150 },
    );
  });

  it("Accept all turns every consent on and objects to nothing; Reject all the reverse", () => {
    fc.assert(
      fc.property(drawn, ({ settings, layer }) => {
        const listed = listedVendors(gvl, settings.vendors);
        const all = decodedSignals(stringOf(settings, everything(gvl, settings.vendors, layer, true, settings.acProviders)), gvl);
        expect(all.purposeConsents).toEqual(layer.purposes.map((p) => p.id));
        expect(all.specialFeatureOptins).toEqual(layer.specialFeatures.map((f) => f.id));
        expect(all.vendorConsents).toEqual(ascending(listed.filter((v) => v.purposes.length > 0).map((v) => v.id)));
        const none = decodedSignals(stringOf(settings, everything(gvl, settings.vendors, layer, false, settings.acProviders)), gvl);
        expect(none).toMatchObject({ purposeConsents: [], purposeLegitimateInterests: [], specialFeatureOptins: [], vendorConsents: [], vendorLegitimateInterests: [], publisherConsents: [] });
        expect(none.vendorsDisclosed).toEqual(ascending(settings.vendors));
        expect(tcfChoice(settings, everything(gvl, settings.vendors, layer, true, settings.acProviders)).acConsents).toEqual(settings.acProviders);
        expect(tcfChoice(settings, everything(gvl, settings.vendors, layer, false, settings.acProviders)).acConsents).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });
});

describe("the right to object under publisher restrictions", () => {
  it("a vendor a restriction moves onto legitimate interest can be objected to; one moved off it entirely cannot", () => {
    const magnite = gvl.vendors["52"]!; // consent only, purpose 10 flexible
    const moved = [{ purpose: 10, type: "require-legitimate-interest" as const, vendors: [52] }];
    expect(objectable(magnite, [])).toBe(false);
    expect(objectable(magnite, moved)).toBe(true);
    const layer = firstLayer(gvl, { vendors: [52], publisherPurposes: { consent: [], legitimateInterest: [] }, publisherRestrictions: moved } as never);
    const settings = { vendors: [52], publisherRestrictions: moved };
    // A returning visitor who did not object keeps the toggle on; one who objected finds it off.
    const signals = (objected: number[]) =>
      decodedSignals(stringOf({ cmpId: 300, cmpVersion: 1, ...settings, publisherPurposes: { consent: [], legitimateInterest: [] }, acProviders: [] }, { ...everything(gvl, [52], layer, true, []), vendorObjections: objected }), gvl);
    expect(togglesOf(signals([]), gvl, settings, layer, []).vendorObjections).toEqual([]);
    expect(togglesOf(signals([52]), gvl, settings, layer, []).vendorObjections).toEqual([52]);
    const google = gvl.vendors["755"]!; // legitimate interest for 2, 7, 9 and 10, all flexible
    const allToConsent = [2, 7, 9, 10].map((purpose) => ({ purpose, type: "require-consent" as const, vendors: [755] }));
    expect(objectable(google, [])).toBe(true);
    expect(objectable(google, allToConsent)).toBe(false);
  });
});
