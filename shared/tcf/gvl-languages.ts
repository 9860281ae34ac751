/*
 * IAB's GVL translations, by IAB's file name: the Worker hosts them (worker/tcf/refresh.ts, list-routes.ts) and the
 * widget's TCF chunk asks for one (widget/src/tcf/languages.ts), so the list is shared.
 */

/**
 * The languages IAB translates the GVL's purposes into: the consent languages of `@iabtechlabtcf/core` (TC string
 * spec, "ConsentLanguage"), English being the GVL itself. Kept here as data so the Worker does not load the library.
 */
export const gvlLanguages = [
  "ar", "bg", "bs", "ca", "cs", "cy", "da", "de", "el", "es", "et", "eu", "fi", "fr", "gl", "he", "hi", "hr", "hu", "id",
  "is", "it", "ja", "ka", "ko", "lt", "lv", "mk", "ms", "mt", "nl", "no", "pl", "pt-br", "pt-pt", "ro", "ru", "sk", "sl",
  "sq", "sr-latn", "sr-cyrl", "sv", "sw", "th", "tl", "tr", "uk", "vi", "zh", "zh-hant",
] as const;
