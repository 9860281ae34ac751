// Which of IAB's GVL translations the TCF layers read for each of the widget's 53 languages (widget/src/tcf/languages.ts,
// docs/tcf.md#what-each-layer-shows-and-why), held to IAB's own list of consent languages (`ConsentLanguages` of
// `@iabtechlabtcf/core`, the names of the translation files IAB publishes) and to the languages the service hosts
// (shared/tcf/gvl-languages.ts), which are the only `lang` the project's vendor list accepts: each widget language reads a file
// the service hosts in the same language, in the widget's script and region where IAB has several, and English only
// where IAB has no translation at all.
import { ConsentLanguages } from "@iabtechlabtcf/core";
import { describe, expect, it } from "vitest";
import { shippedStrings } from "../../shared/i18n/shipped";
import { tcfStrings } from "../../shared/i18n/tcf";
import { gvlLanguage } from "../../widget/src/tcf/languages";
import { gvlLanguages } from "../../shared/tcf/gvl-languages";

const widgetTags = Object.keys(shippedStrings);
const hosted: string[] = [...gvlLanguages];
/** IAB's consent languages, lower case as its file names (`purposes-pt-br.json`); English is the GVL itself. */
const iabLanguages: string[] = [];
new ConsentLanguages().forEach((language) => iabLanguages.push(language.toLowerCase()));
/** The language a tag is in: its primary subtag, Bokmål and Nynorsk being Norwegian (ISO 639's macrolanguage `no`), as IAB has them. */
const languageOf = (tag: string) => {
  const primary = tag.toLowerCase().split("-")[0]!;
  return primary === "nb" || primary === "nn" ? "no" : primary;
};

describe("the GVL translation of each widget language", () => {
  it("the service hosts exactly IAB's translations", () => {
    expect(hosted.toSorted()).toEqual(iabLanguages.filter((language) => language !== "en").toSorted());
  });

  it("every one of the widget's 53 languages reads a translation the service hosts, in its own language, or English", () => {
    expect(widgetTags).toHaveLength(53);
    for (const tag of widgetTags) {
      const read = gvlLanguage(tag);
      expect([...hosted, "en"], tag).toContain(read);
      if (read !== "en") expect(languageOf(read), tag).toBe(languageOf(tag));
    }
  });

  it("English only for the languages IAB does not translate into (and English itself)", () => {
    const english = widgetTags.filter((tag) => gvlLanguage(tag) === "en");
    const untranslated = widgetTags.filter((tag) => !hosted.some((language) => languageOf(language) === languageOf(tag)));
    expect(english.toSorted()).toEqual(untranslated.toSorted());
    expect(english.toSorted()).toEqual(["en", "fa", "ga", "lb", "rm"]);
  });

  it("where IAB has several variants of a language, the widget's script and region", () => {
    const variants = widgetTags.filter((tag) => hosted.filter((language) => languageOf(language) === languageOf(tag)).length > 1);
    expect(Object.fromEntries(variants.map((tag) => [tag, gvlLanguage(tag)]))).toEqual({
      pt: "pt-pt",
      "pt-BR": "pt-br",
      sr: "sr-cyrl",
      "zh-Hans": "zh",
      "zh-Hant": "zh-hant",
    });
    // The widget's Serbian is Cyrillic (shared/i18n/languages/sr.ts), so IAB's Cyrillic translation is its own.
    expect(shippedStrings.sr!.title).toMatch(/^[\u0400-\u04ff\s]+$/);
  });

  it("a project's own language reads the translation of its language, its longest known form first", () => {
    expect(["de-CH", "zh-Hant-TW", "zh-Hans-CN", "pt-BR", "PT-br", "sr-Latn", "en-GB", "nb-NO", "ga-IE"].map(gvlLanguage)).toEqual([
      "de",
      "zh-hant",
      "zh",
      "pt-br",
      "pt-br",
      "sr-latn",
      "en",
      "no",
      "en",
    ]);
  });

  it("the layers' own words exist in every widget language (the build writes tcf-i18n/<tag>.json for each)", () => {
    expect(Object.keys(tcfStrings).toSorted()).toEqual(widgetTags.toSorted());
  });
});
