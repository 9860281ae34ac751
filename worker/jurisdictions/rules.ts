import type { StringKey } from "../../shared/i18n/strings";
import { regimes, type Regime } from "../../shared/jurisdictions/regimes";

/**
 * Which consent regime applies where. A project's rule set maps areas to a regime; `rest` covers everywhere
 * else. Areas are ISO 3166-1 countries (`DE`), ISO 3166-2 subdivisions (`US-CA`, as Cloudflare reports
 * `request.cf.country` and `regionCode`) and the named groups below. The most specific match wins:
 * subdivision, then country, then group, then `rest`.
 */
export { regimes, type Regime } from "../../shared/jurisdictions/regimes";

export type JurisdictionRule = { area: string; regime: Regime };
export type JurisdictionRules = {
  rules: JurisdictionRule[];
  rest: Regime;
  /** How long a refusal stands before the widget asks about that purpose again; absent: six months. */
  refusalStandsSeconds?: number;
};

/** Six months (half a Julian year): the Digital Omnibus proposal's Art. 88a minimum before asking again. */
export const defaultRefusalStandsSeconds = 15_778_800;

/**
 * The consent purposes whose refusal in `state` is older than the rules let it stand (at `nowMs`): the widget asks
 * about them again. A refusal younger than that stands, on every device the identity uses.
 */
export function lapsedRefusals(
  rules: JurisdictionRules,
  state: { purposes: { purposeId: string; status: string; requestType: string; requested: string }[] } | null,
  consentPurposeIds: string[],
  nowMs: number,
): string[] {
  const standsMs = (rules.refusalStandsSeconds ?? defaultRefusalStandsSeconds) * 1000;
  return (state?.purposes ?? [])
    .filter((entry) => entry.status === "denied" && entry.requestType === "permission" && consentPurposeIds.includes(entry.purposeId))
    .filter((entry) => Date.parse(entry.requested) + standsMs <= nowMs)
    .map((entry) => entry.purposeId);
}

/** Named groups of countries a rule may use. */
export const areaGroups: Record<string, readonly string[]> = {
  /** EU member states and Iceland, Liechtenstein, Norway: the GDPR and the ePrivacy rules on cookies apply. */
  EEA: [
    "AT", "BE", "BG", "HR", "CY", "CZ", "DK", "EE", "FI", "FR", "DE", "GR", "HU", "IE", "IT", "LV", "LT", "LU",
    "MT", "NL", "PL", "PT", "RO", "SK", "SI", "ES", "SE", "IS", "LI", "NO",
  ],
  /** UK GDPR and PECR (Cloudflare reports the United Kingdom as GB). */
  UK: ["GB"],
};

/**
 * US states with a comprehensive consumer privacy law that gives an opt-out of sale, sharing or targeted
 * advertising (and, in most, makes a universal opt-out signal such as GPC that opt-out).
 */
export const usOptOutStates = [
  "CA", "CO", "CT", "DE", "IA", "IN", "KY", "MD", "MN", "MT", "NE", "NH", "NJ", "OR", "RI", "TN", "TX", "UT", "VA",
] as const;

/**
 * Words a place's law prescribes, named by their key in the widget's words (shared/i18n/strings.ts): `doNotSell` for
 * the link to the opt-out choices, `limitSensitive` beside a purpose that uses sensitive data.
 */
export const prescribedLinks = ["doNotSell", "limitSensitive"] as const satisfies readonly StringKey[];
export type PrescribedLink = (typeof prescribedLinks)[number];

/**
 * What the law of an area prescribes under a regime, as data. California's CCPA (Civ. Code 1798.135(a)) names the
 * opt-out's links: "Do Not Sell or Share My Personal Information", and "Limit the Use of My Sensitive Personal
 * Information" for sensitive data. The other states' laws ask for a clear opt-out without prescribing its words, and
 * under opt-in nothing runs before consent, so there is nothing to opt out of.
 */
export const areaPrescriptions: Record<string, Partial<Record<Regime, readonly PrescribedLink[]>>> = {
  "US-CA": { "opt-out": ["doNotSell", "limitSensitive"] },
};

/** The links the law of `areas` (a visitor's, most specific first) prescribes under `regime`. */
export const prescribedFor = (areas: readonly string[], regime: Regime): PrescribedLink[] => [
  ...new Set(areas.flatMap((area) => areaPrescriptions[area]?.[regime] ?? [])),
];

/**
 * Where a place's law asks consent for sensitive data though its regime lets the rest run until an opt-out: the
 * provisions IAB's US National section cites for `SensitiveDataProcessing` that require the consumer's consent
 * before sensitive data is processed. A sensitive purpose is asked under `regime` there (docs/jurisdictions.md#sensitive-data).
 * California (Civ. Code 1798.121, the right to limit), Utah (13-61-302(3)(a)) and Iowa (715D.4(2)) give a notice
 * and an opt-out instead, so they are not listed.
 */
