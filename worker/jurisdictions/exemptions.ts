import { areaGroups, sensitiveRegimeFor, type Regime } from "./rules";

/**
 * Exemptions from the consent requirement for storing or reading information on a visitor's device, as data per
 * legal regime. A purpose marked exempt names its reason and the regime it relies on; the reason must be one that
 * regime allows, and the exemption holds only where that regime is in force (elsewhere the purpose asks for consent
 * like any other). docs/regulatory-readiness.md explains each entry.
 */
export const exemptionReasons = [
  /** Solely to carry out the transmission of a communication. */
  "transmission",
  /** Strictly necessary for a service the visitor explicitly asked for. */
  "requested-service",
  /** Aggregated audience measurement or statistics for the controller's own use (to improve its own service). */
  "audience-measurement",
  /** Security of the service or of the visitor's device (incl. fraud prevention). */
  "security",
  /** Remembering the visitor's choices about the site's appearance or functions. */
  "appearance",
  /** Locating the visitor to help in an emergency. */
  "emergency-location",
] as const;
export type ExemptionReason = (typeof exemptionReasons)[number];

type ExemptionRegime = {
  title: string;
  /** `law`: in force; `proposal`: still in the legislative procedure, so it holds nowhere yet. */
  status: "law" | "proposal";
  /** Areas (countries or groups of worker/jurisdictions/rules.ts) where it holds, or everywhere. */
  holdsIn: readonly string[] | "everywhere";
  reasons: readonly ExemptionReason[];
};

export const exemptionRegimes = {
  /**
   * ePrivacy Directive Art. 5(3) as in force: the two exemptions every consent regime shares (the EEA's national
   * laws, the UK's PECR, and regimes without a prior-consent rule at all), so they hold everywhere.
   */
  eprivacy: {
    title: "ePrivacy Directive Art. 5(3) (strictly necessary)",
    status: "law",
    holdsIn: "everywhere",
    reasons: ["transmission", "requested-service"],
  },
  /** PECR reg. 6 and Schedule A1 as amended by the Data (Use and Access) Act 2025. */
  "uk-duaa": {
    title: "UK PECR as amended by the Data (Use and Access) Act 2025",
    status: "law",
    holdsIn: ["UK"],
    reasons: ["transmission", "requested-service", "security", "audience-measurement", "appearance", "emergency-location"],
  },
  /** The Digital Omnibus proposal of 19 Nov 2025, new GDPR Art. 88a(3): not adopted, so it holds nowhere yet. */
  "eu-omnibus": {
    title: "EU Digital Omnibus proposal, GDPR Art. 88a(3)",
    status: "proposal",
    holdsIn: [],
    reasons: ["transmission", "requested-service", "audience-measurement", "security"],
  },
} as const satisfies Record<string, ExemptionRegime>;

export type ExemptionRegimeName = keyof typeof exemptionRegimes;
export const exemptionRegimeNames = Object.keys(exemptionRegimes) as ExemptionRegimeName[];

export type Exemption = { reason: ExemptionReason; regime: ExemptionRegimeName };

/** The regimes that allow `reason`. */
export const regimesAllowing = (reason: ExemptionReason) =>
  exemptionRegimeNames.filter((name) => (exemptionRegimes[name].reasons as readonly string[]).includes(reason));

/** Whether `exemption` holds for a visitor in `country` (null: unknown, so only what holds everywhere). */
export function exemptionHolds(exemption: Exemption, country: string | null): boolean {
  const { holdsIn } = exemptionRegimes[exemption.regime];
  if (holdsIn === "everywhere") return true;
  return !!country && holdsIn.some((area) => area === country || (areaGroups[area] ?? []).includes(country));
}

type ServedPurpose = { legalGround: string; exemption: Exemption | null; consentMode?: readonly string[]; sensitive?: boolean };

const touchesDevice = (purpose: ServedPurpose) => (purpose.consentMode ?? []).some((type) => type.endsWith("_storage"));

/**
 * The purposes as a visitor in `visitor.country` under `regime` is asked about them: an exemption that does not hold
 * there is dropped; under `opt-in` a purpose that touches the device without an exemption that holds asks for consent
 * like any other, whatever ground it names (docs/jurisdictions.md#purposes-that-touch-the-device); and where the
 * place's law asks consent for sensitive data, a sensitive purpose asks for it under that stricter regime, named in
 * its `regime` (docs/jurisdictions.md#sensitive-data).
 */
export function servedPurposes<P extends ServedPurpose>(purposes: P[], visitor: { country: string | null; areas: readonly string[] }, regime: Regime): P[] {
  const sensitiveRegime = sensitiveRegimeFor(visitor.areas, regime);
  return purposes.map((purpose) => {
    if (purpose.sensitive && sensitiveRegime) return { ...purpose, legalGround: "consent", exemption: null, regime: sensitiveRegime };
    const exempt = !!purpose.exemption && exemptionHolds(purpose.exemption, visitor.country);
    const asksConsent = purpose.exemption ? !exempt : regime === "opt-in" && purpose.legalGround !== "consent" && touchesDevice(purpose);
    return asksConsent ? { ...purpose, legalGround: "consent", exemption: null } : purpose;
  });
}
