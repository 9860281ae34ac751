import type { Vendor, VendorPage } from "./types";

/** Calls `page[name](...args)` when the vendor's global is a function (its snippet ran), else nothing. */
const callGlobal = (page: VendorPage, name: string, ...args: unknown[]) => {
  const fn = page[name];
  if (typeof fn === "function") fn(...args);
};

/** Calls `page[name][method](...args)` when the vendor's object has that method (its snippet or library ran), else nothing. */
const callMethod = (page: VendorPage, name: string, method: string, ...args: unknown[]) => {
  const target = page[name] as Record<string, unknown> | null | undefined;
  const fn = typeof target === "object" || typeof target === "function" ? target?.[method] : undefined;
  if (typeof fn === "function") fn.call(target, ...args);
};

/**
 * Pushes onto a vendor's command queue, creating it when the page has not yet (`window._paq = window._paq || []`,
 * as the vendors' own snippets do): the vendor's script reads the queue when it loads, so a decision made before
 * that still counts. A queue that is neither missing nor pushable is left alone.
 */
const pushTo = (page: VendorPage, name: string, ...items: unknown[]) => {
  page[name] ??= [];
  const queue = page[name] as { push?: unknown };
  if (typeof queue?.push === "function") queue.push(...items);
};

const grantedOrDenied = (granted: boolean) => (granted ? "granted" : "denied");

