// What the TCF page reads of the hosted lists (docs/tcf.md#the-hosted-lists), and the first layer's preview computed
// from the selected vendors' GVL declarations (TCF Policies, Appendix B, the first layer; docs/tcf.md#what-each-layer-shows-and-why).
import type { Schemas } from "../../../../shared/api/operations";

export type TcfSettings = Schemas["TcfSettings"];
export type Restriction = TcfSettings["publisherRestrictions"][number];
export type RestrictionType = Restriction["type"];

type Declaration = { id: number; name: string };
export type GvlVendor = Declaration & {
  purposes: number[];
  legIntPurposes: number[];
  flexiblePurposes: number[];
  specialPurposes: number[];
  specialFeatures: number[];
  deletedDate?: string;
};
type Stack = Declaration & { purposes: number[]; specialFeatures: number[] };
/** The GVL v3 as the service hosts it, the parts the page reads. */
export type Gvl = {
  vendorListVersion: number;
  purposes: Record<string, Declaration>;
  specialFeatures: Record<string, Declaration>;
  stacks: Record<string, Stack>;
  vendors: Record<string, GvlVendor>;
};
export type AtpProvider = Declaration & { policyUrl: string };
export type AtpList = { version: number; providers: AtpProvider[] };

export const restrictionTypes: Record<RestrictionType, string> = {
  "not-allowed": "Not allowed",
  "require-consent": "Require consent",
  "require-legitimate-interest": "Require legitimate interest",
};

/** Purposes that may never rest on legitimate interest (TCF Policies C(b), Appendix A). */
export const consentOnlyPurposes = new Set([1, 3, 4, 5, 6]);

/** The vendors an operator can still choose: deleted ones stay out of the list (the service refuses them). */
export const activeVendors = (gvl: Gvl) =>
  Object.values(gvl.vendors)
    .filter((v) => !v.deletedDate)
    .sort((a, b) => a.name.localeCompare(b.name));

/** Name or id, case-insensitive: "index", "10". */
export const matches = (item: Declaration, query: string) => {
  const q = query.trim().toLowerCase();
  return !q || String(item.id) === q || item.name.toLowerCase().includes(q);
};

export type Preview = {
  vendorCount: number;
  purposes: Declaration[];
  specialFeatures: Declaration[];
  /** Stacks that say exactly some of the purposes and special features, largest first and not overlapping. */
  stacks: Stack[];
  /** Purposes not covered by a stack: named one by one. */
  loosePurposes: Declaration[];
  legitimateInterest: boolean;
};

const sortedIds = (ids: Iterable<number>) => [...new Set(ids)].sort((a, b) => a - b);

/**
 * What the first layer will say (TCF Policies, Appendix B, the first layer): the purposes and special features the selected
 * vendors and the publisher declare, or stacks of them, the number of vendors, and whether any rely on legitimate
 * interest. A `not-allowed` restriction takes the purpose away from its vendors; `require-legitimate-interest` moves a
 * flexible one to legitimate interest, `require-consent` to consent.
 */
export function preview(gvl: Gvl, settings: TcfSettings): Preview {
  const vendors = settings.vendors.map((id) => gvl.vendors[id]).filter((v): v is GvlVendor => Boolean(v));
  const restricted = (vendor: GvlVendor, purpose: number) =>
    settings.publisherRestrictions.find((r) => r.purpose === purpose && r.vendors.includes(vendor.id))?.type;
  const purposes = new Set<number>(settings.publisherPurposes.consent);
  let legitimateInterest = settings.publisherPurposes.legitimateInterest.length > 0;
  settings.publisherPurposes.legitimateInterest.forEach((p) => purposes.add(p));
  const features = new Set<number>();
  for (const vendor of vendors) {
    for (const purpose of [...vendor.purposes, ...vendor.legIntPurposes]) {
      const type = restricted(vendor, purpose);
      if (type === "not-allowed") continue;
      purposes.add(purpose);
      const onLegitimateInterest = vendor.flexiblePurposes.includes(purpose) && type
        ? type === "require-legitimate-interest"
        : vendor.legIntPurposes.includes(purpose);
      if (onLegitimateInterest) legitimateInterest = true;
    }
    vendor.specialFeatures.forEach((f) => features.add(f));
  }
  const stacks: Stack[] = [];
  const covered = new Set<number>();
  const coveredFeatures = new Set<number>();
  const fitting = Object.values(gvl.stacks)
    .filter((s) => s.purposes.length + s.specialFeatures.length > 1)
    .sort((a, b) => b.purposes.length + b.specialFeatures.length - (a.purposes.length + a.specialFeatures.length) || a.id - b.id);
  for (const stack of fitting) {
    const fits = stack.purposes.every((p) => purposes.has(p) && !covered.has(p)) && stack.specialFeatures.every((f) => features.has(f) && !coveredFeatures.has(f));
    if (!fits) continue;
    stacks.push(stack);
    stack.purposes.forEach((p) => covered.add(p));
    stack.specialFeatures.forEach((f) => coveredFeatures.add(f));
  }
  const declared = (ids: Iterable<number>, table: Record<string, Declaration>) =>
    sortedIds(ids).map((id) => table[id] ?? { id, name: `#${id}` });
  return {
    vendorCount: vendors.length,
    purposes: declared(purposes, gvl.purposes),
    specialFeatures: declared(features, gvl.specialFeatures),
    stacks,
    loosePurposes: declared([...purposes].filter((p) => !covered.has(p)), gvl.purposes),
    legitimateInterest,
  };
}

/** Adds or removes an id, keeping the list ascending (as the service stores it). */
export const toggled = (ids: number[], id: number, on: boolean) => (on ? sortedIds([...ids, id]) : ids.filter((i) => i !== id));
