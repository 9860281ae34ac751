/**
 * The GPP fields from what the visitor decided and what the widget shows (docs/gpp.md has the table). The US
 * sections' 2-bit values: 0 not applicable, 1 yes (a notice given, or opted out), 2 no (no notice, did not opt out).
 * One set of values serves every section: each section takes the fields it has.
 */
import type { Bootstrap, PrescribedLink, Purpose } from "../../../shared/browser/types";
import type { SensitiveCategory } from "../../../shared/gpp/sensitive-categories";
import type { SectionValues } from "./encoding";
import { gppSections, type GppSectionName } from "./sections";

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
 * - Per-category sensitive data is each section's own (`sectionValues`, below); known-child and personal data
 *   consents stay 0: Assent does not collect them.
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

/** usva's, usco's and usct's positions (1 to 8; Colorado's seven stop before precise geolocation). */
const consentPositions: Partial<Record<SensitiveCategory, number>> = {
  "racial-or-ethnic-origin": 1,
  "religious-or-philosophical-beliefs": 2,
  health: 3,
  "sex-life-or-sexual-orientation": 4,
  "citizenship-or-immigration-status": 5,
  genetic: 6,
  biometric: 7,
  "precise-geolocation": 8,
};

/**
 * `SensitiveDataProcessing` per section, as IAB's state specifications define it: where each category sits, when the
 * section writes it, and the value for a category every purpose processing it may use (`given`) or not (`withheld`,
 * which wins when purposes disagree); 0 for a category no sensitive consent purpose processes.
 * - usca (California, the right to limit): 1 did not opt out, 2 opted out; only where the page gave the Limit the
 *   Use notice (positions 1 to 9; one position covers origin, beliefs and union membership).
 * - usva, usco, usct (consent before sensitive data is processed): 1 no consent, 2 consent, where the visitor
 *   agreed to the purpose asked opt-in (its `regime`); a purpose merely not refused was never agreed to.
 * The other sections (usnat, usut) stay 0: Assent does not collect what they ask by category.
 */
type CategoryField = {
  positions: Partial<Record<SensitiveCategory, number>>;
  writes(values: SectionValues): boolean;
  given(purpose: Purpose, decision: Decision): boolean;
  values: { given: number; withheld: number };
};
const consented: CategoryField = {
  positions: consentPositions,
  writes: () => true,
  given: (purpose, decision) => purpose.regime === "opt-in" && decision.allowed(purpose),
  values: { given: 2, withheld: 1 },
};
const categoryFields: Partial<Record<GppSectionName, CategoryField>> = {
  usca: {
    positions: {
      "government-id": 1,
      "account-credentials": 2,
      "precise-geolocation": 3,
      "racial-or-ethnic-origin": 4,
      "religious-or-philosophical-beliefs": 4,
      "union-membership": 4,
      "communications-contents": 5,
      genetic: 6,
      biometric: 7,
      health: 8,
      "sex-life-or-sexual-orientation": 9,
    },
    writes: (values) => !!values.SensitiveDataLimitUseNotice,
    given: (purpose, decision) => decision.allowed(purpose),
    values: { given: 1, withheld: 2 },
  },
  usva: consented,
  usco: consented,
  usct: consented,
};

/** One section's values: the shared ones, and its per-category `SensitiveDataProcessing` where it writes one (above). */
export function sectionValues(name: GppSectionName, decision: Decision): SectionValues {
  const values = gppValues(decision);
  const field = categoryFields[name];
  if (!field?.writes(values)) return values;
  const [, , count] = gppSections[name].fields.find(([field]) => field === "SensitiveDataProcessing")!;
  const processing: number[] = Array(count).fill(0);
  for (const purpose of decision.purposes.filter((p) => p.legalGround === "consent" && p.sensitive)) {
    const value = field.given(purpose, decision) ? field.values.given : field.values.withheld;
    for (const category of purpose.sensitiveCategories ?? []) {
      const index = (field.positions[category] ?? Infinity) - 1;
      if (index < processing.length && processing[index] !== field.values.withheld) processing[index] = value;
    }
  }
  return { ...values, SensitiveDataProcessing: processing };
}
