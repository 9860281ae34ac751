// The vendor catalogue (shared/vendors), entry by entry: its hosts are patterns the blocking list takes, no two
// vendors claim the same host, each consent call calls exactly the vendor's documented global with the documented
// arguments and nothing else, and never throws when the vendor's script has not run.
import { describe, expect, it } from "vitest";
import { isRule, patternCovers } from "../../shared/blocking/hosts";
import { vendorById, vendors } from "../../shared/vendors/catalogue";
import type { VendorPage } from "../../shared/vendors/types";
import { consentTypes } from "../../worker/consent-mode/settings";

/** What the issue asks for, at least. */
const required = [
  "google-analytics", "google-tag-manager", "google-ads", "meta-pixel", "tiktok-pixel", "linkedin-insight",
  "microsoft-clarity", "microsoft-uet", "hotjar", "matomo", "posthog", "mixpanel", "segment", "intercom", "hubspot",
  "youtube", "vimeo", "google-maps", "spotify", "plausible", "fathom",
];

type Call = [target: string, args: unknown[]];

/**
 * A page whose vendor globals are all present and record their calls: functions (`fbq`), objects with methods
 * (`ttq.grantConsent`, which must be called on their object) and command queues (`_paq.push`).
 */
function recordingPage() {
  const calls: Call[] = [];
  const fn = (target: string) => (...args: unknown[]) => void calls.push([target, args]);
  const object = (name: string, methods: string[]) => {
    const target: Record<string, unknown> = {};
    for (const method of methods) {
      target[method] = function (this: unknown, ...args: unknown[]) {
        calls.push([this === target ? `${name}.${method}` : `${method} on another this`, args]);
      };
    }
    return target;
  };
  const queue = (name: string) => ({ push: (...args: unknown[]) => void calls.push([`${name}.push`, args]) });
  const page: VendorPage = {
    fbq: fn("fbq"),
    clarity: fn("clarity"),
    gtag: fn("gtag"),
    ttq: object("ttq", ["grantConsent", "revokeConsent", "holdConsent", "track", "page"]),
    posthog: object("posthog", ["opt_in_capturing", "opt_out_capturing", "capture"]),
    mixpanel: object("mixpanel", ["opt_in_tracking", "opt_out_tracking", "track"]),
    uetq: queue("uetq"),
    _paq: queue("_paq"),
    _hsp: queue("_hsp"),
    _hsq: queue("_hsq"),
    dataLayer: queue("dataLayer"),
  };
  return { page, calls };
}

/** Each vendor's documented consent call (docs/blocking.md#the-vendor-catalogue links the vendors' pages). */
const documented: Record<string, { granted: Call[]; denied: Call[] }> = {
  "meta-pixel": { granted: [["fbq", ["consent", "grant"]]], denied: [["fbq", ["consent", "revoke"]]] },
  "tiktok-pixel": { granted: [["ttq.grantConsent", []]], denied: [["ttq.revokeConsent", []]] },
  "microsoft-clarity": {
    granted: [["clarity", ["consentv2", { ad_Storage: "granted", analytics_Storage: "granted" }]]],
    denied: [["clarity", ["consentv2", { ad_Storage: "denied", analytics_Storage: "denied" }]]],
  },
  "microsoft-uet": {
    granted: [["uetq.push", ["consent", "update", { ad_storage: "granted" }]]],
    denied: [["uetq.push", ["consent", "update", { ad_storage: "denied" }]]],
  },
  matomo: { granted: [["_paq.push", [["setConsentGiven"]]]], denied: [["_paq.push", [["forgetConsentGiven"]]]] },
  posthog: { granted: [["posthog.opt_in_capturing", []]], denied: [["posthog.opt_out_capturing", []]] },
  mixpanel: { granted: [["mixpanel.opt_in_tracking", []]], denied: [["mixpanel.opt_out_tracking", []]] },
  hubspot: { granted: [], denied: [["_hsp.push", [["revokeCookieConsent"]]]] },
};

