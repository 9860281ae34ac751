// Which cookies set in a third-party context a visitor's browser keeps (docs/scanner.md#what-it-records): the rule the
// scanner applies where its own browser refused them only by its third-party setting. Plain Node.
import { describe, expect, it } from "vitest";
import { cookieFromWrite } from "../../scanner/cookies";
import { setCookieRefusal, thirdPartyRefusal } from "../../scanner/devtools";

describe("cookies in a third-party context", () => {
  it("keeps only SameSite=None with Secure; no SameSite (Lax) or None without Secure is refused, with why", () => {
    expect(thirdPartyRefusal({ sameSite: "None", secure: true })).toBeUndefined();
    expect(thirdPartyRefusal({ sameSite: undefined, secure: true })).toContain("no SameSite, so Lax");
    expect(thirdPartyRefusal({ sameSite: "Lax", secure: true })).toContain("SameSite=Lax");
    expect(thirdPartyRefusal({ sameSite: "None", secure: false })).toBe("SameSite=None without Secure: browsers refuse it");
  });

  it("says why a Set-Cookie was refused in words, whether the browser blocks third-party cookies or names the SameSite rule itself", () => {
    // Failed before in Debian's chromium-headless-shell, which allows third-party cookies and so names the SameSite
    // rule: px_lax was reported as "SchemefulSameSiteUnspecifiedTreatedAsLax" and px_nosec as "SameSiteNoneInsecure".
    const none = { name: "id", domain: "ads.localhost", sameSite: "None" as const, secure: true };
    expect(setCookieRefusal(["UserPreferences"], none)).toBeUndefined();
    expect(setCookieRefusal(["UserPreferences"], { ...none, sameSite: undefined })).toContain("without SameSite=None (no SameSite, so Lax)");
    expect(setCookieRefusal(["SchemefulSameSiteUnspecifiedTreatedAsLax"], { ...none, sameSite: undefined })).toContain("without SameSite=None (no SameSite, so Lax)");
    expect(setCookieRefusal(["SameSiteUnspecifiedTreatedAsLax"], { ...none, sameSite: undefined })).toContain("without SameSite=None (no SameSite, so Lax)");
    expect(setCookieRefusal(["SameSiteLax"], { ...none, sameSite: "Lax" })).toContain("SameSite=Lax");
    expect(setCookieRefusal(["SameSiteNoneInsecure"], { ...none, secure: false })).toBe("SameSite=None without Secure: browsers refuse it");
    expect(setCookieRefusal(["UserPreferences", "SameSiteNoneInsecure"], { ...none, secure: false })).toBe("SameSite=None without Secure: browsers refuse it");
    // Refused for what no third-party setting explains: the browser's reasons as it names them.
    expect(setCookieRefusal(["InvalidDomain"], none)).toBe("InvalidDomain");
    expect(setCookieRefusal(["SyntaxError"], undefined)).toBe("not a valid cookie (SyntaxError)");
  });

  it("rebuilds a third-party frame's document.cookie write with its attributes, or says why no browser keeps it", () => {
    const frame = new URL("http://ads.localhost:8080/ads/frame.html");
    const now = 1_800_000_000;
    expect(cookieFromWrite("uid=u1; max-age=100; SameSite=None; Secure", frame, "http://ads.localhost:8080/ads/frame.html", now)).toEqual({
      kept: { name: "uid", domain: "ads.localhost", path: "/ads", expires: now + 100, httpOnly: false, secure: true, sameSite: "None", initiator: "http://ads.localhost:8080/ads/frame.html" },
    });
    expect(cookieFromWrite("uid=u1; domain=.localhost; path=/; samesite=none; secure", frame, null, now)).toMatchObject({ kept: { domain: "localhost", path: "/", expires: null } });
    expect(cookieFromWrite("lax=1; max-age=100", frame, null, now)).toMatchObject({ refused: { name: "lax", domain: "ads.localhost", reason: expect.stringContaining("without SameSite=None") } });
    expect(cookieFromWrite("nosec=1; SameSite=None", frame, null, now)).toMatchObject({ refused: { reason: "SameSite=None without Secure: browsers refuse it" } });
    // A deletion and a nameless write set nothing.
    expect(cookieFromWrite("uid=; max-age=0; SameSite=None; Secure", frame, null, now)).toBeNull();
    expect(cookieFromWrite("novalue", frame, null, now)).toBeNull();
  });
});
