// The vendor catalogue as docs/blocking.md tables it, one row per vendor in the catalogue's order: the table is
// checked against the data (vendor-table.test.ts), so it cannot drift from shared/vendors.
import { vendorById, vendors } from "../../shared/vendors/catalogue";

/** Markdown table cells may not hold a bare `|`, not even inside code. */
const cell = (text: string) => text.replace(/\|/g, "\\|");
const code = (text: string) => `\`${cell(text)}\``;

export const vendorTableHead = ["| Vendor | Hosts | Purpose | Consent Mode types | Consent call |", "|---|---|---|---|---|"];

export const vendorTableRows = () =>
  vendors.map((vendor) => {
    const servedBy = vendor.servedBy ? `, and ${vendorById.get(vendor.servedBy)!.name}'s` : "";
    const kind = [vendor.embed ? `${vendor.embed} embed` : "", vendor.cookieless ? "cookieless: needs no consent" : ""].filter(Boolean).join(", ");
    return [
      "",
      ` ${vendor.name} (${code(vendor.id)}${kind ? `; ${kind}` : ""}) `,
      ` ${vendor.hosts.map(code).join(", ")}${servedBy} `,
      ` ${vendor.purpose} `,
      ` ${vendor.consentModeTypes.map(code).join(", ") || "none"} `,
      ` ${vendor.consentCallDescription ? code(vendor.consentCallDescription) : "none"} `,
      "",
    ].join("|");
  });
