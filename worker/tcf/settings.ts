import { z } from "@hono/zod-openapi";
import type { Env } from "../env";
import { ApiError } from "../lib/errors";
import { keptVersion, latestGvl, type AtpList, type VendorList } from "./lists";

/**
 * A project's TCF settings (docs/tcf.md#a-projects-settings): whether the widget acts as a TCF CMP on its pages, as
 * which registered CMP, for which vendors of the GVL, with which publisher restrictions and purposes, and which of
 * Google's Additional Consent providers. Stored as the project's `tcf` column, beside its GPP settings.
 */

/** Purposes a vendor or publisher may not rest on legitimate interest (TCF Policies, C(b) and Appendix A: 1, 3 to 6). */
export const consentOnlyPurposes = [1, 3, 4, 5, 6];

export const restrictionTypes = ["not-allowed", "require-consent", "require-legitimate-interest"] as const;
/** The TC string's RestrictionType for each (TC string spec, "Publisher Restrictions"). */
export const restrictionTypeCodes = { "not-allowed": 0, "require-consent": 1, "require-legitimate-interest": 2 } as const;

/** CMP ids and versions are 12-bit fields of the TC string. */
const twelveBits = z.number().int().min(0).max(4095);
const ids = (what: string, max: number) =>
  z
    .array(z.number().int().positive().max(65535))
    .max(max)
    .refine((list) => new Set(list).size === list.length, `each ${what} once`);

export const TcfSettingsSchema = z
  .strictObject({
    enabled: z.boolean().openapi({ description: "Whether the widget acts as a TCF CMP on the project's pages (`__tcfapi`, the TC string, the TCF layers)." }),
    cmpId: twelveBits.openapi({ description: "The CMP id IAB Europe registered for the operator (docs/tcf.md#registration). 0 only in local development.", example: 300 }),
    cmpVersion: twelveBits.openapi({ description: "The CMP version the operator registered and increments with each change of the dialog.", example: 1 }),
    vendors: ids("vendor", 2000).openapi({ description: "The GVL vendors the publisher works with (their `id`s): the ones the dialog shows and `disclosedVendors` names.", example: [755, 10] }),
    publisherRestrictions: z
      .array(
        z.strictObject({
          purpose: z.number().int().positive().openapi({ description: "A GVL purpose id.", example: 2 }),
          type: z.enum(restrictionTypes).openapi({ description: "`not-allowed`, `require-consent` or `require-legitimate-interest` (TC string RestrictionType 0, 1, 2)." }),
          vendors: ids("vendor", 2000).min(1).openapi({ description: "Selected vendors the restriction applies to." }),
        }),
      )
      .max(100)
      .openapi({ description: "Publisher restrictions (TCF Policies C(e)): how the publisher limits a vendor's purpose." }),
    publisherPurposes: z
      .strictObject({
        consent: ids("purpose", 11).openapi({ description: "GVL purposes the publisher itself processes on consent (PubPurposesConsent).", example: [1] }),
        legitimateInterest: ids("purpose", 11).openapi({ description: "GVL purposes the publisher processes on legitimate interest (PubPurposesLITransparency); never 1, 3, 4, 5 or 6." }),
      })
      .openapi({ description: "The publisher's own purposes, written as the TC string's publisher segment when there is one." }),
    acProviders: ids("provider", 2000).openapi({ description: "Google Ad Tech Providers (ATP list ids) not registered with IAB: the AC string's providers.", example: [89] }),
  })
  .openapi("TcfSettings");
export type TcfSettings = z.infer<typeof TcfSettingsSchema>;

/** What a project without settings gets: TCF off, nothing selected. */
export const defaultTcfSettings: TcfSettings = {
  enabled: false,
  cmpId: 0,
  cmpVersion: 0,
  vendors: [],
  publisherRestrictions: [],
  publisherPurposes: { consent: [], legitimateInterest: [] },
  acProviders: [],
};

const listsComing = "it is being fetched; try again in a minute, and if it stays missing see the tcf_lists_failing alert (docs/tcf.md#the-hosted-lists).";

const refusal = (code: string, detail: string, members: Record<string, unknown>) => new ApiError(400, code, detail, { members });

