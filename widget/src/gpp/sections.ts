/**
 * The GPP sections Assent writes, as the IAB's specifications lay them out (Global-Privacy-Platform, "Sections":
 * US National v2 and the state sections v1): each field's name and width in bits, in the order they are encoded; a
 * `count` makes the field a list of that many 2-bit values. `gpc` sections carry the GPC subsection.
 */
import type { Bootstrap } from "../../../shared/browser/types";

export type Field = readonly [name: string, bits: number, count?: number];
export type SectionDefinition = { id: number; version: number; gpc: boolean; fields: readonly Field[] };

const two = (...names: string[]): Field[] => names.map((name) => [name, 2]);
const mspa = two("MspaCoveredTransaction", "MspaOptOutOptionMode", "MspaServiceProviderMode");
/** The state sections that differ only in their lists' lengths and the GPC subsection (Virginia, Colorado, Connecticut). */
/** `children`: how many known-child consents (one is a single value, not a list). */
const stateSection = (id: number, gpc: boolean, sensitive: number, children: number): SectionDefinition => ({
  id,
  version: 1,
  gpc,
  fields: [
    ...two("SharingNotice", "SaleOptOutNotice", "TargetedAdvertisingOptOutNotice", "SaleOptOut", "TargetedAdvertisingOptOut"),
    ["SensitiveDataProcessing", 2, sensitive],
    children > 1 ? ["KnownChildSensitiveDataConsents", 2, children] : ["KnownChildSensitiveDataConsents", 2],
    ...mspa,
  ],
});

export const gppSections = {
  usnat: {
    id: 7,
    version: 2,
    gpc: true,
    fields: [
      ...two(
        "SharingNotice",
        "SaleOptOutNotice",
        "SharingOptOutNotice",
        "TargetedAdvertisingOptOutNotice",
        "SensitiveDataProcessingOptOutNotice",
        "SensitiveDataLimitUseNotice",
        "SaleOptOut",
        "SharingOptOut",
        "TargetedAdvertisingOptOut",
      ),
      ["SensitiveDataProcessing", 2, 16],
      ["KnownChildSensitiveDataConsents", 2, 3],
      ["PersonalDataConsents", 2],
      ...mspa,
    ],
  },
  usca: {
    id: 8,
    version: 1,
    gpc: true,
    fields: [
      ...two("SaleOptOutNotice", "SharingOptOutNotice", "SensitiveDataLimitUseNotice", "SaleOptOut", "SharingOptOut"),
      ["SensitiveDataProcessing", 2, 9],
      ["KnownChildSensitiveDataConsents", 2, 2],
      ["PersonalDataConsents", 2],
      ...mspa,
    ],
  },
  usva: stateSection(9, false, 8, 1),
  usco: stateSection(10, true, 7, 1),
  usut: {
    id: 11,
    version: 1,
    gpc: false,
    fields: [
      ...two("SharingNotice", "SaleOptOutNotice", "TargetedAdvertisingOptOutNotice", "SensitiveDataProcessingOptOutNotice", "SaleOptOut", "TargetedAdvertisingOptOut"),
      ["SensitiveDataProcessing", 2, 8],
      ["KnownChildSensitiveDataConsents", 2],
      ...mspa,
    ],
  },
  usct: stateSection(12, true, 8, 3),
} satisfies Record<GppSectionName, SectionDefinition>;

/** The sections the bootstrap may name (worker/jurisdictions/gpp.ts): each has its layout here. */
export type GppSectionName = NonNullable<Bootstrap["gppSections"]>[number];
