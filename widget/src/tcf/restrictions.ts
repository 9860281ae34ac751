/**
 * Publisher restrictions (TCF Policies C(e); the TC string spec, "Publisher Restrictions") as they apply to one
 * vendor: which it can be under, and the legal basis each of its purposes has once they apply, which the string
 * signals (tc-string.ts) and the vendor's details show (vendors.ts).
 */
import type { VendorList } from "@iabtechlabtcf/core";

export type RestrictionTypeName = "not-allowed" | "require-consent" | "require-legitimate-interest";
export type Restriction = { purpose: number; type: RestrictionTypeName; vendors: number[] };
type Vendor = VendorList["vendors"][string];

/** A restriction the vendor can be under: of a purpose it declares, and a change of legal basis only for a flexible one. */
export function restrictable(vendor: Vendor, purpose: number, type: RestrictionTypeName) {
  if (type === "not-allowed") return vendor.purposes.includes(purpose) || vendor.legIntPurposes.includes(purpose);
  if (!vendor.flexiblePurposes.includes(purpose)) return false;
  return type === "require-consent" ? vendor.legIntPurposes.includes(purpose) : vendor.purposes.includes(purpose);
}

/** The vendor's purposes by the legal basis they have after the publisher's restrictions, and those not allowed. */
export function basesOf(vendor: Vendor, restrictions: Restriction[]) {
  const applying = restrictions.filter((r) => r.vendors.includes(vendor.id) && restrictable(vendor, r.purpose, r.type));
  const moved = (type: RestrictionTypeName) => applying.filter((r) => r.type === type).map((r) => r.purpose);
  const notAllowed = moved("not-allowed");
  const toConsent = moved("require-consent");
  const toInterest = moved("require-legitimate-interest");
  const ascending = (ids: number[]) => ids.filter((id) => !notAllowed.includes(id)).sort((a, b) => a - b);
  return {
    consent: ascending([...vendor.purposes.filter((id) => !toInterest.includes(id)), ...toConsent]),
    legitimateInterest: ascending([...vendor.legIntPurposes.filter((id) => !toConsent.includes(id)), ...toInterest]),
    notAllowed: notAllowed.sort((a, b) => a - b),
  };
}