export const sensitiveDataRules: Record<string, { regime: Regime; law: string }> = {
  "US-CO": { regime: "opt-in", law: "Colo. Rev. Stat. 6-1-1308(7)" },
  "US-CT": { regime: "opt-in", law: "Conn. Gen. Stat. 42-520(a)(4)" },
  "US-DE": { regime: "opt-in", law: "Del. Code tit. 6, 12D-106(a)(4)" },
  "US-IN": { regime: "opt-in", law: "Ind. Code 24-15-4-1(5)" },
  "US-KY": { regime: "opt-in", law: "Kentucky Consumer Data Protection Act, Sec. 4(1)(e)" },
  "US-MN": { regime: "opt-in", law: "Minn. Stat. 325O.07, Subd. 2(d)" },
  "US-MT": { regime: "opt-in", law: "Montana Consumer Data Privacy Act, Sec. 7(2)(b)" },
  "US-NE": { regime: "opt-in", law: "Nebraska Data Privacy Act, Sec. 12(2)(d)" },
  "US-NH": { regime: "opt-in", law: "N.H. Rev. Stat. 507-H:6(I)(d)" },
  "US-NJ": { regime: "opt-in", law: "New Jersey Data Privacy Act, Sec. 9(a)(4)" },
  "US-OR": { regime: "opt-in", law: "Oregon Consumer Privacy Act, Sec. 5(2)(b)" },
  "US-RI": { regime: "opt-in", law: "R.I. Gen. Laws 6-48.1-4(c)" },
  "US-TN": { regime: "opt-in", law: "Tenn. Code 47-18-3305(a)(6)" },
  "US-TX": { regime: "opt-in", law: "Tex. Bus. & Com. Code 541.101(b)(4)" },
  "US-VA": { regime: "opt-in", law: "Va. Code 59.1-578(A)(5)" },
};

/**
 * The regime a sensitive purpose is asked under for a visitor in `areas` (most specific first) under `regime`: the
 * stricter of the two where the place's law sets one, else `undefined` (the visitor's regime).
 */
export function sensitiveRegimeFor(areas: readonly string[], regime: Regime): Regime | undefined {
  const rule = areas.map((area) => sensitiveDataRules[area]).find(Boolean);
  return rule && regimes.indexOf(rule.regime) < regimes.indexOf(regime) ? rule.regime : undefined;
}

export const areaPattern = /^(?:[A-Z]{2}|[A-Z]{2}-[A-Z0-9]{1,3})$/;
export const isArea = (area: string) => area in areaGroups || areaPattern.test(area);

type Preset = { title: string; description: string; rules: JurisdictionRules };

/** Starting points offered in the admin API and the portal; `recommended` applies to projects without rules. */
export const jurisdictionPresets = {
  recommended: {
    title: "Recommended",
    description:
      "Opt-in in the EEA, the UK and Switzerland; opt-out (\"Do not sell or share\", GPC honoured) in US states " +
      "with a comprehensive privacy law; a notice elsewhere.",
    rules: {
      rules: [
        { area: "EEA", regime: "opt-in" },
        { area: "UK", regime: "opt-in" },
        { area: "CH", regime: "opt-in" },
        ...usOptOutStates.map((state) => ({ area: `US-${state}`, regime: "opt-out" as const })),
      ],
      rest: "notice",
    },
  },
  "opt-in-everywhere": {
    title: "Opt-in everywhere",
    description: "Nothing that needs consent runs anywhere before the visitor agrees: the strictest, one experience for all.",
    rules: { rules: [], rest: "opt-in" },
  },
  "opt-in-outside-us": {
    title: "Opt-in outside the US",
    description: "Opt-out in every US state (GPC honoured), opt-in everywhere else.",
    rules: { rules: [{ area: "US", regime: "opt-out" }], rest: "opt-in" },
  },
} as const satisfies Record<string, Preset>;

export type PresetName = keyof typeof jurisdictionPresets;
export const defaultRules: JurisdictionRules = jurisdictionPresets.recommended.rules;

export type ResolvedRegime = {
  name: Regime;
  country: string | null;
  region: string | null;
  /** The rule's area that decided it, or "rest" (locally without a location: "jurisdiction" or "strictest"). */
  matched: string;
  /** The areas the visitor is in, most specific first (subdivision, country, groups); locally, the jurisdiction's. */
  areas: string[];
};

/** The regime for a visitor at `country` / `regionCode` (from `request.cf`; absent locally or for unknown locations). */
export function resolveRegime(rules: JurisdictionRules, country?: string | null, regionCode?: string | null): ResolvedRegime {
  const byArea = new Map(rules.rules.map((rule) => [rule.area, rule.regime]));
  const c = country && /^[A-Z]{2}$/.test(country) ? country : null;
  const region = c && regionCode ? regionCode : null;
  const candidates = c
    ? [
        ...(region ? [`${c}-${region}`] : []),
        c,
        ...Object.entries(areaGroups).flatMap(([group, members]) => (members.includes(c) ? [group] : [])),
      ]
    : [];
  const matched = candidates.find((area) => byArea.has(area));
  return { name: matched ? byArea.get(matched)! : rules.rest, country: c, region, matched: matched ?? "rest", areas: candidates };
}

/**
 * Every country and subdivision a rule names, with its effective regime (groups expanded; a country's own rule
 * beats its group's), for region-scoped Consent Mode defaults.
 */
export function effectiveAreas(rules: JurisdictionRules): Map<string, Regime> {
  const areas = new Map<string, Regime>();
  for (const rule of rules.rules) {
    for (const area of areaGroups[rule.area] ?? [rule.area]) {
      const own = rules.rules.some((r) => r.area === area);
      if (!areas.has(area) && (own ? rule.area === area : true)) areas.set(area, rule.regime);
    }
  }
  return areas;
}

/** The preset a rule set equals, if any (for showing it in the portal). */
export function presetOf(rules: JurisdictionRules): PresetName | null {
  const key = (r: JurisdictionRules) => JSON.stringify([[...r.rules].map((x) => `${x.area}=${x.regime}`).sort(), r.rest]);
  const found = Object.entries(jurisdictionPresets).find(([, preset]) => key(preset.rules) === key(rules));
  return (found?.[0] as PresetName | undefined) ?? null;
}
