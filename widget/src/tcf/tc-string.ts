/**
 * The visitor's TCF choice as IAB's strings: the TC string (Tech Lab, *Transparency and Consent String and Global
 * Vendor List Format* v2.3: core segment, `disclosedVendors`, publisher segment where the publisher has purposes) and
 * Google's Additional Consent string v2. Written with IAB's own library, `@iabtechlabtcf/core`; the signals set are
 * the ones the Policies allow, so the string decodes to exactly the model written (test/gpp/tcf-strings.test.ts).
 */
import { GVL, PurposeRestriction, RestrictionType, Segment, TCModel, TCString, type VendorList } from "@iabtechlabtcf/core";
import { restrictable, type Restriction, type RestrictionTypeName } from "./restrictions";

/** What the project's TCF settings give the page (docs/tcf.md#a-projects-settings). */
export type TcfPageSettings = {
  cmpId: number;
  cmpVersion: number;
  /** The vendors the dialog shows: every one is disclosed. */
  vendors: number[];
  publisherRestrictions: Restriction[];
  publisherPurposes: { consent: number[]; legitimateInterest: number[] };
};

/** What the visitor chose in the dialog. Objections are to legitimate interest (the right to object, Policies C(d)). */
export type TcfDecision = {
  purposeConsents: number[];
  purposeObjections: number[];
  specialFeatureOptins: number[];
  vendorConsents: number[];
  vendorObjections: number[];
  publisherConsents: number[];
  publisherObjections: number[];
};

/** The signals a TC string carries, as ascending id lists: what the string is made from and decodes to. */
export type TcSignals = {
  cmpId: number;
  cmpVersion: number;
  consentLanguage: string;
  publisherCountryCode: string;
  vendorListVersion: number;
  policyVersion: number;
  purposeConsents: number[];
  purposeLegitimateInterests: number[];
  specialFeatureOptins: number[];
  vendorConsents: number[];
  vendorLegitimateInterests: number[];
  vendorsDisclosed: number[];
  publisherConsents: number[];
  publisherLegitimateInterests: number[];
  /** `{purpose}-{type}` → vendor ids (the library's restriction hash: type 0, 1, 2 as in the TC string). */
  publisherRestrictions: Record<string, number[]>;
};

const restrictionCodes: Record<RestrictionTypeName, RestrictionType> = {
  "not-allowed": RestrictionType.NOT_ALLOWED,
  "require-consent": RestrictionType.REQUIRE_CONSENT,
  "require-legitimate-interest": RestrictionType.REQUIRE_LI,
};

/** Purposes no one may rest on legitimate interest (TCF Policies C(b), Appendix A). */
const consentOnlyPurposes = new Set([1, 3, 4, 5, 6]);
const ascending = (ids: Iterable<number>) => [...new Set(ids)].sort((a, b) => a - b);
const without = (ids: number[], out: number[]) => ids.filter((id) => !out.includes(id));

/**
 * The signals for a decision: only what the GVL and the Policies allow (a vendor's consent only where it declares a
 * consent purpose or a restriction moves one to consent, legitimate interest only where it declares one, none for
 * purposes 1, 3 to 6), shown vendors only.
 */
