import { centerEnglish, centerStrings } from "../../shared/i18n/privacy-center";
import { direction, lookup, negotiate } from "../../shared/i18n/negotiate";
import { shippedStrings } from "../../shared/i18n/shipped";
import { english } from "../../shared/i18n/strings";

const widgetTags = Object.keys(shippedStrings);
const centerTags = Object.keys(centerStrings);

/**
 * The privacy center's words in the visitor's language: chosen among the widget's languages with the widget's
 * negotiation; the widget's words in it, and the privacy center's own (every shipped language has them; the English
 * fallback only guards a language added to the widget without them, which test/i18n/translations.test.ts refuses).
 */
export function wordsIn(preferences: string[]) {
  const language = negotiate(preferences, widgetTags);
  const center = centerStrings[lookup([language], centerTags) ?? "en"] ?? centerEnglish;
  return { language, dir: direction(language) as "ltr" | "rtl", strings: { ...english, ...shippedStrings[language], ...center } };
}

/**
 * The language tags of an `Accept-Language` header, most preferred first: by q-value (1 when absent), the written
 * order among equals; `q=0` means "not this one" and drops the tag.
 */
export function acceptedLanguages(header: string | undefined): string[] {
  return (header ?? "")
    .split(",")
    .map((part, position) => {
      const [tag, ...parameters] = part.split(";").map((piece) => piece.trim());
      const q = parameters.find((parameter) => /^q=/i.test(parameter));
      const weight = q === undefined ? 1 : Number(q.slice(2));
      return { tag, weight: Number.isFinite(weight) ? weight : 0, position };
    })
    .filter(({ tag, weight }) => tag && weight > 0)
    .sort((a, b) => b.weight - a.weight || a.position - b.position)
    .map(({ tag }) => tag);
}
