// The widget's decision as a TCF choice (widget/src/tcf/decision.ts, docs/tcf.md#from-the-widgets-decision), over the
// vendored GVL and generated projects: whatever the project's purposes carry, Accept all grants every GVL purpose and
// every vendor that asks consent, Reject all grants nothing and objects to every vendor, and a custom choice grants
// exactly the TCF purposes whose Consent Mode type a switched-on purpose carries.
import type { VendorList } from "@iabtechlabtcf/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ConsentType, Purpose } from "../../shared/browser/types";
import { tcfChoice } from "../../widget/src/tcf/decision";
import snapshot from "../fixtures/tcf/vendor-list.json";

const gvl = snapshot as unknown as VendorList;
const types: ConsentType[] = ["ad_storage", "ad_user_data", "ad_personalization", "analytics_storage", "personalization_storage", "functionality_storage"];
const settings = { publisherPurposes: { consent: [1, 3], legitimateInterest: [7] }, acProviders: [1, 89] };
const vendorIds = Object.keys(gvl.vendors).map(Number);
const consentVendors = Object.values(gvl.vendors).filter((v) => v.purposes.length > 0).map((v) => v.id);

/** A project's consent purposes, each carrying some Consent Mode types, and which the visitor switched on. */
const project = fc.array(fc.record({ types: fc.subarray(types), on: fc.boolean() }), { minLength: 1, maxLength: 5 }).map((drawn) =>
  drawn.map(({ types, on }, i) => ({ purpose: { purposeId: `pur_${i}`, legalGround: "consent", consentMode: types } as unknown as Purpose, on })),
);

describe("the TCF choice of the widget's decision", () => {
  it("Accept all grants every purpose, special feature, consent vendor and AC provider; Reject all none, objecting to all", () => {
    fc.assert(
      fc.property(project, (drawn) => {
        const purposes = drawn.map((d) => d.purpose);
        const all = tcfChoice(gvl, settings, purposes, () => true);
        expect(all).toMatchObject({ purposeConsents: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], purposeObjections: [], specialFeatureOptins: [1, 2], vendorObjections: [], acConsents: [1, 89] });
        expect(all.vendorConsents.sort((a, b) => a - b)).toEqual(consentVendors.sort((a, b) => a - b));
        const none = tcfChoice(gvl, settings, purposes, () => false);
        expect(none).toMatchObject({ purposeConsents: [], specialFeatureOptins: [], vendorConsents: [], publisherConsents: [], publisherObjections: [7], acConsents: [] });
        expect(none.vendorObjections.sort((a, b) => a - b)).toEqual(vendorIds.sort((a, b) => a - b));
      }),
      { numRuns: 100 },
    );
  });

  it("a custom choice grants the purposes whose type a switched-on purpose carries, and objects to the others", () => {
    const typeOf: Record<number, ConsentType> = { 1: "ad_storage", 2: "ad_user_data", 3: "ad_personalization", 4: "ad_personalization", 5: "personalization_storage", 6: "personalization_storage", 7: "ad_user_data", 8: "analytics_storage", 9: "analytics_storage", 10: "analytics_storage", 11: "personalization_storage" };
    fc.assert(
      fc.property(project, (drawn) => {
        const choice = tcfChoice(gvl, settings, drawn.map((d) => d.purpose), (p) => drawn.find((d) => d.purpose === p)!.on);
        const everything = drawn.every((d) => d.on);
        const granted = (type: ConsentType) => {
          const carrying = drawn.filter((d) => d.purpose.consentMode!.includes(type));
          return carrying.length ? carrying.some((d) => d.on) : everything;
        };
        const expected = Object.keys(typeOf).map(Number).filter((id) => granted(typeOf[id]!));
        expect(choice.purposeConsents).toEqual(expected);
        expect(choice.purposeObjections).toEqual(Object.keys(typeOf).map(Number).filter((id) => !expected.includes(id)));
      }),
      { numRuns: 150 },
    );
  });
});
