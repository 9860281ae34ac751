import type { Vendor, VendorPage } from "./types";

/** Calls `page[name](...args)` when the vendor's global is a function (its snippet ran), else nothing. */
const callGlobal = (page: VendorPage, name: string, ...args: unknown[]) => {
  const fn = page[name];
  if (typeof fn === "function") fn(...args);
};

const grantedOrDenied = (granted: boolean) => (granted ? "granted" : "denied");

/** The vendors Assent knows, by id. Add one by appending an entry; the catalogue test checks every field. */
export const vendors: Vendor[] = [
  {
    id: "google-analytics",
    name: "Google Analytics 4 (gtag.js)",
    company: "Google",
    privacyPolicy: "https://policies.google.com/privacy",
    hosts: ["www.googletagmanager.com", "*.google-analytics.com", "analytics.google.com"],
    cookies: ["_ga", "_ga_*", "_gid", "_gat*"],
    purpose: "analytics",
    consentModeTypes: ["analytics_storage"],
    // gtag reads Consent Mode, which the widget already sends (docs/widget.md#consent-mode).
  },
  {
    id: "meta-pixel",
    name: "Meta Pixel",
    company: "Meta Platforms",
    privacyPolicy: "https://www.facebook.com/privacy/policy/",
    hosts: ["connect.facebook.net", "www.facebook.com"],
    cookies: ["_fbp", "_fbc", "fr"],
    purpose: "marketing",
    consentModeTypes: ["ad_storage", "ad_user_data", "ad_personalization"],
    consent: (granted, page) => callGlobal(page, "fbq", "consent", granted ? "grant" : "revoke"),
    consentCallDescription: "fbq('consent', 'grant'|'revoke')",
  },
  {
    id: "microsoft-clarity",
    name: "Microsoft Clarity",
    company: "Microsoft",
    privacyPolicy: "https://privacy.microsoft.com/privacystatement",
    hosts: ["www.clarity.ms", "*.clarity.ms"],
    cookies: ["_clck", "_clsk", "CLID", "MUID"],
    purpose: "analytics",
    consentModeTypes: ["analytics_storage"],
    // Enforced in the EEA, UK and CH since 31 Oct 2025 (https://learn.microsoft.com/clarity/setup-and-installation/clarity-consent-api-v2).
    consent: (granted, page) =>
      callGlobal(page, "clarity", "consentv2", { ad_Storage: grantedOrDenied(granted), analytics_Storage: grantedOrDenied(granted) }),
    consentCallDescription: "clarity('consentv2', { ad_Storage, analytics_Storage: 'granted'|'denied' })",
  },
  {
    id: "youtube",
    name: "YouTube",
    company: "Google",
    privacyPolicy: "https://policies.google.com/privacy",
    hosts: ["www.youtube.com", "www.youtube-nocookie.com", "*.ytimg.com"],
    cookies: ["VISITOR_INFO1_LIVE", "YSC", "PREF"],
    purpose: "marketing",
    consentModeTypes: ["ad_storage"],
    embed: "video",
  },
];

/** The catalogue by id. */
export const vendorById: ReadonlyMap<string, Vendor> = new Map(vendors.map((vendor) => [vendor.id, vendor]));