/** The vendors Assent knows, by id. Add one by appending an entry; test/vendors checks every field. */
export const vendors: Vendor[] = [
  {
    id: "google-tag-manager",
    name: "Google Tag Manager",
    company: "Google",
    privacyPolicy: "https://policies.google.com/privacy",
    hosts: ["www.googletagmanager.com"],
    cookies: [],
    purpose: "analytics",
    consentModeTypes: ["analytics_storage"],
    // Its tags read Consent Mode, which the widget sends (docs/jurisdictions.md#google-consent-mode-v2).
  },
  {
    id: "google-analytics",
    name: "Google Analytics 4 (gtag.js)",
    company: "Google",
    privacyPolicy: "https://policies.google.com/privacy",
    hosts: ["*.google-analytics.com", "analytics.google.com"],
    cookies: ["_ga", "_ga_*", "_gid", "_gat*"],
    purpose: "analytics",
    consentModeTypes: ["analytics_storage"],
    servedBy: "google-tag-manager",
  },
  {
    id: "google-ads",
    name: "Google Ads",
    company: "Google",
    privacyPolicy: "https://policies.google.com/privacy",
    hosts: ["www.googleadservices.com", "*.doubleclick.net", "pagead2.googlesyndication.com"],
    cookies: ["_gcl_*", "IDE", "test_cookie"],
    purpose: "marketing",
    consentModeTypes: ["ad_storage", "ad_user_data", "ad_personalization"],
    servedBy: "google-tag-manager",
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
    id: "tiktok-pixel",
    name: "TikTok Pixel",
    company: "TikTok",
    privacyPolicy: "https://www.tiktok.com/legal/page/eea/privacy-policy/en",
    hosts: ["analytics.tiktok.com"],
    cookies: ["_ttp", "_tt_enable_cookie", "ttcsid*"],
    purpose: "marketing",
    consentModeTypes: ["ad_storage", "ad_user_data", "ad_personalization"],
    consent: (granted, page) => callMethod(page, "ttq", granted ? "grantConsent" : "revokeConsent"),
    consentCallDescription: "ttq.grantConsent() | ttq.revokeConsent()",
  },
  {
    id: "linkedin-insight",
    name: "LinkedIn Insight Tag",
    company: "LinkedIn",
    privacyPolicy: "https://www.linkedin.com/legal/privacy-policy",
    hosts: ["snap.licdn.com", "px.ads.linkedin.com"],
    cookies: ["li_fat_id", "li_sugr", "lidc", "bcookie", "UserMatchHistory", "AnalyticsSyncHistory"],
    purpose: "marketing",
    consentModeTypes: ["ad_storage", "ad_user_data", "ad_personalization"],
  },
  {
    id: "microsoft-clarity",
    name: "Microsoft Clarity",
    company: "Microsoft",
    privacyPolicy: "https://privacy.microsoft.com/privacystatement",
    hosts: ["*.clarity.ms"],
    cookies: ["_clck", "_clsk", "CLID", "ANONCHK"],
    purpose: "analytics",
    consentModeTypes: ["analytics_storage"],
    // Enforced in the EEA, UK and CH since 31 Oct 2025 (https://learn.microsoft.com/clarity/setup-and-installation/clarity-consent-api-v2).
    consent: (granted, page) =>
      callGlobal(page, "clarity", "consentv2", { ad_Storage: grantedOrDenied(granted), analytics_Storage: grantedOrDenied(granted) }),
    consentCallDescription: "clarity('consentv2', { ad_Storage, analytics_Storage: 'granted'|'denied' })",
  },
  {
    id: "microsoft-uet",
    name: "Microsoft Advertising UET",
    company: "Microsoft",
    privacyPolicy: "https://privacy.microsoft.com/privacystatement",
    hosts: ["bat.bing.com"],
    cookies: ["_uetsid", "_uetvid", "_uetmsclkid", "MUID"],
    purpose: "marketing",
    consentModeTypes: ["ad_storage"],
    consent: (granted, page) => pushTo(page, "uetq", "consent", "update", { ad_storage: grantedOrDenied(granted) }),
    consentCallDescription: "uetq.push('consent', 'update', { ad_storage: 'granted'|'denied' })",
  },
  {
    id: "hotjar",
    name: "Hotjar",
    company: "Hotjar (Contentsquare)",
    privacyPolicy: "https://www.hotjar.com/legal/policies/privacy/",
    hosts: ["*.hotjar.com", "*.hotjar.io"],
    cookies: ["_hjSessionUser_*", "_hjSession_*", "_hjHasCachedUserAttributes", "_hjTLDTest"],
    purpose: "analytics",
    consentModeTypes: ["analytics_storage"],
  },
  {
    id: "matomo",
    name: "Matomo",
    company: "InnoCraft (Matomo Cloud), or the site itself when self-hosted",
    privacyPolicy: "https://matomo.org/privacy-policy/",
    hosts: ["*.matomo.cloud"],
    cookies: ["_pk_id*", "_pk_ses*", "_pk_ref*", "mtm_consent*"],
    purpose: "analytics",
    consentModeTypes: ["analytics_storage"],
    // Takes effect where the page's snippet pushes ['requireConsent'] (https://developer.matomo.org/guides/tracking-consent).
    consent: (granted, page) => pushTo(page, "_paq", [granted ? "setConsentGiven" : "forgetConsentGiven"]),
    consentCallDescription: "_paq.push(['setConsentGiven'|'forgetConsentGiven'])",
  },
  {
    id: "posthog",
    name: "PostHog",
    company: "PostHog",
    privacyPolicy: "https://posthog.com/privacy",
    hosts: ["*.posthog.com"],
    cookies: ["ph_*"],
    purpose: "analytics",
    consentModeTypes: ["analytics_storage"],
    consent: (granted, page) => callMethod(page, "posthog", granted ? "opt_in_capturing" : "opt_out_capturing"),
    consentCallDescription: "posthog.opt_in_capturing() | posthog.opt_out_capturing()",
  },
  {
    id: "mixpanel",
    name: "Mixpanel",
    company: "Mixpanel",
    privacyPolicy: "https://mixpanel.com/legal/privacy-policy/",
    hosts: ["cdn.mxpnl.com", "*.mixpanel.com"],
    cookies: ["mp_*"],
    purpose: "analytics",
    consentModeTypes: ["analytics_storage"],
    consent: (granted, page) => callMethod(page, "mixpanel", granted ? "opt_in_tracking" : "opt_out_tracking"),
    consentCallDescription: "mixpanel.opt_in_tracking() | mixpanel.opt_out_tracking()",
  },
  {
    id: "segment",
    name: "Segment",
    company: "Twilio",
    privacyPolicy: "https://www.twilio.com/en-us/legal/privacy",
    hosts: ["cdn.segment.com", "api.segment.io"],
    cookies: ["ajs_anonymous_id", "ajs_user_id", "ajs_group_id"],
    purpose: "analytics",
    consentModeTypes: ["analytics_storage"],
  },
  {
    id: "intercom",
    name: "Intercom",
    company: "Intercom",
    privacyPolicy: "https://www.intercom.com/legal/privacy",
    hosts: ["*.intercom.io", "*.intercomcdn.com"],
    cookies: ["intercom-id-*", "intercom-session-*", "intercom-device-id-*"],
    purpose: "functional",
    consentModeTypes: ["functionality_storage"],
  },
  {
    id: "hubspot",
    name: "HubSpot",
    company: "HubSpot",
    privacyPolicy: "https://legal.hubspot.com/privacy-policy",
    hosts: ["*.hs-scripts.com", "*.hs-analytics.net", "*.hs-banner.com", "*.hscollectedforms.net", "*.hsadspixel.net"],
    cookies: ["__hstc", "hubspotutk", "__hssc", "__hssrc"],
    purpose: "marketing",
    consentModeTypes: ["ad_storage", "ad_user_data", "ad_personalization"],
    // HubSpot documents a call for withdrawal only: it removes its cookies (developers.hubspot.com, cookie banner API).
    consent: (granted, page) => {
      if (!granted) pushTo(page, "_hsp", ["revokeCookieConsent"]);
    },
    consentCallDescription: "_hsp.push(['revokeCookieConsent']) on withdrawal",
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
  {
    id: "vimeo",
    name: "Vimeo",
    company: "Vimeo",
    privacyPolicy: "https://vimeo.com/privacy",
    hosts: ["player.vimeo.com", "*.vimeocdn.com"],
    cookies: ["vuid"],
    purpose: "analytics",
    consentModeTypes: ["analytics_storage"],
    embed: "video",
  },
  {
    id: "google-maps",
    name: "Google Maps",
    company: "Google",
    privacyPolicy: "https://policies.google.com/privacy",
    hosts: ["maps.googleapis.com", "maps.gstatic.com", "maps.google.com", "www.google.com/maps/embed"],
    cookies: ["NID"],
    purpose: "functional",
    consentModeTypes: ["functionality_storage"],
    embed: "map",
  },
  {
    id: "spotify",
    name: "Spotify embeds",
    company: "Spotify",
    privacyPolicy: "https://www.spotify.com/legal/privacy-policy/",
    hosts: ["open.spotify.com", "embed.spotify.com"],
    cookies: ["sp_t", "sp_landing"],
    purpose: "marketing",
    consentModeTypes: ["ad_storage"],
    embed: "audio",
  },
  {
    id: "plausible",
    name: "Plausible Analytics",
    company: "Plausible Insights",
    privacyPolicy: "https://plausible.io/privacy",
    hosts: ["plausible.io"],
    cookies: [],
    purpose: "analytics",
    consentModeTypes: [],
    cookieless: true,
  },
  {
    id: "fathom",
    name: "Fathom Analytics",
    company: "Conva Ventures (Fathom)",
    privacyPolicy: "https://usefathom.com/privacy",
    hosts: ["cdn.usefathom.com"],
    cookies: [],
    purpose: "analytics",
    consentModeTypes: [],
    cookieless: true,
  },
];

/** The catalogue by id. */
export const vendorById: ReadonlyMap<string, Vendor> = new Map(vendors.map((vendor) => [vendor.id, vendor]));
