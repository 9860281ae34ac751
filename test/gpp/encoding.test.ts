// The widget's GPP encoder (widget/src/gpp/) against IAB's own library, @iabgpp/cmpapi, as the oracle: every string
// it writes decodes there to the values it was given, and equals the string the library writes for them.
import { GppModel } from "@iabgpp/cmpapi";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { gppString, type SectionValues } from "../../widget/src/gpp/encoding";
import { gppSections, type GppSectionName } from "../../widget/src/gpp/sections";

const names = Object.keys(gppSections) as GppSectionName[];

/** Arbitrary values for every field of a section (2-bit values 0-2, lists of them, the GPC signal). */
const valuesOf = (name: GppSectionName) =>
  fc.record({
    ...Object.fromEntries(
      gppSections[name].fields.map(([field, , count]) => [field, count ? fc.array(fc.integer({ min: 0, max: 2 }), { minLength: count, maxLength: count }) : fc.integer({ min: 0, max: 2 })]),
    ),
    Gpc: fc.boolean(),
  }) as fc.Arbitrary<SectionValues>;

/** What the library's getSection answers for a section with these values. */
const decodedAs = (name: GppSectionName, values: SectionValues) => ({
  Version: gppSections[name].version,
  ...Object.fromEntries(gppSections[name].fields.map(([field]) => [field, values[field]])),
  ...(gppSections[name].gpc ? { GpcSegmentType: 1, Gpc: values.Gpc } : {}),
});

/** The same values written by the library. */
function libraryString(sections: Partial<Record<GppSectionName, SectionValues>>) {
  const model = new GppModel();
  for (const [name, values] of Object.entries(sections) as [GppSectionName, SectionValues][]) {
    for (const [field] of gppSections[name].fields) model.setFieldValue(name, field, values[field]);
    if (gppSections[name].gpc) {
      model.setFieldValue(name, "GpcSegmentIncluded", true);
      model.setFieldValue(name, "Gpc", values.Gpc);
    }
  }
  return model.encode();
}

describe("the GPP encoder against @iabgpp/cmpapi", () => {
  it.each(names)("%s: every field decodes to the value written, and the string is the library's", (name) => {
    fc.assert(
      fc.property(
        // The library refuses MspaCoveredTransaction 0 when it encodes; the specification allows only 1 and 2.
        valuesOf(name).map((values) => ({ ...values, MspaCoveredTransaction: ((values.MspaCoveredTransaction as number) % 2) + 1 })),
        (values) => {
          const string = gppString({ [name]: values });
          const model = new GppModel(string);
          expect(model.getSectionIds()).toEqual([gppSections[name].id]);
          expect(model.getSection(name)).toEqual(decodedAs(name, values));
          expect(string).toBe(libraryString({ [name]: values }));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("any set of sections: the header lists their ids in order (runs and single ids) and each decodes", () => {
    fc.assert(
      fc.property(fc.subarray(names, { minLength: 1 }).chain((chosen) => fc.tuple(...chosen.map((name) => valuesOf(name).map((v) => [name, { ...v, MspaCoveredTransaction: 2 }] as const)))), (entries) => {
        const sections = Object.fromEntries(entries) as Partial<Record<GppSectionName, SectionValues>>;
        const string = gppString(sections);
        const model = new GppModel(string);
        expect(model.getSectionIds()).toEqual(entries.map(([name]) => gppSections[name].id).sort((a, b) => a - b));
        for (const [name, values] of entries) expect(model.getSection(name)).toEqual(decodedAs(name, values));
        expect(string).toBe(libraryString(sections));
      }),
      { numRuns: 200 },
    );
  });

  it("the GPC subsection is there exactly in usnat, usca, usco and usct, and carries the signal", () => {
    const string = gppString(Object.fromEntries(names.map((name) => [name, { Gpc: true, MspaCoveredTransaction: 2 }])));
    const model = new GppModel(string);
    const withGpc = names.filter((name) => model.getSection(name).Gpc === true);
    expect(withGpc).toEqual(["usnat", "usca", "usco", "usct"]);
    expect(string.split("~").slice(1).map((section) => section.split(".").length)).toEqual([2, 2, 1, 2, 1, 2]);
  });
});
