import type { Context } from "hono";
import { accepts } from "hono/accepts";
import { lookup, negotiate } from "../../shared/i18n/negotiate";
import type { ConfigurationDocument } from "../configuration/document";

type Translation = { language: string; text: string };
type AcceptsMatch = NonNullable<Parameters<typeof accepts>[1]["match"]>;

/** A language range of RFC 4647 §2.1 (the `*` range serves no one here). */
const languageRange = /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/;

/** The first language of `supports` that the header's first 20 ranges reach by lookup (best first; q=0 refuses). */
const byLookup: AcceptsMatch = (ranges, { supports, default: fallback }) =>
  lookup(
    ranges
      .filter((range) => range.q > 0 && languageRange.test(range.type))
      .slice(0, 20)
      .map((range) => range.type),
    supports,
  ) ?? fallback;

/**
 * The visitor's language among `available`: the first of the page's own list (element, page, browser) one of them
 * serves, else the first of Accept-Language (hono's accepts parses and orders it), else the project's default, else
 * English; each by BCP 47 lookup (shared/i18n/negotiate.ts). Hono's own matching does not fit: the accepts helper's
 * default match is exact (`de-AT` must find `de`), and the language detector's is by prefix only (`zh-TW` must find
 * `zh-Hant`, `no` `nb`), fixes its languages and fallback when the middleware is made (ours are the project's), and
 * cannot put the page's list, which comes in the body, first.
 */
export function visitorLanguage(c: Context, pageList: readonly string[], available: string[], defaultLanguage: string) {
  const fallback = negotiate([], available, defaultLanguage);
  return lookup(pageList, available) ?? accepts(c, { header: "Accept-Language", supports: available, default: fallback, match: byLookup });
}

const isTranslations = (value: unknown): value is Translation[] =>
  Array.isArray(value) &&
  value.length > 0 &&
  value.every((item) => item && typeof item === "object" && typeof item.language === "string" && typeof item.text === "string" && Object.keys(item).length === 2);

/**
 * The configuration with every translated text narrowed to one entry: the chosen language, else the project's
 * default, else English, else the first there is (a text in some language beats none). A text matches a language
 * when one's BCP 47 lookup reaches the other: `de-DE` and `de` texts serve `de`, `zh-TW` serves `zh-Hant`, `pt`
 * serves `pt-BR`.
 */
export function inLanguage(configuration: ConfigurationDocument, language: string): ConfigurationDocument {
  const order = [language, configuration.project.defaultLanguage, "en"];
  const pick = (list: Translation[]) => {
    for (const wanted of order) {
      const hit =
        list.find((t) => t.language.toLowerCase() === wanted.toLowerCase()) ??
        list.find((t) => lookup([t.language], [wanted])) ??
        list.find((t) => lookup([wanted], [t.language]));
      if (hit) return [hit];
    }
    return [list[0]];
  };
  const narrow = (value: unknown): unknown => {
    if (isTranslations(value)) return pick(value);
    if (Array.isArray(value)) return value.map(narrow);
    if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, narrow(v)]));
    return value;
  };
  return narrow(configuration) as ConfigurationDocument;
}
