/**
 * Which of IAB's GVL translations the TCF layers read for the widget's language (docs/tcf.md#what-each-layer-shows-and-why).
 * IAB names its files by its consent languages (`@iabtechlabtcf/core`'s `ConsentLanguages`, the service's
 * shared/tcf/gvl-languages.ts), which differ from the widget's tags for some: Norwegian is one `no` for Bokmål and Nynorsk,
 * Portuguese is `pt-pt` beside `pt-br`, Serbian comes in two scripts (the widget's is Cyrillic), Chinese `zh` is
 * Simplified beside `zh-hant`. Irish, Luxembourgish, Romansh and Persian have no translation: English, the GVL's own,
 * is read for them rather than asking for a file that does not exist. A tag not listed reads its language's file by
 * its primary subtag (`de-CH`: `de`), after its longer forms (`zh-Hant-TW`: `zh-hant`).
 */
const gvlTags: Record<string, string> = {
  nb: "no",
  nn: "no",
  pt: "pt-pt",
  "pt-br": "pt-br",
  sr: "sr-cyrl",
  "sr-latn": "sr-latn",
  "zh-hant": "zh-hant",
  fa: "en",
  ga: "en",
  lb: "en",
  rm: "en",
};

/** The GVL translation for a widget language tag (IAB's lower-case file name), or `en` for the GVL itself. */
export function gvlLanguage(tag: string): string {
  const parts = tag.toLowerCase().split("-");
  for (let length = parts.length; length > 0; length--) {
    const mapped = gvlTags[parts.slice(0, length).join("-")];
    if (mapped) return mapped;
  }
  return parts[0]!;
}
