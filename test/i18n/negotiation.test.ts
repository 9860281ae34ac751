import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { shippedStrings } from "../../shared/i18n/shipped";
import { direction } from "../../shared/i18n/direction";
import { lookup, negotiate } from "../../shared/i18n/negotiate";

/*
 * The negotiation the Worker runs at the edge (and the widget's fallback shares): BCP 47 lookup over the shipped
 * languages, with the fallbacks docs/languages.md#how-the-language-is-chosen lists, then the project's default, then English.
 */
const shipped = Object.keys(shippedStrings);
const choose = (preferences: string[], fallback?: string) => negotiate(preferences, shipped, fallback);

describe("language negotiation", () => {
  it("registers every language module of shared/i18n/languages (tags are the file names)", () => {
    const folder = fileURLToPath(new URL("../../shared/i18n/languages/", import.meta.url));
    const files = readdirSync(folder)
      .filter((file) => file.endsWith(".ts"))
      .map((file) => file.slice(0, -3));
    expect(shipped.sort()).toEqual(files.sort());
  });

  it.each([
    [["de"], "de"],
    [["de-AT"], "de"],
    [["DE-at"], "de"],
    [["pt-BR"], "pt-BR"],
    [["pt-br"], "pt-BR"],
    [["pt-PT"], "pt"],
    [["pt"], "pt"],
    [["pt-AO"], "pt"],
    [["zh-TW"], "zh-Hant"],
    [["zh-HK"], "zh-Hant"],
    [["zh-Hant"], "zh-Hant"],
    [["zh-Hant-TW"], "zh-Hant"],
    [["zh"], "zh-Hans"],
    [["zh-CN"], "zh-Hans"],
    [["zh-SG"], "zh-Hans"],
    [["zh-Hans-CN"], "zh-Hans"],
    [["no"], "nb"],
    [["nb-NO"], "nb"],
    [["no-NO"], "nb"],
    [["nn-NO"], "nn"],
    [["sr-Latn-RS"], "sr"],
    [["sr-Cyrl"], "sr"],
    [["iw"], "he"],
    [["in-ID"], "id"],
    [["en-GB"], "en"],
    [["de-CH-x-private"], "de"],
  ])("%j finds %s", (preferences, expected) => {
    expect(choose(preferences)).toBe(expected);
  });

  it("takes the first preference it can serve, in order", () => {
    expect(choose(["tlh", "kl-GL", "fi-FI", "sv"])).toBe("fi");
    expect(choose(["sv", "fi"])).toBe("sv");
  });

  it("falls back to the project's default language, then English", () => {
    expect(choose(["tlh"], "fi-FI")).toBe("fi");
    expect(choose(["tlh"], "xx")).toBe("en");
    expect(choose([])).toBe("en");
  });

  it("serves a project's own language by exact tag before the shipped language it would fall back to", () => {
    expect(negotiate(["de-CH"], [...shipped, "de-CH"])).toBe("de-CH");
    expect(negotiate(["de-CH-x-zh"], [...shipped, "de-CH"])).toBe("de-CH");
    expect(negotiate(["kl"], [...shipped, "kl"])).toBe("kl");
  });

  it("answers undefined from lookup when nothing matches, never a guess, whatever the tag looks like", () => {
    expect(lookup(["tlh", "x-klingon"], shipped)).toBeUndefined();
    expect(lookup(["", "-", "--", "x", "toString", "constructor"], shipped)).toBeUndefined();
    // Malformed but readable: each ends in a finite lookup.
    expect(lookup(["de-"], shipped)).toBe("de");
    expect(lookup(["de--AT"], shipped)).toBe("de");
  });

  it("writes Arabic, Hebrew and Persian right to left, everything shipped else left to right", () => {
    const rtl = shipped.filter((tag) => direction(tag) === "rtl");
    expect(rtl.sort()).toEqual(["ar", "fa", "he"]);
    expect(direction("ar-EG")).toBe("rtl");
    expect(direction("arn")).toBe("ltr");
  });
});