describe("the vendor catalogue's entries", () => {
  it("has every vendor the issue names, each id once, in lower-kebab-case", () => {
    const ids = vendors.map((vendor) => vendor.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(id))).toEqual([]);
    expect(required.filter((id) => !vendorById.has(id))).toEqual([]);
    expect(vendors.length).toBeGreaterThanOrEqual(21);
  });

  it("lists hosts the blocking list takes, each claimed by one vendor only (no pattern of one covers another's host)", () => {
    const invalid = vendors.flatMap((vendor) => vendor.hosts.filter((host) => !isRule(host)).map((host) => `${vendor.id}: ${host}`));
    expect(invalid).toEqual([]);
    const all = vendors.flatMap((vendor) => vendor.hosts.map((host) => ({ vendor: vendor.id, host })));
    const overlaps = all.flatMap((a, i) =>
      all
        .filter((b, j) => i !== j && (a.host === b.host || patternCovers(a.host, b.host.replace(/^\*\./, "x."))))
        .map((b) => `${a.vendor} ${a.host} covers ${b.vendor} ${b.host}`),
    );
    expect(overlaps).toEqual([]);
    expect(vendors.filter((vendor) => vendor.hosts.length === 0).map((vendor) => vendor.id)).toEqual([]);
  });

  it("names cookies as names or trailing-* prefixes, purposes and Consent Mode types from their lists, and vendors that exist", () => {
    for (const vendor of vendors) {
      for (const cookie of vendor.cookies) expect(cookie, vendor.id).toMatch(/^[^\s*;=,]+\*?$/);
      expect(["functional", "analytics", "marketing"], vendor.id).toContain(vendor.purpose);
      expect(new Set(vendor.consentModeTypes).size, vendor.id).toBe(vendor.consentModeTypes.length);
      for (const type of vendor.consentModeTypes) expect(consentTypes, vendor.id).toContain(type);
      if (vendor.servedBy !== undefined) expect(vendorById.has(vendor.servedBy) && vendor.servedBy !== vendor.id, vendor.id).toBe(true);
      expect(vendor.privacyPolicy, vendor.id).toMatch(/^https:\/\//);
    }
  });

  it("marks the cookieless vendors (Plausible, Fathom): no cookies, no Consent Mode types, no consent call", () => {
    const cookieless = vendors.filter((vendor) => vendor.cookieless);
    expect(cookieless.map((vendor) => vendor.id).sort()).toEqual(["fathom", "plausible"]);
    for (const vendor of cookieless) {
      expect({ id: vendor.id, cookies: vendor.cookies, types: vendor.consentModeTypes, consent: vendor.consent }).toEqual({
        id: vendor.id,
        cookies: [],
        types: [],
        consent: undefined,
      });
    }
  });

  it("describes a consent call exactly where there is one", () => {
    for (const vendor of vendors) expect(vendor.consentCallDescription !== undefined, vendor.id).toBe(vendor.consent !== undefined);
  });
});

describe("the vendors' consent calls", () => {
  it("are the documented ones, and only those vendors have one", () => {
    expect(vendors.filter((vendor) => vendor.consent).map((vendor) => vendor.id).sort()).toEqual(Object.keys(documented).sort());
  });

  it.each(Object.entries(documented))("%s calls its own global with the documented arguments, and nothing else", (id, expected) => {
    for (const granted of [true, false]) {
      const { page, calls } = recordingPage();
      vendorById.get(id)!.consent!(granted, page);
      expect({ granted, calls }).toEqual({ granted, calls: granted ? expected.granted : expected.denied });
    }
  });

  it.each(Object.keys(documented))("%s never throws when its global is missing or not what it expects", (id) => {
    const consent = vendorById.get(id)!.consent!;
    const odd: VendorPage[] = [
      {},
      { fbq: 42, ttq: null, clarity: "x", posthog: {}, mixpanel: 7, uetq: "x", _paq: 1, _hsp: null },
      { ttq: { grantConsent: 1, revokeConsent: "x" }, posthog: null, mixpanel: { opt_in_tracking: null }, uetq: {}, _paq: {}, _hsp: {} },
    ];
    for (const page of odd) {
      expect(() => consent(true, page), `${id} granted on ${JSON.stringify(page)}`).not.toThrow();
      expect(() => consent(false, page), `${id} denied on ${JSON.stringify(page)}`).not.toThrow();
    }
  });

  it("queues the call for vendors with a command queue whose script has not run yet (the vendors' own snippet pattern)", () => {
    const page: VendorPage = {};
    vendorById.get("matomo")!.consent!(true, page);
    vendorById.get("microsoft-uet")!.consent!(false, page);
    vendorById.get("hubspot")!.consent!(false, page);
    expect(page).toEqual({ _paq: [["setConsentGiven"]], uetq: ["consent", "update", { ad_storage: "denied" }], _hsp: [["revokeCookieConsent"]] });
  });

  it("creates no globals for vendors called as functions or objects whose script has not run", () => {
    const page: VendorPage = {};
    for (const id of ["meta-pixel", "tiktok-pixel", "microsoft-clarity", "posthog", "mixpanel"]) {
      vendorById.get(id)!.consent!(true, page);
      vendorById.get(id)!.consent!(false, page);
    }
    expect(page).toEqual({});
  });
});
