/**
 * When the TCF dialog asks a returning visitor again (docs/tcf.md#when-the-dialog-shows-again). The Tech Lab's TC
 * string spec leaves it to the CMP and the publisher ("The timing and reasons for resurfacing the interface to users
 * is at the discretion of the CMP and the publisher", *The Global Vendor List*), but requires it when the TCF Policies
 * changed (`TcfPolicyVersion`, *Global Vendor List and TCF Policy Updates*); the Policies ask it when what the visitor
 * chose about no longer covers what is sought. So the layer opens again when the visitor's kept string
 * - disclosed other vendors than the project's now (a vendor added or taken away), or its AC string other Google Ad
 *   Tech Providers than the project's now (a provider's consent is given to it by name, as a vendor's is), or
 * - was made under another TCF policy version than the current GVL's, or
 * - was made before the GVL extended what is asked: a purpose or special feature the GVL did not define, a vendor of
 *   the project declaring a purpose, a legitimate interest or a special feature it did not declare, or the publisher
 *   seeking a purpose it did not seek then.
 * A new `vendorListVersion` alone (IAB publishes one every week) does not, nor anything only narrowing what is asked,
 * nor the wording, retention, URLs, features and special purposes (disclosed, not chosen).
 */
import { TCString, type VendorList } from "@iabtechlabtcf/core";
import { acListedOf } from "./tc-string";

/** What a visitor was asked about: the GVL's purposes and special features, and what each party sought, as `c1` (consent), `l2` (legitimate interest), `f1` (special feature). */
export type Asked = { purposes: number[]; specialFeatures: number[]; parties: Record<string, string[]> };

type PublisherPurposes = { consent: number[]; legitimateInterest: number[] };

const ids = (map: object) => Object.keys(map).map(Number);
const tagged = (tag: string, list: number[]) => list.map((id) => `${tag}${id}`);

/** What the dialog asks with this list about the vendors disclosed and the publisher's own purposes. */
export function askedOf(list: Pick<VendorList, "purposes" | "specialFeatures" | "vendors">, vendors: number[], publisher: PublisherPurposes): Asked {
  const parties: Record<string, string[]> = { publisher: [...tagged("c", publisher.consent), ...tagged("l", publisher.legitimateInterest)] };
  for (const id of vendors) {
    const vendor = list.vendors[String(id)];
    if (vendor) parties[String(id)] = [...tagged("c", vendor.purposes), ...tagged("l", vendor.legIntPurposes), ...tagged("f", vendor.specialFeatures)];
  }
  return { purposes: ids(list.purposes), specialFeatures: ids(list.specialFeatures), parties };
}

/** Whether `now` asks about something `before` did not: a new purpose or special feature, or a party seeking more. */
export function asksMore(before: Asked, now: Asked): boolean {
  const beyond = <T>(was: T[] | undefined, is: T[]) => is.some((item) => !(was ?? []).includes(item));
  return (
    beyond(before.purposes, now.purposes) ||
    beyond(before.specialFeatures, now.specialFeatures) ||
    Object.entries(now.parties).some(([party, sought]) => beyond(before.parties[party], sought))
  );
}

/** What this device keeps beside the widget's decision: the strings last written, the vendors they disclosed and what was asked. */
export type Kept = { tcString: string; acString: string; vendors: number[]; asked?: Asked };

/**
 * Whether the visitor must be asked again (the rules above); `providers` are the project's Ad Tech Providers now. A string kept before `asked` was (none from before this
 * rule) is held to the vendors and the policy version only; one that does not decode is asked again.
 */
export function mustAskAgain(kept: Kept | undefined, list: Pick<VendorList, "tcfPolicyVersion">, now: Asked, disclosed: number[], providers: number[]): boolean {
  if (!kept || kept.vendors.join() !== disclosed.join()) return true;
  if (acListedOf(kept.acString).join() !== [...providers].sort((a, b) => a - b).join()) return true;
  try {
    if (TCString.decode(kept.tcString).policyVersion !== list.tcfPolicyVersion) return true;
  } catch {
    return true;
  }
  return kept.asked !== undefined && asksMore(kept.asked, now);
}
