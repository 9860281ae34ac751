// What the TCF page reads of the hosted lists (docs/tcf.md#the-hosted-lists), and the first layer's preview, computed
// as the widget computes it (shared/tcf/first-layer.ts; docs/tcf.md#what-each-layer-shows-and-why).
import type { Schemas } from "../../../../shared/api/operations";
import type { FirstLayerGvl, GvlVendor } from "../../../../shared/tcf/first-layer";

export type TcfSettings = Schemas["TcfSettings"];
export type Restriction = TcfSettings["publisherRestrictions"][number];
export type RestrictionType = Restriction["type"];

type Declaration = { id: number; name: string };
export type { GvlVendor };
/** The GVL v3 as the service hosts it, the parts the page reads. */
export type Gvl = FirstLayerGvl & { vendorListVersion: number };
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

const sortedIds = (ids: Iterable<number>) => [...new Set(ids)].sort((a, b) => a - b);

/** Adds or removes an id, keeping the list ascending (as the service stores it). */
export const toggled = (ids: number[], id: number, on: boolean) => (on ? sortedIds([...ids, id]) : ids.filter((i) => i !== id));
