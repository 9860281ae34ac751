import type { Translation } from "../types";

/*
 * The widget's own words: one "|"-separated line per language, in its own module (./en.ts, ./sv.ts, …), loaded
 * only for the visitor's language. Adding a language is a new file plus one entry in `languages`. Strings are
 * read by index; the indexes are constants, so the bundle carries small numbers instead of key names. `{c}` is
 * the controller's name. Entries that follow each other in a fixed order (policy links, party roles, legal
 * grounds) are read as FIRST + offset.
 */
export const TITLE = 0;
export const INTRO = 1;
/** Then TERMS and COOKIE: the keys of a Policies object, in that order. */
export const POLICY = 2;
export const ACCEPT = 5;
export const REJECT = 6;
export const SAVE = 7;
export const CLOSE = 8;
export const DETAILS = 9;
export const DATA = 10;
/** Then PROCESSORS and RECIPIENTS. */
export const CONTROLLERS = 11;
/** Then the other legal grounds, in the order of `legalGrounds` (preferences.ts). */
export const CONSENT = 14;
export const OBJECT = 18;
export const OBJECTED = 19;
export const PENDING = 20;
export const GPC = 21;
export const DOWN = 22;
export const RETRY = 23;
export const SAVED = 24;
/** Stands in for an unknown controller name. */
export const SITE = 25;
/** The first layer's text, per regime: opt-in, then OPT_OUT and NOTICE_ONLY (the order of `regimes`). */
export const NOTICE = 26;
export const CUSTOMIZE = 29;
export const GPC_APPLIED = 30;
export const OK = 31;
export const OFFLINE = 32;
export const RECEIPT = 33;

export const regimes = ["opt-in", "opt-out", "notice"] as const;

/** The languages the widget speaks; each module's default export is its line. */
export const languages: Record<string, () => Promise<{ default: string }>> = {
  en: () => import("./en"),
  sv: () => import("./sv"),
  de: () => import("./de"),
  fr: () => import("./fr"),
  es: () => import("./es"),
};

/** Languages written right to left (primary subtags), for `dir`. */
const rightToLeft = ["ar", "fa", "he", "ur", "ps", "yi"];
export const direction = (language: string) => (rightToLeft.includes(language) ? "rtl" : "ltr");

const primary = (tag: string) => tag.toLowerCase().split("-")[0];

/** The first wanted language the widget speaks, else English. */
export const uiLanguage = (wanted: string[]) => wanted.map(primary).find((tag) => languages[tag]) ?? "en";

export const loadStrings = async (language: string): Promise<string[]> => (await languages[language]()).default.split("|");

/** Puts a name where `{c}` stands, literally (String.replace would read `$'` and `$&` in the name as patterns). */
export const fill = (text: string, name: string) => text.split("{c}").join(name);

/** A text in the wanted language, else the project's default, else English, else whatever there is. */
export function pick(texts: Translation[] | undefined, lang: string, fallback = "en"): string {
  if (!texts?.length) return "";
  for (const want of [lang, fallback, "en"]) {
    const hit = texts.find((t) => primary(t.language) === primary(want));
    if (hit) return hit.text;
  }
  return texts[0].text;
}
