// The scanner's matching of names and hosts against the Open Cookie Database, and its site boundaries: plain Node.
import { describe, expect, it } from "vitest";
import { classifyHost, classifyName, cookieDatabase, essential, purposeOf } from "../../scanner/classify";
import { vendors } from "../../shared/vendors/catalogue";
import { siteOf } from "../../scanner/sites";

describe("cookie and storage names", () => {
  it("matches exact names", () => {
    expect(classifyName("_ga")).toEqual({ category: "analytics", vendor: "Google Analytics" });
    expect(classifyName("_fbp")).toEqual({ category: "marketing", vendor: "Facebook" });
    expect(classifyName("XSRF-TOKEN")).toMatchObject({ category: "security" });
  });

  it("matches wildcard entries as prefixes, the longest first", () => {
    expect(classifyName("_ga_ABC123")).toEqual({ category: "analytics", vendor: "Google Analytics" });
    expect(classifyName("_hjSession_1")).toEqual({ category: "functional", vendor: "Hotjar" });
    expect(classifyName("_hjSessionUser_1")).toEqual({ category: "functional", vendor: "Hotjar" });
  });

  it("does not stretch an exact name into a prefix", () => {
    expect(classifyName("_gax")).toEqual({ category: "unclassified", vendor: null });
    expect(classifyName("_g")).toEqual({ category: "unclassified", vendor: null });
  });

  it("answers unclassified for names the database does not know", () => {
    expect(classifyName("shop_cart")).toEqual({ category: "unclassified", vendor: null });
    expect(classifyName("")).toEqual({ category: "unclassified", vendor: null });
  });

  it("prefers the entry naming the cookie's domain when several share a name", () => {
    // Adform's `token` (marketing, adform.net) is listed before Xandr's (functional, .adnxs.com).
    expect(classifyName("token", ".adnxs.com")).toEqual({ category: "functional", vendor: "Xandr" });
    expect(classifyName("token", "ib.adnxs.com")).toEqual({ category: "functional", vendor: "Xandr" });
    expect(classifyName("token", ".adform.net")).toEqual({ category: "marketing", vendor: "Adform" });
    expect(classifyName("token", "shop.example")).toEqual({ category: "marketing", vendor: "Adform" });
  });

  it("names the database revision the categories come from", () => {
    expect(cookieDatabase).toEqual({ name: "Open Cookie Database", revision: "0ee5a17" });
  });
});

describe("hosts", () => {
  it("classifies known trackers and hosts under the database's domains", () => {
    expect(classifyHost("www.google-analytics.com")).toMatchObject({ category: "analytics" });
    expect(classifyHost("connect.facebook.net")).toMatchObject({ category: "marketing", vendor: "Meta Pixel" });
    expect(classifyHost("stats.g.doubleclick.net")).toMatchObject({ category: "marketing" });
    expect(classifyHost("px.ads.linkedin.com")).not.toMatchObject({ category: "unclassified" });
  });

  it("classifies every host of the vendor catalogue as its vendor, with the vendor's purpose", () => {
    const misclassified = vendors.flatMap((vendor) =>
      vendor.hosts
        .map((pattern) => pattern.replace(/^\*\./, "tag."))
        .filter((host) => JSON.stringify(classifyHost(host)) !== JSON.stringify({ category: vendor.purpose, vendor: vendor.name }))
        .map((host) => `${host}: ${JSON.stringify(classifyHost(host))}, catalogue says ${vendor.purpose} ${vendor.name}`),
    );
    expect(misclassified).toEqual([]);
  });

  it("matches whole labels only and lists the unknown as unclassified", () => {
    expect(classifyHost("notdoubleclick.net")).toEqual({ category: "unclassified", vendor: null });
    expect(classifyHost("cdn.shop.example")).toEqual({ category: "unclassified", vendor: null });
  });
});

describe("purposes", () => {
  it("maps each non-essential category to a purpose with its Consent Mode types; necessary and security need none", () => {
    expect(purposeOf.analytics.consentModeTypes).toEqual(["analytics_storage"]);
    expect(purposeOf.marketing.consentModeTypes).toEqual(["ad_storage", "ad_user_data", "ad_personalization"]);
    expect(purposeOf.functional.consentModeTypes).toEqual(["functionality_storage"]);
    expect(purposeOf.personalization.consentModeTypes).toEqual(["personalization_storage"]);
    expect(["necessary", "security"].every((c) => essential(c as "necessary"))).toBe(true);
    expect(essential("unclassified")).toBe(false);
  });
});

describe("sites", () => {
  it("puts subdomains of one registrable name in one site, localhost names under localhost as under a public suffix", () => {
    expect(siteOf("www.shop.example")).toBe("shop.example");
    expect(siteOf("blog.shop.example")).toBe("shop.example");
    expect(siteOf(".shop.example")).toBe("shop.example");
    expect(siteOf("www.shop.co.uk")).toBe("shop.co.uk");
    expect(siteOf("ads.localhost")).not.toBe(siteOf("localhost"));
    expect(siteOf("ads.localhost")).not.toBe(siteOf("shop.localhost"));
    expect(siteOf("blog.shop.localhost")).toBe("shop.localhost");
    expect(siteOf("127.0.0.1")).toBe("127.0.0.1");
  });
});
