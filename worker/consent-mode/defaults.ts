import type { LegalGround } from "../configuration/table";
import { effectiveAreas, sensitiveRegimeFor, type JurisdictionRules, type Regime } from "../jurisdictions/rules";
import { consentTypes, type ConsentModeSettings, type ConsentType } from "./settings";

type ConsentValue = "granted" | "denied";
export type ConsentDefault = { region?: string[] } & Record<ConsentType, ConsentValue>;

/** Types that wait for consent under an opt-in regime even when no purpose maps them: Google's ads, measurement and personalisation. */
const consentByDefault = new Set<ConsentType>(["ad_storage", "ad_user_data", "ad_personalization", "analytics_storage", "personalization_storage"]);

/**
 * The default per consent type under each regime. Opt-in: denied until the visitor agrees for the types above
 * and any type a consent-based purpose maps; the rest (security, functionality of contract purposes) granted.
 * Opt-out and notice: granted until the visitor says otherwise (GPC is recorded by the Worker and arrives as an
 * `update` from the widget).
 */
const regimeDefault: Record<Regime, (type: ConsentType, needsConsent: Set<ConsentType>) => ConsentValue> = {
  "opt-in": (type, needsConsent) => (consentByDefault.has(type) || needsConsent.has(type) ? "denied" : "granted"),
  "opt-out": () => "granted",
  notice: () => "granted",
};

type MappedPurpose = { legalGround: LegalGround; consentMode: readonly ConsentType[]; sensitive?: boolean };

/**
 * gtag `consent default` commands, region-scoped from the project's rules: one per regime that some area has
 * (its `region` lists those areas, groups expanded), then one without `region` for everywhere else. Google
 * applies the most specific region, as the Worker does. Where a state's law asks consent for sensitive data
 * (docs/jurisdictions.md#sensitive-data), the types only sensitive purposes map take that stricter regime's default,
 * in a row of their own.
 */
export function consentDefaults(rules: JurisdictionRules, purposes: MappedPurpose[]): ConsentDefault[] {
  const needsConsent = new Set(purposes.filter((p) => p.legalGround === "consent").flatMap((p) => p.consentMode));
  const mappedBy = (type: ConsentType) => purposes.filter((p) => p.consentMode.includes(type));
  const sensitiveOnly = new Set(consentTypes.filter((type) => mappedBy(type).length > 0 && mappedBy(type).every((p) => p.sensitive)));
  const values = (regime: Regime, sensitiveRegime?: Regime) =>
    Object.fromEntries(
      consentTypes.map((type) => [
        type,
        sensitiveRegime && sensitiveOnly.has(type) ? regimeDefault[sensitiveRegime](type, sensitiveOnly) : regimeDefault[regime](type, needsConsent),
      ]),
    ) as Record<ConsentType, ConsentValue>;
  const rows = new Map<string, { regime: Regime; sensitiveRegime?: Regime; region: string[] }>();
  for (const [area, regime] of effectiveAreas(rules)) {
    const sensitiveRegime = sensitiveOnly.size ? sensitiveRegimeFor([area], regime) : undefined;
    const key = `${regime} ${sensitiveRegime ?? ""}`;
    rows.set(key, { regime, sensitiveRegime, region: [...(rows.get(key)?.region ?? []), area] });
  }
  return [...[...rows.values()].map(({ regime, sensitiveRegime, region }) => ({ region, ...values(regime, sensitiveRegime) })), values(rules.rest)];
}

/** The bootstrap's `consentMode`: the project's settings and the derived defaults. */
export const consentModeOf = (settings: ConsentModeSettings, rules: JurisdictionRules, purposes: MappedPurpose[]) => ({
  ...settings,
  defaults: consentDefaults(rules, purposes),
});
