/**
 * What the TCF dialog's first layer says, computed from the project's TCF settings and the vendors' GVL declarations
 * (TCF Policies, Appendix B, the requirements for the first layer; docs/tcf.md#what-each-layer-shows-and-why): the
 * purposes and special features the vendors and the publisher seek, as the GVL's stacks where a stack says exactly
 * some of them, the number of vendors, and which purposes rest on legitimate interest. The widget's TCF chunk shows
 * it; the portal's preview shows the same content to the operator.
 */

type Declaration = { id: number; name: string };
/** A vendor's GVL v3 declarations, the parts the first layer reads. */
export type GvlVendor = Declaration & {
  purposes: number[];
  legIntPurposes: number[];
  flexiblePurposes: number[];
  specialPurposes: number[];
  specialFeatures: number[];
  deletedDate?: string | Date;
};
export type Stack = Declaration & { purposes: number[]; specialFeatures: number[] };
/** The parts of a GVL v3 document (the hosted one, or a project's vendor list) the first layer reads. */
export type FirstLayerGvl = {
  purposes: Record<string, Declaration>;
  specialFeatures: Record<string, Declaration>;
  stacks: Record<string, Stack>;
  vendors: Record<string, GvlVendor>;
};
/** The project's TCF settings the first layer depends on (docs/tcf.md#a-projects-settings). */
export type FirstLayerSettings = {
  vendors: number[];
  publisherRestrictions: { purpose: number; type: "not-allowed" | "require-consent" | "require-legitimate-interest"; vendors: number[] }[];
  publisherPurposes: { consent: number[]; legitimateInterest: number[] };
};

export type FirstLayer = {
  vendorCount: number;
  purposes: Declaration[];
  specialFeatures: Declaration[];
  /** Stacks that say exactly some of the purposes and special features, largest first and not overlapping. */
  stacks: Stack[];
  /** Purposes not covered by a stack: named one by one. */
  loosePurposes: Declaration[];
  /** The purposes some vendor (or the publisher) rests on legitimate interest: the visitor may object to each. */
  legitimateInterestPurposes: number[];
};

const sortedIds = (ids: Iterable<number>) => [...new Set(ids)].sort((a, b) => a - b);

/**
 * The first layer's content: the purposes and special features the project's vendors (deleted ones left out) and
 * the publisher declare. A `not-allowed` restriction takes the purpose away from its vendors;
 * `require-legitimate-interest` moves a flexible one to legitimate interest, `require-consent` to consent.
 */
export function firstLayer(gvl: FirstLayerGvl, settings: FirstLayerSettings): FirstLayer {
  const vendors = settings.vendors.map((id) => gvl.vendors[id]).filter((v): v is GvlVendor => Boolean(v) && !v!.deletedDate);
  const restricted = (vendor: GvlVendor, purpose: number) =>
    settings.publisherRestrictions.find((r) => r.purpose === purpose && r.vendors.includes(vendor.id))?.type;
  const purposes = new Set<number>([...settings.publisherPurposes.consent, ...settings.publisherPurposes.legitimateInterest]);
  const onLegitimateInterest = new Set<number>(settings.publisherPurposes.legitimateInterest);
  const features = new Set<number>();
  for (const vendor of vendors) {
    for (const purpose of [...vendor.purposes, ...vendor.legIntPurposes]) {
      const type = restricted(vendor, purpose);
      if (type === "not-allowed") continue;
      purposes.add(purpose);
      const legitimate = vendor.flexiblePurposes.includes(purpose) && type ? type === "require-legitimate-interest" : vendor.legIntPurposes.includes(purpose);
      if (legitimate) onLegitimateInterest.add(purpose);
    }
    vendor.specialFeatures.forEach((f) => features.add(f));
  }
  const stacks: Stack[] = [];
  const covered = new Set<number>();
  const coveredFeatures = new Set<number>();
  const size = (s: Stack) => s.purposes.length + s.specialFeatures.length;
  const fitting = Object.values(gvl.stacks)
    .filter((s) => size(s) > 1)
    .sort((a, b) => size(b) - size(a) || a.id - b.id);
  for (const stack of fitting) {
    const fits = stack.purposes.every((p) => purposes.has(p) && !covered.has(p)) && stack.specialFeatures.every((f) => features.has(f) && !coveredFeatures.has(f));
    if (!fits) continue;
    stacks.push(stack);
    stack.purposes.forEach((p) => covered.add(p));
    stack.specialFeatures.forEach((f) => coveredFeatures.add(f));
  }
  const declared = (ids: Iterable<number>, table: Record<string, Declaration>) => sortedIds(ids).map((id) => table[id] ?? { id, name: `#${id}` });
  return {
    vendorCount: vendors.length,
    purposes: declared(purposes, gvl.purposes),
    specialFeatures: declared(features, gvl.specialFeatures),
    stacks,
    loosePurposes: declared([...purposes].filter((p) => !covered.has(p)), gvl.purposes),
    legitimateInterestPurposes: sortedIds(onLegitimateInterest),
  };
}
