import { lookup } from "../../shared/i18n/negotiate";
import type { ConfigurationDocument } from "../configuration/document";

type Translation = { language: string; text: string };

/** Language tags from an `Accept-Language` header, best first (q=0 left out). */
export function acceptLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(",")
    .slice(0, 20)
    .flatMap((part, index) => {
      const [tag, ...params] = part.trim().split(";");
      const q = Number(/^q=([\d.]+)$/.exec(params.map((p) => p.trim()).find((p) => p.startsWith("q=")) ?? "")?.[1] ?? 1);
      return /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(tag) && q > 0 ? [{ tag, q, index }] : [];
    })
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((entry) => entry.tag);
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
