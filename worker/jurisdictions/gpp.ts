/**
 * Which IAB GPP sections a visitor's page serves (docs/gpp.md): the US National section wherever a US visitor is
 * under an opt-out regime, and beside it the state's own section where the IAB defines one Assent writes. Outside
 * the opt-out regimes no section applies, and the widget does not load its GPP code.
 */
import type { Regime } from "./rules";

export const gppSectionNames = ["usnat", "usca", "usva", "usco", "usut", "usct"] as const;
export type GppSectionName = (typeof gppSectionNames)[number];

/** The regimes under which a US visitor's choices are opt-outs the GPP sections describe. */
const gppRegimes: Record<Regime, boolean> = { "opt-in": false, "opt-out": true, notice: false };

/** The sections that apply per country and state (ISO 3166-2 subdivision code without the country). */
const sectionsByPlace: Record<string, { all: GppSectionName[]; states: Record<string, GppSectionName> }> = {
  US: { all: ["usnat"], states: { CA: "usca", VA: "usva", CO: "usco", UT: "usut", CT: "usct" } },
};

/** The sections for a visitor under `regime` at `country` / `region` (unknown: none). */
export function gppSectionsFor(regime: Regime, country: string | null | undefined, region: string | null | undefined): GppSectionName[] {
  const place = gppRegimes[regime] && country ? sectionsByPlace[country] : undefined;
  if (!place) return [];
  const state = region ? place.states[region] : undefined;
  return state ? [...place.all, state] : place.all;
}
