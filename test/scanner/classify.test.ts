// The scanner's matching of names and hosts against the Open Cookie Database, and its site boundaries: plain Node.
import { describe, expect, it } from "vitest";
import { categoryMapping, classifyHost, classifyName, cookieDatabase, essential, purposeOf } from "../../scanner/classify";
import { vendors } from "../../shared/vendors/catalogue";
import { siteOf } from "../../scanner/sites";

describe("cookie and storage names", () => {
  it("matches exact names", () => {
    expect(classifyName("_gid")).toMatchObject({ category: "analytics" });
    expect(classifyName("_pin_unauth")).toMatchObject({ category: "marketing", vendor: "Pinterest", source: "Open Cookie Database: Marketing" });
    expect(classifyName("XSRF-TOKEN")).toMatchObject({ category: "security" });
  });

  it("matches wildcard entries as prefixes, the longest first", () => {
    expect(classifyName("_gac_UA-1234")).toMatchObject({ category: "marketing", source: "Open Cookie Database: Marketing" });
    expect(classifyName("_hjSession_1")).toMatchObject({ category: "analytics", vendor: "Hotjar" });
  });

  it("maps the database's categories as its README defines them: Functional is strictly necessary", () => {
    // Failed before: PHPSESSID and AWSALB were `functional`, a category that needs consent.
    expect(classifyName("PHPSESSID")).toEqual({ category: "necessary", vendor: "PHP.net", source: "Open Cookie Database: Functional" });
    expect(classifyName("AWSALB")).toEqual({ category: "necessary", vendor: "Amazon Web Services", source: "Open Cookie Database: Functional" });
    expect(classifyName("JSESSIONID")).toMatchObject({ category: "necessary" });
    expect(essential(classifyName("PHPSESSID").category)).toBe(true);
    expect(categoryMapping).toEqual({
      Functional: "necessary", Necessary: "necessary", Security: "security", Analytics: "analytics", Marketing: "marketing", Personalization: "personalization",
    });
  });

  it("takes the vendor catalogue's purpose over the database's category where the catalogue knows the cookie", () => {
    // Failed before: Hotjar's user id was `functional` (the database's Functional, mapped as consent-needing).
    expect(classifyName("_hjSessionUser_1")).toEqual({ category: "analytics", vendor: "Hotjar", source: "vendor catalogue: Hotjar" });
    expect(classifyName("_ga")).toEqual({ category: "analytics", vendor: "Google Analytics 4 (gtag.js)", source: "vendor catalogue: Google Analytics 4 (gtag.js)" });
    expect(classifyName("_ga_ABC123")).toMatchObject({ category: "analytics", source: "vendor catalogue: Google Analytics 4 (gtag.js)" });
    // The database calls DoubleClick's test_cookie Functional; the catalogue knows it as Google Ads', marketing.
    expect(classifyName("test_cookie", ".doubleclick.net")).toMatchObject({ category: "marketing", vendor: "Google Ads" });
    // A cookie the catalogue does not name, on a host of one of its vendors, is that vendor's.
    expect(classifyName("_hjIncludedInSessionSample_123", ".hotjar.com")).toMatchObject({ category: "analytics", vendor: "Hotjar" });
    // Every cookie the catalogue names is classified as the catalogue says.
    const disagree = vendors.flatMap((vendor) =>
      vendor.cookies
        .map((pattern) => pattern.replace(/\*$/, "x1"))
        .filter((name) => classifyName(name).category !== vendor.purpose)
        .map((name) => `${name}: ${classifyName(name).category}, catalogue says ${vendor.purpose}`),
    );
    expect(disagree).toEqual([]);
  });

  it("does not stretch an exact name into a prefix", () => {
    expect(classifyName("_gax")).toMatchObject({ category: "unclassified", vendor: null });
    expect(classifyName("_g")).toMatchObject({ category: "unclassified", vendor: null });
  });

  it("answers unclassified for names the database does not know", () => {
    expect(classifyName("shop_cart")).toEqual({ category: "unclassified", vendor: null, source: null });
    expect(classifyName("")).toEqual({ category: "unclassified", vendor: null, source: null });
  });

  it("prefers the entry naming the cookie's domain when several share a name", () => {
    // Adform's `token` (marketing, adform.net) is listed before Xandr's (functional, .adnxs.com).
    expect(classifyName("token", ".adnxs.com")).toMatchObject({ category: "necessary", vendor: "Xandr" });
    expect(classifyName("token", "ib.adnxs.com")).toMatchObject({ category: "necessary", vendor: "Xandr" });
    expect(classifyName("token", ".adform.net")).toMatchObject({ category: "marketing", vendor: "Adform" });
    expect(classifyName("token", "shop.example")).toMatchObject({ category: "marketing", vendor: "Adform" });
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
        .filter((host) => JSON.stringify(classifyHost(host)) !== JSON.stringify({ category: vendor.purpose, vendor: vendor.name, source: `vendor catalogue: ${vendor.name}` }))
        .map((host) => `${host}: ${JSON.stringify(classifyHost(host))}, catalogue says ${vendor.purpose} ${vendor.name}`),
    );
    expect(misclassified).toEqual([]);
  });

  it("matches whole labels only and lists the unknown as unclassified", () => {
    expect(classifyHost("notdoubleclick.net")).toEqual({ category: "unclassified", vendor: null, source: null });
    expect(classifyHost("cdn.shop.example")).toEqual({ category: "unclassified", vendor: null, source: null });
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
