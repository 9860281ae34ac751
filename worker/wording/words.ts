import { lookup } from "../../shared/i18n/negotiate";
import { shippedStrings } from "../../shared/i18n/shipped";
import { english, type Strings } from "../../shared/i18n/strings";
import { tcfEnglish, tcfStrings, tcfWordPrefix, type TcfStrings } from "../../shared/i18n/tcf";
import type { Wording } from "../configuration/document";
import type { FieldError } from "../lib/errors";

/*
 * The widget's words on the server: which languages a visitor can get (the widget's shipped languages plus the
 * project's own), the words themselves (shipped, then the project's wording over them), and the rules a project's
 * wording must keep. The TCF layers' own words (shared/i18n/tcf.ts) are worded the same way as `tcf.<key>`; their
 * shipped words reach TCF pages as files of the TCF chunk, so the bootstrap carries only the ones a project set.
 */

export const shippedTags = Object.keys(shippedStrings);
export const stringKeys = Object.keys(english);
/** The TCF words as the wording names them, `tcf.vendorList`. */
const tcfWording = (words: TcfStrings) => Object.fromEntries(Object.entries(words).map(([key, text]) => [tcfWordPrefix + key, text]));
/**
 * Every string a project may word, in English: the widget's, then the TCF layers'. IAB's names of purposes, features
 * and stacks are not among them: the TCF Policies (Appendix A) let no one reword them.
 */
const reference: Record<string, string> = { ...english, ...tcfWording(tcfEnglish) };
/** Longest text a project may put in place of one string. */
export const maxStringLength = 500;

/** The shipped tag spelled as the widget spells it, if `tag` is one (case-insensitive). */
export const shippedTag = (tag: string) => shippedTags.find((shipped) => shipped.toLowerCase() === tag.toLowerCase());

/** BCP 47 case conventions (RFC 5646 §2.1.1): `zh-hant-tw` is `zh-Hant-TW`, `SV-se` is `sv-SE`. */
export const canonicalTag = (tag: string) =>
  shippedTag(tag) ??
  tag
    .split("-")
    .map((part, i) =>
      i === 0 ? part.toLowerCase() : part.length === 4 ? part[0].toUpperCase() + part.slice(1).toLowerCase() : part.length === 2 || /^\d{3}$/.test(part) ? part.toUpperCase() : part.toLowerCase(),
    )
    .join("-");

/** The languages a project's visitors can read the widget in: the shipped ones and the project's own. */
export const servedLanguages = (wording: Wording) => [...shippedTags, ...wording.map((w) => w.language).filter((tag) => !shippedTag(tag))];

/**
 * Every string in `language`: English, under the shipped language (or, for a project's own language, the shipped
 * language it falls back to: `de` under `de-CH`), under the project's wording.
 */
export function wordsFor(language: string, wording: Wording): Strings {
  const own = wording.find((w) => w.language === language)?.strings;
  return { ...english, ...shippedStrings[lookup([language], shippedTags) ?? "en"], ...own };
}

/** Every string a project may word, as the wording API shows it in `language`: `wordsFor`'s, with the TCF layers' words. */
export function wordingIn(language: string, wording: Wording): Record<string, string> {
  const own = wording.find((w) => w.language === language)?.strings;
  return { ...wordsFor(language, []), ...tcfWording(tcfStrings[lookup([language], shippedTags) ?? "en"] ?? tcfEnglish), ...own };
}

const placeholders = (text: string) => (text.match(/\{[^{}]*\}/g) ?? []).sort().join(" ");

/**
 * What is wrong with a project's wording for `language`, as field errors: unknown keys, texts empty or too long,
 * placeholders (`{c}`) not kept exactly, and, for a language the widget does not ship, the widget's strings missing
 * (not the TCF words: the TCF chunk falls back to the words of the language's primary tag, else English).
 */
export function wordingErrors(language: string, strings: Record<string, string>): FieldError[] {
  const errors: FieldError[] = [];
  for (const [key, text] of Object.entries(strings)) {
    const path = `strings.${key}`;
    if (!(key in reference)) {
      const message = key.startsWith(tcfWordPrefix)
        ? "Not one of the TCF layers' own words (see GET …/ui-strings/en): IAB's names of purposes, features and stacks are never reworded (TCF Policies, Appendix A)."
        : "Not a string of the widget (see GET …/ui-strings/en).";
      errors.push({ path, code: "unknown_string_key", message });
    } else if (!text.trim() || text.length > maxStringLength) {
      errors.push({ path, code: "invalid_length", message: `Between 1 and ${maxStringLength} characters.` });
    } else if (placeholders(text) !== placeholders(reference[key]!)) {
      const expected = placeholders(reference[key]!) || "none";
      errors.push({ path, code: "placeholder_mismatch", message: `Keep the placeholders exactly as in English: ${expected}.` });
    }
  }
  if (!shippedTag(language)) {
    for (const key of stringKeys) {
      if (!(key in strings)) {
        errors.push({ path: `strings.${key}`, code: "required", message: "The widget does not ship this language, so every string is needed." });
      }
    }
  }
  return errors;
}
