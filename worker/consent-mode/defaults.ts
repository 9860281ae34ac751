import type { LegalGround } from "../configuration/table";
import { effectiveAreas, type JurisdictionRules, type Regime } from "../jurisdictions/rules";
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

type MappedPurpose = { legalGround: LegalGround; consentMode: readonly ConsentType[] };

/**
 * gtag `consent default` commands, region-scoped from the project's rules: one per regime that some area has
 * (its `region` lists those areas, groups expanded), then one without `region` for everywhere else. Google
 * applies the most specific region, as the Worker does.
 */
export function consentDefaults(rules: JurisdictionRules, purposes: MappedPurpose[]): ConsentDefault[] {
  const needsConsent = new Set(purposes.filter((p) => p.legalGround === "consent").flatMap((p) => p.consentMode));
  const values = (regime: Regime) =>
    Object.fromEntries(consentTypes.map((type) => [type, regimeDefault[regime](type, needsConsent)])) as Record<ConsentType, ConsentValue>;
  const byRegime = new Map<Regime, string[]>();
  for (const [area, regime] of effectiveAreas(rules)) byRegime.set(regime, [...(byRegime.get(regime) ?? []), area]);
  return [...[...byRegime].map(([regime, region]) => ({ region, ...values(regime) })), values(rules.rest)];
}

/** The bootstrap's `consentMode`: the project's settings and the derived defaults. */
export const consentModeOf = (settings: ConsentModeSettings, rules: JurisdictionRules, purposes: MappedPurpose[]) => ({
  ...settings,
  defaults: consentDefaults(rules, purposes),
});
