import { lookup } from "../../shared/i18n/negotiate";
import { shippedStrings } from "../../shared/i18n/shipped";
import { english, type StringKey, type Strings } from "../../shared/i18n/strings";
import type { Wording } from "../configuration/document";
import type { FieldError } from "../lib/errors";

/*
 * The widget's words on the server: which languages a visitor can get (the widget's shipped languages plus the
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