export function signalsOf(gvl: VendorList, settings: TcfPageSettings, decision: TcfDecision, consentLanguage: string, publisherCountryCode: string): TcSignals {
  const shown = settings.vendors.filter((id) => gvl.vendors[String(id)] !== undefined && !gvl.vendors[String(id)]!.deletedDate);
  const vendorOf = (id: number) => gvl.vendors[String(id)]!;
  const restrictions: Record<string, number[]> = {};
  for (const { purpose, type, vendors } of settings.publisherRestrictions) {
    const held = vendors.filter((id) => shown.includes(id) && restrictable(vendorOf(id), purpose, type));
    if (held.length > 0) restrictions[`${purpose}-${restrictionCodes[type]}`] = ascending([...(restrictions[`${purpose}-${restrictionCodes[type]}`] ?? []), ...held]);
  }
  const restrictedTo = (id: number, type: RestrictionType) => Object.entries(restrictions).some(([hash, ids]) => hash.endsWith(`-${type}`) && ids.includes(id));
  const purposes = Object.keys(gvl.purposes).map(Number);
  // Legitimate interest is established for a purpose a shown vendor declares on it, unless the visitor objected.
  const claimedOnLi = new Set(shown.flatMap((id) => vendorOf(id).legIntPurposes));
  return {
    cmpId: settings.cmpId,
    cmpVersion: settings.cmpVersion,
    // The TC string's ConsentLanguage is two letters (pt-br and pt-pt are both PT).
    consentLanguage: consentLanguage.slice(0, 2).toUpperCase(),
    publisherCountryCode: publisherCountryCode.toUpperCase(),
    vendorListVersion: gvl.vendorListVersion,
    policyVersion: gvl.tcfPolicyVersion,
    purposeConsents: ascending(decision.purposeConsents.filter((id) => purposes.includes(id))),
    purposeLegitimateInterests: ascending(without(purposes, decision.purposeObjections).filter((id) => !consentOnlyPurposes.has(id) && claimedOnLi.has(id))),
    specialFeatureOptins: ascending(decision.specialFeatureOptins.filter((id) => gvl.specialFeatures[String(id)] !== undefined)),
    vendorConsents: ascending(
      decision.vendorConsents.filter((id) => {
        const vendor = shown.includes(id) ? vendorOf(id) : undefined;
        return vendor !== undefined && (vendor.purposes.length > 0 || (vendor.flexiblePurposes.length > 0 && restrictedTo(id, RestrictionType.REQUIRE_CONSENT)));
      }),
    ),
    vendorLegitimateInterests: ascending(
      without(shown, decision.vendorObjections).filter((id) => {
        const vendor = vendorOf(id);
        // Vendors declaring only special purposes keep their legitimate-interest bit once disclosed (IAB's June 2021 clarification).
        return vendor.legIntPurposes.length > 0 || vendor.specialPurposes.length > 0 || (vendor.flexiblePurposes.length > 0 && restrictedTo(id, RestrictionType.REQUIRE_LI));
      }),
    ),
    vendorsDisclosed: ascending(shown),
    publisherConsents: ascending(decision.publisherConsents.filter((id) => settings.publisherPurposes.consent.includes(id))),
    publisherLegitimateInterests: ascending(without(settings.publisherPurposes.legitimateInterest, decision.publisherObjections).filter((id) => !consentOnlyPurposes.has(id))),
    publisherRestrictions: restrictions,
  };
}

/**
 * The TC string of the signals, service-specific, as of `at` (created and last updated: the decision's time, which
 * the string holds to the decisecond). `language` is the dialog's, one of the GVL's (`pt-br`): the library writes
 * ConsentLanguage from it.
 */
export function tcString(gvl: VendorList, signals: TcSignals, at: Date, language: string): string {
  const model = new TCModel(new GVL(gvl, { language }));
  model.cmpId = signals.cmpId;
  model.cmpVersion = signals.cmpVersion;
  model.consentScreen = 1;
  model.consentLanguage = signals.consentLanguage;
  model.publisherCountryCode = signals.publisherCountryCode;
  model.isServiceSpecific = true;
  model.purposeConsents.set(signals.purposeConsents);
  model.purposeLegitimateInterests.set(signals.purposeLegitimateInterests);
  model.specialFeatureOptins.set(signals.specialFeatureOptins);
  model.vendorConsents.set(signals.vendorConsents);
  model.vendorLegitimateInterests.set(signals.vendorLegitimateInterests);
  model.vendorsDisclosed.set(signals.vendorsDisclosed);
  model.publisherConsents.set(signals.publisherConsents);
  model.publisherLegitimateInterests.set(signals.publisherLegitimateInterests);
  for (const [hash, vendors] of Object.entries(signals.publisherRestrictions)) {
    const restriction = PurposeRestriction.unHash(hash);
    for (const id of vendors) model.publisherRestrictions.add(id, restriction);
  }
  model.created = at;
  model.lastUpdated = at;
  const hasPublisherPurposes = signals.publisherConsents.length + signals.publisherLegitimateInterests.length > 0;
  // disclosedVendors is mandatory from TCF 2.3; the publisher segment is written only where the publisher has purposes.
  return TCString.encode(model, { segments: [Segment.CORE, Segment.VENDORS_DISCLOSED, ...(hasPublisherPurposes ? [Segment.PUBLISHER_TC] : [])] });
}

