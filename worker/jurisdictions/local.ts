import { regimes, resolveRegime, type JurisdictionRules, type ResolvedRegime } from "./rules";

type Location = { country?: string; regionCode?: string; city?: string; postalCode?: string; asn?: number };

/**
 * Miniflare's stand-in `request.cf` when wrangler dev cannot fetch the real one (offline, or under test): every
 * request then comes from the same Austin, Texas, which says nothing about the visitor.
 */
const placeholder: Location = { country: "US", regionCode: "TX", city: "Austin", postalCode: "78701", asn: 395747 };

const isPlaceholder = (cf: Location | undefined) =>
  !cf?.country || Object.entries(placeholder).every(([key, value]) => cf[key as keyof Location] === value);

/** A project's jurisdiction as an area (`SE`, `US-CA`), or undefined when it names none. */
function jurisdictionArea(jurisdiction: string | null | undefined) {
  const match = /^([A-Z]{2})(?:-([A-Z0-9]{1,3}))?$/.exec(jurisdiction?.trim().toUpperCase() ?? "");
  return match ? { country: match[1], region: match[2] } : undefined;
}

/**
 * Where the visitor is and the regime that follows, from `request.cf`. The place is for what a place's own law adds
 * beside the regime (the GPP state sections). In local development (`LOCAL_DEV`) without a real location, the
 * project's own jurisdiction stands in for the visitor's place (a developer's `US-CA` project sees California's
 * section), and without one the strictest regime the rules use, so a developer never sees purposes pre-approved
 * because of a placeholder; the regime's location is then reported unknown.
 */
export function locateVisitor(
  rules: JurisdictionRules,
  cf: Location | undefined,
  local: { localDev: boolean; jurisdiction: string | null | undefined },
): { regime: ResolvedRegime; place: { country?: string; region?: string } } {
  if (!local.localDev || !isPlaceholder(cf)) {
    return { regime: resolveRegime(rules, cf?.country, cf?.regionCode), place: { country: cf?.country, region: cf?.regionCode } };
  }
  const area = jurisdictionArea(local.jurisdiction);
  if (area) {
    return { regime: { ...resolveRegime(rules, area.country, area.region), country: null, region: null, matched: "jurisdiction" }, place: area };
  }
  const used = new Set([rules.rest, ...rules.rules.map((rule) => rule.regime)]);
  return { regime: { name: regimes.find((regime) => used.has(regime))!, country: null, region: null, matched: "strictest", areas: [] }, place: {} };
}
