/*
 * Language negotiation, shared by the Worker (at the edge), the portal (its wording editor) and the click-to-load
 * placeholders: BCP 47 lookup (RFC 4647 §3.4: drop subtags from the end until a tag matches),
 * case-insensitive, with the aliases below where lookup alone would pick the wrong variety or none.
 */

/** Tags lookup alone gets wrong: a region implying a script, a macrolanguage, deprecated codes. */
const aliases: Record<string, string> = {
  // Traditional script: Taiwan, Hong Kong, Macao. Bare `zh` and the other regions (CN, SG) read Simplified.
  "zh-tw": "zh-hant",
  "zh-hk": "zh-hant",
  "zh-mo": "zh-hant",
  zh: "zh-hans",
  // Norwegian (macrolanguage) is written as Bokmål by nearly everyone.
  no: "nb",
  // Serbian in Latin script: the shipped Serbian is Cyrillic, which every Serbian reader reads (the official script).
  "sr-latn": "sr",
  // Deprecated ISO 639 codes some browsers still send.
  iw: "he",
  in: "id",
};

/**
 * The first of `preferences` that one of `available` serves, as spelled in `available`; undefined when none does.
 * `pt-PT` and `pt` find `pt`, `pt-BR` finds `pt-BR` (else `pt`), `zh-TW` finds `zh-Hant`, `no-NO` finds `nb`.
 */
export function lookup(preferences: readonly string[], available: readonly string[]): string | undefined {
  const byLowerCase = new Map(available.map((tag) => [tag.toLowerCase(), tag]));
  for (const preference of preferences) {
    const subtags = preference.toLowerCase().split("-");
    while (subtags.length) {
      const tag = subtags.join("-");
      const found = byLowerCase.get(tag) ?? byLowerCase.get(aliases[tag]);
      if (found) return found;
      subtags.pop();
      // A single-letter subtag (an extension's singleton) never stands alone at the end.
      if (subtags.at(-1)?.length === 1) subtags.pop();
    }
  }
  return undefined;
}

/**
 * The language to speak: the first preference one of `available` serves, else the project's default language,
 * else English.
 */
export const negotiate = (preferences: readonly string[], available: readonly string[], fallback?: string) =>
  lookup([...preferences, ...(fallback ? [fallback] : []), "en"], available) ?? "en";
