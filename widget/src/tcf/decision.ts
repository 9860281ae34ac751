/**
 * The visitor's TCF choice from the dialog's TCF toggles (docs/tcf.md#from-the-widgets-decision): a consent toggle
 * per purpose, special feature and vendor, and a right-to-object toggle per purpose and vendor that rests on
 * legitimate interest. Accept all turns every consent on and objects to nothing, Reject all the reverse; a custom
 * choice is what the toggles say. The project's own purposes are answered beside them, as on every project.
 */
import type { VendorList } from "@iabtechlabtcf/core";
import type { FirstLayer } from "../../../shared/tcf/first-layer";
import { basesOf, type Restriction } from "./restrictions";
import type { TcfDecision, TcSignals } from "./tc-string";

/** The toggles, as ascending id lists: what is consented to, and what is objected to on legitimate interest. */
export type Toggles = {
  purposes: number[];
  objections: number[];
  specialFeatures: number[];
  vendors: number[];
  vendorObjections: number[];
  /** Google's Ad Tech Providers switched on (the AC string's consented providers, with purpose 1). */
  acProviders: number[];
};

export type TcfChoice = TcfDecision & { acConsents: number[] };

/** The vendors the dialog lists: the project's, as far as the GVL still has them (the TC string discloses exactly these). */
export const listedVendors = (list: VendorList, vendors: number[]) =>
  vendors.flatMap((id) => {
    const vendor = list.vendors[String(id)];
    return vendor && !vendor.deletedDate ? [vendor] : [];
  });

/** A vendor the visitor can object to: it rests some purpose on legitimate interest, after the publisher's restrictions. */
export const objectable = (vendor: VendorList["vendors"][string], restrictions: Restriction[]) => basesOf(vendor, restrictions).legitimateInterest.length > 0;

/** Accept all (`on`) or Reject all: every consent on and nothing objected to, or no consent and every objection. */
export function everything(list: VendorList, vendors: number[], layer: FirstLayer, on: boolean, acProviders: number[]): Toggles {
  const listed = listedVendors(list, vendors);
  return on
    ? { purposes: layer.purposes.map((p) => p.id), objections: [], specialFeatures: layer.specialFeatures.map((f) => f.id), vendors: listed.map((v) => v.id), vendorObjections: [], acProviders }
    : { purposes: [], objections: Object.keys(list.purposes).map(Number), specialFeatures: [], vendors: [], vendorObjections: listed.map((v) => v.id), acProviders: [] };
}

/**
 * The toggles a kept TC string stands for (a returning visitor sees what they chose): its consents, and an objection
 * wherever legitimate interest could have been signalled and was not; the providers the kept AC string consented to.
 */
export function togglesOf(
  signals: TcSignals,
  list: VendorList,
  { vendors, publisherRestrictions }: { vendors: number[]; publisherRestrictions: Restriction[] },
  layer: FirstLayer,
  acConsents: number[],
): Toggles {
  return {
    purposes: signals.purposeConsents,
    objections: layer.legitimateInterestPurposes.filter((id) => !signals.purposeLegitimateInterests.includes(id)),
    specialFeatures: signals.specialFeatureOptins,
    vendors: signals.vendorConsents,
    vendorObjections: listedVendors(list, vendors)
      .filter((v) => objectable(v, publisherRestrictions) && !signals.vendorLegitimateInterests.includes(v.id))
      .map((v) => v.id),
    acProviders: acConsents,
  };
}

/**
 * The TCF choice of the toggles. The publisher's purposes follow the purposes' toggles; Google's AC providers have
 * their own toggles, and consent to one also needs purpose 1 (storing and accessing information on the device):
 * Google's AC spec includes a provider only where the visitor consented to its cookies or other local storage.
 */
export function tcfChoice(settings: { publisherPurposes: { consent: number[]; legitimateInterest: number[] }; acProviders: number[] }, toggles: Toggles): TcfChoice {
  return {
    purposeConsents: toggles.purposes,
    purposeObjections: toggles.objections,
    specialFeatureOptins: toggles.specialFeatures,
    vendorConsents: toggles.vendors,
    vendorObjections: toggles.vendorObjections,
    publisherConsents: settings.publisherPurposes.consent.filter((id) => toggles.purposes.includes(id)),
    publisherObjections: settings.publisherPurposes.legitimateInterest.filter((id) => toggles.objections.includes(id)),
    acConsents: toggles.purposes.includes(1) ? settings.acProviders.filter((id) => toggles.acProviders.includes(id)) : [],
  };
}

/** The toggles with one id in or out of one of their lists, kept ascending. */
export const flipped = (toggles: Toggles, key: keyof Toggles, id: number, on: boolean): Toggles => ({
  ...toggles,
  [key]: on ? [...new Set([...toggles[key], id])].sort((a, b) => a - b) : toggles[key].filter((i) => i !== id),
});
