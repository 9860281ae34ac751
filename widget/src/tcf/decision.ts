/**
 * The widget's decision as a TCF choice (docs/tcf.md#from-the-widgets-decision): the preferences ask about the
 * project's own purposes, each tagged with Google Consent Mode types; a TCF purpose follows the Consent Mode type
 * Google pairs it with for TCF, read the other way. Accept all grants every TCF purpose, Reject all none, and a custom
 * choice grants the TCF purposes whose type one of the switched-on purposes carries.
 */
import type { VendorList } from "@iabtechlabtcf/core";
import type { ConsentType, Purpose } from "../../../shared/browser/types";
import type { TcfDecision } from "./tc-string";

/**
 * Each TCF purpose's Consent Mode type: Google's TCF mapping (purpose 1 storage, 3 and 4 personalisation, 7 user
 * data) and, for the purposes it leaves out, the type of the same kind of processing (2 basic ads: ad data; 5, 6
 * and 11 content: personalisation; 8 to 10 measurement and research: analytics).
 */
const typeOfPurpose: Record<number, ConsentType> = {
  1: "ad_storage",
  2: "ad_user_data",
  3: "ad_personalization",
  4: "ad_personalization",
  5: "personalization_storage",
  6: "personalization_storage",
  7: "ad_user_data",
  8: "analytics_storage",
  9: "analytics_storage",
  10: "analytics_storage",
  11: "personalization_storage",
};

export type TcfChoice = TcfDecision & { acConsents: number[] };

/**
 * The TCF choice of the switches: `on(purpose)` says whether a consent purpose of the project is switched on. A TCF
 * purpose whose type no purpose of the project carries is granted only when every consent purpose is on (Accept all).
 * A refused purpose is also objected to on legitimate interest, and a vendor none of whose purposes is granted is
 * objected to: a "no" holds on every legal basis. Special features and Google's AC providers need everything on, and
 * purpose 1 (storage), respectively.
 */
export function tcfChoice(
  gvl: VendorList,
  settings: { publisherPurposes: { consent: number[]; legitimateInterest: number[] }; acProviders: number[] },
  purposes: Purpose[],
  on: (purpose: Purpose) => boolean,
): TcfChoice {
  const asked = purposes.filter((p) => p.legalGround === "consent");
  const everything = asked.every(on);
  const granted = (type: ConsentType) => {
    const carrying = asked.filter((p) => p.consentMode?.includes(type));
    return carrying.length ? carrying.some(on) : everything;
  };
  const all = Object.keys(gvl.purposes).map(Number);
  const yes = all.filter((id) => typeOfPurpose[id] && granted(typeOfPurpose[id]));
  const no = all.filter((id) => !yes.includes(id));
  const vendors = Object.values(gvl.vendors);
  return {
    purposeConsents: yes,
    purposeObjections: no,
    specialFeatureOptins: everything ? Object.keys(gvl.specialFeatures).map(Number) : [],
    vendorConsents: vendors.filter((v) => v.purposes.some((id) => yes.includes(id))).map((v) => v.id),
    vendorObjections: vendors.filter((v) => ![...v.purposes, ...v.legIntPurposes].some((id) => yes.includes(id))).map((v) => v.id),
    publisherConsents: settings.publisherPurposes.consent.filter((id) => yes.includes(id)),
    publisherObjections: settings.publisherPurposes.legitimateInterest.filter((id) => no.includes(id)),
    acConsents: yes.includes(1) ? settings.acProviders : [],
  };
}
