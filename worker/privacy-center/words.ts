import { parseAccept } from "hono/utils/accept";
import { centerEnglish, centerStrings } from "../../shared/i18n/privacy-center";
import { direction } from "../../shared/i18n/direction";
import { lookup, negotiate } from "../../shared/i18n/negotiate";
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
 * The language tags of an `Accept-Language` header, most preferred first: hono's parser, which orders by q-value and
 * keeps the written order among equals (the bootstrap reads the header through it too); `q=0` means "not this one".
 */
export const acceptedLanguages = (header: string | undefined): string[] =>
  parseAccept(header ?? "")
    .filter((range) => range.q > 0)
    .map((range) => range.type);
