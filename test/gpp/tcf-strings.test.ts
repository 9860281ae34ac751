// The widget's TCF strings (widget/src/tcf/tc-string.ts) against IAB's library, @iabtechlabtcf/core, as the oracle:
// over generated GVLs, settings and choices, every TC string decodes to the signals written, disclosedVendors is
// exactly the vendors shown, and the AC string names the chosen providers.
import { TCString, type VendorList } from "@iabtechlabtcf/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { acConsentsOf, acString, consentModeOf, decodedSignals, signalsOf, tcString, type TcfDecision, type TcfPageSettings } from "../../widget/src/tcf/tc-string";
import snapshot from "../fixtures/tcf/vendor-list.json";

const subset = (ids: number[]) => fc.subarray(ids);
const liPurposes = [2, 7, 8, 9, 10, 11];
const allPurposes = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];

/** A vendor of a GVL v3: consent purposes, legitimate-interest purposes (never 1, 3 to 6), flexible ones among both. */
const vendorArbitrary = (id: number) =>
  fc
    .record({
      purposes: subset(allPurposes),
      legIntPurposes: subset(liPurposes),
      specialPurposes: subset([1, 2, 3]),
      features: subset([1, 2, 3]),
      specialFeatures: subset([1, 2]),
      flexibleShare: fc.double({ min: 0, max: 1, noNaN: true }),
      // About one vendor in twenty deleted from the list.
      deleted: fc.integer({ min: 0, max: 19 }).map((n) => n === 0),
    })
    .map(({ purposes, legIntPurposes, flexibleShare, deleted, ...rest }) => {
      const li = legIntPurposes.filter((p) => !purposes.includes(p));
      const declared = [...purposes, ...li];
      return {
        ...structuredClone(snapshot.vendors["755"]),
        ...rest,
        id,
        name: `Vendor ${id}`,
        purposes,
        legIntPurposes: li,
        flexiblePurposes: declared.filter((_, i) => i < Math.round(declared.length * flexibleShare)),
        ...(deleted ? { deletedDate: "2026-01-01T00:00:00Z" } : {}),
      };
    });

/** A generated GVL (the snapshot's declarations, generated vendors), the settings of a project on it and a visitor's choice. */
const scenario = fc
  .uniqueArray(fc.integer({ min: 1, max: 1200 }), { minLength: 1, maxLength: 25 })
  .chain((ids) => fc.tuple(fc.constant(ids), fc.tuple(...ids.map(vendorArbitrary)), fc.integer({ min: 1, max: 4000 })))
  .chain(([ids, vendors, version]) => {
    const gvl = { ...structuredClone(snapshot), vendorListVersion: version, vendors: Object.fromEntries(vendors.map((v) => [String(v.id), v])) } as unknown as VendorList;
    const settings = fc.record({
      cmpId: fc.integer({ min: 2, max: 4095 }),
      cmpVersion: fc.integer({ min: 1, max: 4095 }),
      vendors: subset(ids),
      publisherRestrictions: fc.array(
        fc.record({ purpose: fc.constantFrom(...allPurposes), type: fc.constantFrom("not-allowed", "require-consent", "require-legitimate-interest" as const), vendors: subset(ids) }),
        { maxLength: 4 },
      ),
      publisherPurposes: fc.record({ consent: subset(allPurposes), legitimateInterest: subset(liPurposes) }),
    }) as fc.Arbitrary<TcfPageSettings>;
    const decision = fc.record({
      purposeConsents: subset(allPurposes),
      purposeObjections: subset(allPurposes),
      specialFeatureOptins: subset([1, 2]),
      vendorConsents: subset(ids),
      vendorObjections: subset(ids),
      publisherConsents: subset(allPurposes),
      publisherObjections: subset(allPurposes),
    }) as fc.Arbitrary<TcfDecision>;
    return fc.record({
      gvl: fc.constant(gvl),
      settings,
      decision,
      language: fc.constantFrom("en", "fr", "de", "sv", "pt-br", "sr-cyrl"),
      country: fc.constantFrom("SE", "DE", "FR", "GB", "AA"),
      at: fc.date({ min: new Date("2026-02-28T00:00:00Z"), max: new Date("2030-01-01T00:00:00Z"), noInvalidDate: true }),
    });
  });

