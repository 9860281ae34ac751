import type { ConfigurationDocument } from "../configuration/document";

type Translation = { language: string; text: string };

const primary = (tag: string) => tag.toLowerCase().split("-")[0];

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

function everyTranslations(value: unknown, visit: (list: Translation[]) => void) {
  if (isTranslations(value)) return visit(value);
  if (Array.isArray(value)) value.forEach((item) => everyTranslations(item, visit));
  else if (value && typeof value === "object") Object.values(value).forEach((item) => everyTranslations(item, visit));
}

/** The languages the configuration's texts are written in (lower case). */
function languagesOf(configuration: ConfigurationDocument): Set<string> {
  const found = new Set<string>();
  everyTranslations(configuration, (list) => list.forEach((t) => found.add(t.language.toLowerCase())));
  return found;
}

/**
 * The visitor's language: the first preference the configuration has texts in (exact tag, then its primary
 * language: `fi-FI` finds `fi`), else the project's default language.
 */
export function chooseLanguage(configuration: ConfigurationDocument, preferences: string[]): string {
  const available = languagesOf(configuration);
  const availablePrimaries = new Map([...available].map((tag) => [primary(tag), tag]));
  for (const preference of preferences) {
    const tag = preference.toLowerCase();
    if (available.has(tag)) return tag;
    const fallback = availablePrimaries.get(primary(tag));
    if (fallback) return fallback;
  }
  return configuration.project.defaultLanguage.toLowerCase();
}

/**
 * The configuration with every translated text narrowed to one entry: the chosen language, else the project's
 * default, else English, else the first there is (a text in some language beats none).
 */
export function inLanguage(configuration: ConfigurationDocument, language: string): ConfigurationDocument {
  const order = [language, configuration.project.defaultLanguage.toLowerCase(), "en"];
  const pick = (list: Translation[]) => {
    for (const wanted of order) {
      const exact = list.find((t) => t.language.toLowerCase() === wanted);
      const loose = exact ?? list.find((t) => primary(t.language) === primary(wanted));
      if (loose) return [loose];
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
