// When the TCF dialog asks a returning visitor again (widget/src/tcf/resurface.ts, docs/tcf.md#when-the-dialog-shows-again),
// over the vendored GVL and GVLs generated from it: a new GVL version that only renames or narrows asks nothing; a new
// purpose or special feature, a project vendor declaring a purpose, a legitimate interest or a special feature more, the
// publisher seeking a purpose more, other vendors disclosed, another TCF policy version, or a string that does not
// decode asks again. The kept string is a real one, written by the widget's encoder (tc-string.ts).
import type { VendorList } from "@iabtechlabtcf/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { askedOf, asksMore, mustAskAgain, type Kept } from "../../widget/src/tcf/resurface";
import { signalsOf, tcString } from "../../widget/src/tcf/tc-string";
import snapshot from "../fixtures/tcf/vendor-list.json";

const gvl = snapshot as unknown as VendorList;
const vendors = [10, 52, 755, 793];
const publisher = { consent: [1], legitimateInterest: [] as number[] };
const settings = { cmpId: 300, cmpVersion: 2, vendors, publisherRestrictions: [], publisherPurposes: publisher };
const decision = { purposeConsents: [1, 2], purposeObjections: [], specialFeatureOptins: [], vendorConsents: [755], vendorObjections: [], publisherConsents: [1], publisherObjections: [] };

/** What the device keeps after a decision made with `list`. */
function keptWith(list: VendorList): Kept {
  const signals = signalsOf(list, settings, decision, "en", "DE");
  return { tcString: tcString(list, signals, new Date("2026-11-20T10:00:00Z"), "en"), acString: "2~~dv.", vendors: signals.vendorsDisclosed, asked: askedOf(list, signals.vendorsDisclosed, publisher) };
}

/** The GVL of a later week, changed by `change`. */
function later(change: (gvl: any) => void = () => {}): VendorList {
  const next = structuredClone(snapshot) as any;
  next.vendorListVersion += 1;
  change(next);
  return next as VendorList;
}

const askedAgain = (kept: Kept, list: VendorList, publisherNow = publisher, shown = vendors, providers: number[] = []) =>
  mustAskAgain(kept, list, askedOf(list, shown, publisherNow), shown, providers);

describe("asking a returning visitor again", () => {
  const kept = keptWith(gvl);

  it("not for the GVL they chose under, nor a later version that renames, adds vendors the project does not use, or narrows", () => {
    expect(askedAgain(kept, gvl)).toBe(false);
    expect(askedAgain(kept, later())).toBe(false);
    expect(askedAgain(kept, later((g) => (g.purposes["2"].name = "Use limited data to select advertising (reworded)")))).toBe(false);
    expect(askedAgain(kept, later((g) => (g.vendors["9999"] = { ...g.vendors["10"], id: 9999, purposes: [1, 2, 3, 4, 5, 6] })))).toBe(false);
    expect(askedAgain(kept, later((g) => (g.vendors["755"].purposes = [1])))).toBe(false);
    expect(askedAgain(kept, later((g) => (g.vendors["755"].legIntPurposes = [])))).toBe(false);
    expect(askedAgain(kept, later((g) => (g.vendors["10"].features = [1, 2, 3])))).toBe(false);
    expect(askedAgain(kept, later((g) => (g.vendors["10"].specialPurposes = [1, 2, 3])))).toBe(false);
  });

  it("when the GVL extends what is asked: a purpose or special feature more, a project vendor seeking more, the publisher seeking more", () => {
    const extended: [string, VendorList, typeof publisher?][] = [
      ["a purpose more", later((g) => (g.purposes["12"] = { id: 12, name: "A new purpose", description: "…", illustrations: [] }))],
      ["a special feature more", later((g) => (g.specialFeatures["3"] = { id: 3, name: "A new special feature", description: "…", illustrations: [] }))],
      ["a vendor's consent purpose more", later((g) => g.vendors["755"].purposes.push(2))],
      ["a vendor's legitimate interest more", later((g) => g.vendors["793"].legIntPurposes.push(8))],
      ["a vendor's special feature more", later((g) => g.vendors["10"].specialFeatures.push(1))],
      ["the publisher's purpose more", gvl, { consent: [1, 3], legitimateInterest: [] }],
    ];
    for (const [what, list, publisherNow] of extended) expect(askedAgain(kept, list, publisherNow), what).toBe(true);
  });

  it("when the vendors disclosed differ, the TCF policy version changed, or the kept string does not decode", () => {
    expect(askedAgain(kept, gvl, publisher, [10, 52, 755])).toBe(true);
    expect(askedAgain(kept, gvl, publisher, [...vendors, 32])).toBe(true);
    expect(askedAgain(kept, later((g) => (g.tcfPolicyVersion += 1)))).toBe(true);
    expect(askedAgain({ ...kept, tcString: "not a TC string" }, gvl)).toBe(true);
    expect(mustAskAgain(undefined, gvl, askedOf(gvl, vendors, publisher), vendors, [])).toBe(true);
  });

  it("when the project's Google Ad Tech Providers differ from those the kept AC string lists, consented or only disclosed", () => {
    const withProviders = { ...kept, acString: "2~89~dv.2677" };
    expect(askedAgain(withProviders, gvl, publisher, vendors, [89, 2677])).toBe(false);
    expect(askedAgain({ ...kept, acString: "2~~dv.89.2677" }, gvl, publisher, vendors, [89, 2677])).toBe(false);
    // Before the dialog listed them, a consented provider was also in part 5: still the same providers.
    expect(askedAgain({ ...kept, acString: "2~89.2677~dv.89.2677" }, gvl, publisher, vendors, [89, 2677])).toBe(false);
    expect(askedAgain(withProviders, gvl, publisher, vendors, [89, 2677, 3000]), "a provider added").toBe(true);
    expect(askedAgain(withProviders, gvl, publisher, vendors, [89]), "a provider taken away").toBe(true);
    expect(askedAgain(kept, gvl, publisher, vendors, [89]), "the first provider").toBe(true);
    expect(askedAgain({ ...kept, acString: "" }, gvl, publisher, vendors, [89]), "no AC string kept").toBe(true);
  });

  it("a string kept before what was asked was kept is held to the vendors and the policy version only", () => {
    const { asked: _, ...older } = kept;
    expect(askedAgain(older, later((g) => g.vendors["755"].purposes.push(2)))).toBe(false);
    expect(askedAgain(older, later((g) => (g.tcfPolicyVersion += 1)))).toBe(true);
  });

  it("asks more exactly when some item of now was not in before (generated)", () => {
    const side = fc.record({ purposes: fc.subarray([1, 2, 3, 4, 5]), specialFeatures: fc.subarray([1, 2]), parties: fc.dictionary(fc.constantFrom("10", "755", "publisher"), fc.subarray(["c1", "c2", "l2", "f1"])) });
    fc.assert(
      fc.property(side, side, (before, now) => {
        const items = (a: typeof before) => [...a.purposes.map((p) => `p${p}`), ...a.specialFeatures.map((f) => `s${f}`), ...Object.entries(a.parties).flatMap(([k, v]) => v.map((x) => `${k}:${x}`))];
        const was = new Set(items(before));
        expect(asksMore(before, now)).toBe(items(now).some((item) => !was.has(item)));
        expect(asksMore(now, now)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