/** A vendor that can still be chosen: in the GVL and not deleted. */
const live = (gvl: VendorList, id: number) => {
  const vendor = gvl.vendors[String(id)];
  return vendor !== undefined && (vendor.deletedDate === undefined || Date.parse(vendor.deletedDate) > Date.now());
};

/**
 * Checks the settings against the hosted GVL and ATP list; throws the problem a publisher's mistake deserves, naming
 * every offending id. Nothing is stored until all of it holds.
 */
export async function checkTcfSettings(env: Env, settings: TcfSettings): Promise<void> {
  if (settings.enabled && settings.cmpId === 0 && env.LOCAL_DEV !== "true") {
    throw refusal("cmp_id_required", "A TCF CMP needs the id IAB Europe registered for it (docs/tcf.md#registration); 0 is only for local development.", { field: "cmpId" });
  }
  // TCF on alone needs no list (the route starts fetching them); what names the GVL's ids is checked against it.
  const needsGvl = settings.vendors.length > 0 || settings.publisherRestrictions.length > 0 || publisherPurposeIds(settings).length > 0;
  const gvl = needsGvl ? await latestGvl(env.DB) : undefined;
  if (needsGvl && !gvl) throw new ApiError(409, "vendor_list_unavailable", `The service holds no Global Vendor List yet: ${listsComing}`);
  if (gvl) {
    const unknownVendors = settings.vendors.filter((id) => !live(gvl, id));
    if (unknownVendors.length > 0) {
      throw refusal("unknown_vendors", `Not vendors of the Global Vendor List v${gvl.vendorListVersion} (or deleted from it): ${unknownVendors.join(", ")}.`, { vendors: unknownVendors });
    }
    const purposes = [...publisherPurposeIds(settings), ...settings.publisherRestrictions.map((r) => r.purpose)];
    const unknownPurposes = [...new Set(purposes.filter((id) => gvl.purposes[String(id)] === undefined))];
    if (unknownPurposes.length > 0) {
      throw refusal("unknown_purposes", `Not purposes of the Global Vendor List v${gvl.vendorListVersion}: ${unknownPurposes.join(", ")}.`, { purposes: unknownPurposes });
    }
  }
  const selected = new Set(settings.vendors);
  const unselected = [...new Set(settings.publisherRestrictions.flatMap((r) => r.vendors.filter((id) => !selected.has(id))))];
  if (unselected.length > 0) {
    throw refusal("restriction_vendor_not_selected", `Restrictions name vendors the project does not work with: ${unselected.join(", ")}.`, { vendors: unselected });
  }
  const consentOnly = [
    ...settings.publisherPurposes.legitimateInterest,
    ...settings.publisherRestrictions.filter((r) => r.type === "require-legitimate-interest").map((r) => r.purpose),
  ].filter((id) => consentOnlyPurposes.includes(id));
  if (consentOnly.length > 0) {
    throw refusal("legitimate_interest_not_allowed", `The TCF Policies allow no legitimate interest for purposes 1, 3, 4, 5 and 6: ${[...new Set(consentOnly)].join(", ")}.`, { purposes: [...new Set(consentOnly)] });
  }
  const seen = new Set<string>();
  const twice = settings.publisherRestrictions.filter((r) => r.vendors.some((v) => seen.size === seen.add(`${r.purpose}:${v}`).size));
  if (twice.length > 0) {
    throw refusal("restriction_conflict", "A vendor has at most one restriction per purpose.", { purposes: [...new Set(twice.map((r) => r.purpose))] });
  }
  if (settings.acProviders.length > 0) {
    const kept = await keptVersion(env.DB, "atp");
    if (!kept) throw new ApiError(409, "provider_list_unavailable", `The service holds no ATP list yet: ${listsComing}`);
    const known = new Set((JSON.parse(kept.json) as AtpList).providers.map((p) => p.id));
    const unknownProviders = settings.acProviders.filter((id) => !known.has(id));
    if (unknownProviders.length > 0) {
      throw refusal("unknown_ac_providers", `Not providers of Google's ATP list: ${unknownProviders.join(", ")}.`, { providers: unknownProviders });
    }
  }
}

const publisherPurposeIds = (settings: TcfSettings) => [...settings.publisherPurposes.consent, ...settings.publisherPurposes.legitimateInterest];
