/**
 * The vendor catalogue's shape: what the Worker serves (hosts, cookies, purposes, Consent Mode types), what the
 * portal's vendor picker creates purposes from, and what the page-side blocker runs on every decision (`consent`).
 * Catalogue entries are data; only `consent` is code, and it runs on the page, so it may touch nothing but the
 * vendor's own globals on `page`.
 */
import type { ConsentType } from "../consent-mode/types";

/** The default purpose a vendor's tags serve, as the scanner's categories name them. */
export const vendorPurposes = ["functional", "analytics", "marketing"] as const;
export type VendorPurpose = (typeof vendorPurposes)[number];

/**
 * The page as a vendor's consent call sees it: its globals (`window`), which may or may not have loaded. Typed
 * without the DOM so the Worker, which serves the catalogue, compiles it too.
 */
export type VendorPage = Record<string, unknown>;

export type Vendor = {
  /** Stable key, lower-kebab-case (`meta-pixel`): blocking entries and the portal refer to it. */
  id: string;
  name: string;
  /** Who receives the data (the placeholder says "this shares data with {company}"). */
  company: string;
  privacyPolicy: string;
  /** Hosts its scripts, iframes and pixels load from; `*.example.com` covers every subdomain, not example.com itself. */
  hosts: string[];
  /** Cookie names it sets; a trailing `*` is a prefix (`_ga_*`). */
  cookies: string[];
  purpose: VendorPurpose;
  consentModeTypes: ConsentType[];
  /**
   * The vendor whose hosts serve this one's script (gtag.js for Google Analytics and Google Ads comes from Google Tag
   * Manager's host): the portal's picker adds that vendor's hosts too, since a host is listed once.
   */
  servedBy?: string;
  /** Measures without cookies or personal data (Plausible, Fathom): listed so the portal can say it needs no consent. */
  cookieless?: true;
  /** Content shown in an iframe: blocked iframes of it get a click-to-load placeholder naming this kind. */
  embed?: "video" | "map" | "audio";
  /**
   * The vendor's own consent call, run on every decision with whether its purpose may be used. It runs on the
   * page, guarded by the caller (a throw never reaches the widget).
   */
  consent?: (granted: boolean, page: VendorPage) => void;
  /** What `consent` calls, in the vendor's words (`fbq('consent', 'grant'|'revoke')`): the API and the portal show it. */
  consentCallDescription?: string;
};
