import { lookup, negotiate } from "../../shared/i18n/negotiate";
import { shippedStrings } from "../../shared/i18n/shipped";
import { english, type StringKey, type Strings } from "../../shared/i18n/strings";
import type { Wording } from "../configuration/document";
import type { FieldError } from "../lib/errors";

/*
 * The widget's words on the server: which language a visitor gets (the widget's shipped languages plus the
 * project's own), the words themselves (shipped, then the project's wording over them), and the rules a project's
 * wording must keep.
 */

export const shippedTags = Object.keys(shippedStrings);
export const stringKeys = Object.keys(english) as StringKey[];
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

/**
 * The visitor's language: the first preference the widget or the project speaks (BCP 47 lookup with the widget's
 * fallbacks, shared/i18n/negotiate.ts), else the project's default language, else English.
 */
export const chooseLanguage = (preferences: string[], wording: Wording, defaultLanguage: string) =>
  negotiate(preferences, [...shippedTags, ...wording.map((w) => w.language).filter((tag) => !shippedTag(tag))], defaultLanguage);

/**
 * Every string in `language`: English, under the shipped language (or, for a project's own language, the shipped
 * language it falls back to: `de` under `de-CH`), under the project's wording.
 */
export function wordsFor(language: string, wording: Wording): Strings {
  const own = wording.find((w) => w.language === language)?.strings;
  return { ...english, ...shippedStrings[lookup([language], shippedTags) ?? "en"], ...own };
}

const placeholders = (text: string) => (text.match(/\{[^{}]*\}/g) ?? []).sort().join(" ");

/**
 * What is wrong with a project's wording for `language`, as field errors: unknown keys, texts empty or too long,
 * `{c}` (the controller's name) not kept exactly, and, for a language the widget does not ship, strings missing.
 */
export function wordingErrors(language: string, strings: Record<string, string>): FieldError[] {
  const errors: FieldError[] = [];
  for (const [key, text] of Object.entries(strings)) {
    const path = `strings.${key}`;
    if (!(key in english)) {
      errors.push({ path, code: "unknown_string_key", message: "Not a string of the widget (see GET …/ui-strings/en)." });
    } else if (!text.trim() || text.length > maxStringLength) {
      errors.push({ path, code: "invalid_length", message: `Between 1 and ${maxStringLength} characters.` });
    } else if (placeholders(text) !== placeholders(english[key as StringKey])) {
      const expected = placeholders(english[key as StringKey]) || "none";
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
