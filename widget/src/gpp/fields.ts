/**
 * The GPP fields from what the visitor decided and what the widget shows (docs/gpp.md has the table). The US
 * sections' 2-bit values: 0 not applicable, 1 yes (a notice given, or opted out), 2 no (no notice, did not opt out).
 * One set of values serves every section: each section takes the fields it has.
 */
import type { Bootstrap, PrescribedLink, Purpose } from "../types";
import type { SectionValues } from "./encoding";

const advertisingTypes = ["ad_storage", "ad_user_data", "ad_personalization"];

/**
 * What each opt-out covers, by the purposes that stand for it: a sale is a disclosure to third parties (the purpose
 * lists recipients); sharing (California's cross-context behavioural advertising) and targeted advertising are the
 * purposes mapped to an advertising Consent Mode type.
 */
const optOuts: Record<string, (purpose: Purpose) => boolean> = {
  Sale: (p) => p.recipients.length > 0,
  Sharing: (p) => !!p.consentMode?.some((type) => advertisingTypes.includes(type)),
  TargetedAdvertising: (p) => !!p.consentMode?.some((type) => advertisingTypes.includes(type)),
};

/** The visitor's decision as the GPP fields read it. */
export type Decision = {
  /** The published purposes. */
  purposes: Purpose[];
  /** Whether the purpose may be used now (not refused). */
  allowed(purpose: Purpose): boolean;
  /** The browser sends Global Privacy Control. */
  gpc: boolean;
  /** The links whose words the visitor's law prescribes, which the widget shows (California's under opt-out). */
  prescribed: PrescribedLink[];
  /** The project's MSPA settings (PUT /admin/v1/projects/{id}/gpp); absent from a service before them: not covered. */
  mspa?: Bootstrap["gppMspa"];
};

/** MSPA modes as the sections' two mode fields: 1 the mode in force, 2 the other; 0 both when not covered. */
const mspaModes = { "opt-out-option": [1, 2], "service-provider": [2, 1] } as const;

/**
 * - `<X>OptOutNotice` is 1 where a consent purpose stands for X: the widget then shows its switch (and, under the
 *   opt-out regime, "Do Not Sell or Share My Personal Information"); 0 where nothing does.
 * - `<X>OptOut` is 1 when the visitor refused a purpose standing for X or the browser sends GPC, else 2; 0 where
 *   nothing stands for X.
 * - `SharingNotice` is 1 where a purpose discloses data to recipients (the widget lists them).
 * - `SensitiveDataProcessingOptOutNotice` is 1 where a consent purpose is marked `sensitive` (the widget shows its
 *   switch); `SensitiveDataLimitUseNotice` only where the page also says "Limit the Use of My Sensitive Personal
 *   Information" (California's prescribed words, `limitSensitive`): a notice field says what the page showed.
 * - The MSPA fields say what the project set: a covered transaction (1) in one mode (1, the other 2), or not a
 *   covered transaction (2, the default) with both modes not applicable (0).
 * - Per-category sensitive data, known-child and personal data consents stay 0: Assent does not collect them by
 *   category.
 */
export function gppValues({ purposes, allowed, gpc, prescribed, mspa }: Decision): SectionValues {
  const consent = purposes.filter((p) => p.legalGround === "consent");
  const values: SectionValues = {
    SharingNotice: purposes.some((p) => p.recipients.length > 0) ? 1 : 0,
    MspaCoveredTransaction: mspa?.mspaCoveredTransaction ? 1 : 2,
    Gpc: gpc,
  };
  for (const [name, covers] of Object.entries(optOuts)) {
    const covered = consent.filter(covers);
    values[`${name}OptOutNotice`] = covered.length ? 1 : 0;
    values[`${name}OptOut`] = covered.length ? (gpc || covered.some((p) => !allowed(p)) ? 1 : 2) : 0;
  }
  [values.MspaOptOutOptionMode, values.MspaServiceProviderMode] = mspa?.mspaMode ? mspaModes[mspa.mspaMode] : [0, 0];
  const sensitive = consent.some((p) => p.sensitive);
  values.SensitiveDataProcessingOptOutNotice = sensitive ? 1 : 0;
  values.SensitiveDataLimitUseNotice = sensitive && prescribed.includes("limitSensitive") ? 1 : 0;
  return values;
}
