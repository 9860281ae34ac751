import type { Vendor } from "../../shared/vendors/types";

/** A catalogue entry as the API serves it: its data, and whether it has a consent call (the call itself is page code). */
export const vendorView = ({ consent, consentCallDescription, cookieless, embed, servedBy, ...data }: Vendor) => ({
  ...data,
  servedBy: servedBy ?? null,
  cookieless: cookieless === true,
  embed: embed ?? null,
  consentCall: consent !== undefined,
  consentCallDescription: consentCallDescription ?? null,
});