describe("the TC string against @iabtechlabtcf/core", () => {
  it("decodes to the signals written, with disclosedVendors the vendors shown", () => {
    fc.assert(
      fc.property(scenario, ({ gvl, settings, decision, language, country, at }) => {
        const signals = signalsOf(gvl, settings, decision, language, country);
        const string = tcString(gvl, signals, at, language);
        expect(decodedSignals(string, gvl)).toEqual(signals);
        const shown = settings.vendors.filter((id) => !gvl.vendors[String(id)]!.deletedDate).sort((a, b) => a - b);
        expect(signals.vendorsDisclosed).toEqual(shown);
        const model = TCString.decode(string);
        expect(model.isServiceSpecific).toBe(true);
        // The string says when it was made, to the decisecond (the TC string's unit).
        expect(Math.abs(model.created!.getTime() - at.getTime())).toBeLessThanOrEqual(50);
        // The segments: core, disclosedVendors, and the publisher's only where it has purposes.
        const hasPublisher = signals.publisherConsents.length + signals.publisherLegitimateInterests.length > 0;
        expect(string.split(".").length).toBe(hasPublisher ? 3 : 2);
      }),
      { numRuns: 150 },
    );
  });

  it("never signals what the Policies forbid: no legitimate interest for purposes 1 and 3 to 6, consent only from shown vendors", () => {
    const gvl = snapshot as unknown as VendorList;
    const everything: TcfDecision = {
      purposeConsents: allPurposes,
      purposeObjections: [],
      specialFeatureOptins: [1, 2],
      vendorConsents: [10, 32, 52, 76, 755, 793],
      vendorObjections: [],
      publisherConsents: allPurposes,
      publisherObjections: [],
    };
    const settings: TcfPageSettings = { cmpId: 300, cmpVersion: 1, vendors: [755, 10], publisherRestrictions: [], publisherPurposes: { consent: [1], legitimateInterest: [3, 7] } };
    const signals = signalsOf(gvl, settings, everything, "fr", "se");
    expect(signals.vendorConsents).toEqual([10, 755]);
    expect(signals.purposeLegitimateInterests).toEqual([2, 7, 9, 10]);
    expect(signals.publisherLegitimateInterests).toEqual([7]);
    expect(decodedSignals(tcString(gvl, signals, new Date("2026-11-28T12:00:00Z"), "fr"), gvl)).toEqual(signals);
  });
});

describe("the AC string (v2) and Consent Mode", () => {
  it("names the consented providers, then the disclosed ones not consented to (Google's AC v2), both ascending", () => {
    expect(acString([89, 1], [2677, 89, 1])).toBe("2~1.89~dv.2677");
    expect(acString([], [89])).toBe("2~~dv.89");
    expect(acString([89], [89])).toBe("2~89~dv.");
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 5000 }), { maxLength: 30 }), fc.uniqueArray(fc.integer({ min: 1, max: 5000 }), { maxLength: 30 }), (consented, disclosed) => {
        const [version, given, dv] = acString(consented, disclosed).split("~");
        expect(version).toBe("2");
        const ids = (text: string) => (text === "" ? [] : text.split(".").map(Number));
        expect(ids(given!)).toEqual(consented.filter((id) => disclosed.includes(id)).sort((a, b) => a - b));
        expect(ids(dv!.replace(/^dv\.?/, ""))).toEqual(disclosed.filter((id) => !consented.includes(id)).sort((a, b) => a - b));
        expect([...ids(given!), ...ids(dv!.replace(/^dv\.?/, ""))].sort((a, b) => a - b)).toEqual([...disclosed].sort((a, b) => a - b));
        expect(acConsentsOf(acString(consented, disclosed))).toEqual(ids(given!));
      }),
      { numRuns: 200 },
    );
  });

  it("derives Consent Mode's types from the purposes as Google documents", () => {
    expect(consentModeOf([1, 3, 4, 7])).toEqual({ ad_storage: "granted", analytics_storage: "granted", ad_user_data: "granted", ad_personalization: "granted" });
    expect(consentModeOf([1])).toEqual({ ad_storage: "granted", analytics_storage: "granted", ad_user_data: "denied", ad_personalization: "denied" });
    expect(consentModeOf([3, 4, 7])).toEqual({ ad_storage: "denied", analytics_storage: "denied", ad_user_data: "denied", ad_personalization: "granted" });
  });
});