/**
 * The signals a TC string carries, read back with IAB's library. A restriction is written as ranges over the GVL's
 * vendors (ids the GVL lacks between two vendors are free to join a range), so it is read back for the GVL's vendors.
 */
export function decodedSignals(string: string, gvl: VendorList): TcSignals {
  const model = TCString.decode(string);
  const ids = (vector: { forEach(callback: (value: boolean, id: number) => void): void }) => {
    const out: number[] = [];
    vector.forEach((value, id) => value && out.push(id));
    return out;
  };
  const restrictions: Record<string, number[]> = {};
  const listed = (id: number) => gvl.vendors[String(id)] !== undefined && !gvl.vendors[String(id)]!.deletedDate;
  for (const restriction of model.publisherRestrictions.getRestrictions()) {
    restrictions[restriction.hash] = ascending(model.publisherRestrictions.getVendors(restriction).filter(listed));
  }
  return {
    cmpId: Number(model.cmpId),
    cmpVersion: Number(model.cmpVersion),
    consentLanguage: model.consentLanguage,
    publisherCountryCode: model.publisherCountryCode,
    vendorListVersion: Number(model.vendorListVersion),
    policyVersion: Number(model.policyVersion),
    purposeConsents: ids(model.purposeConsents),
    purposeLegitimateInterests: ids(model.purposeLegitimateInterests),
    specialFeatureOptins: ids(model.specialFeatureOptins),
    vendorConsents: ids(model.vendorConsents),
    vendorLegitimateInterests: ids(model.vendorLegitimateInterests),
    vendorsDisclosed: ids(model.vendorsDisclosed),
    publisherConsents: ids(model.publisherConsents),
    publisherLegitimateInterests: ids(model.publisherLegitimateInterests),
    publisherRestrictions: restrictions,
  };
}

/**
 * Google's Additional Consent string, version 2 (Additional Consent Mode technical specification): `2~` the consented
 * providers `~dv.` the disclosed ones not consented to (the spec leaves the consented out of part 5), each list
 * ascending and dot-separated: the two together are every provider the dialog listed.
 */
export function acString(consented: number[], disclosed: number[]): string {
  const given = ascending(consented.filter((id) => disclosed.includes(id)));
  return `2~${given.join(".")}~dv.${without(ascending(disclosed), given).join(".")}`;
}

const acPart = (ac: string, part: RegExp) => (part.exec(ac)?.[1] ?? "").split(".").filter(Boolean).map(Number);

/** The providers an AC string consented to (none from one that is not version 2). */
export const acConsentsOf = (ac: string) => acPart(ac, /^2~([\d.]*)~/);

/** Every provider an AC string lists, consented to or only disclosed (part 5, `dv.`), ascending. */
export const acListedOf = (ac: string) => ascending([...acConsentsOf(ac), ...acPart(ac, /^2~[\d.]*~dv\.([\d.]*)$/)]);

/**
 * Google Consent Mode's types from the TC string's purposes, as Google documents for TCF ("Consent Mode and the
 * TCF": ad_storage and analytics_storage from purpose 1, ad_user_data from purposes 1 and 7, ad_personalization
 * from purposes 3 and 4).
 */
export function consentModeOf(purposeConsents: number[]) {
  const has = (...ids: number[]) => ids.every((id) => purposeConsents.includes(id));
  const state = (granted: boolean) => (granted ? "granted" : "denied");
  return {
    ad_storage: state(has(1)),
    analytics_storage: state(has(1)),
    ad_user_data: state(has(1, 7)),
    ad_personalization: state(has(3, 4)),
  } as const;
}
