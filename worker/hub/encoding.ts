/**
 * SMS encodings and segment counts (3GPP TS 23.038 and 23.040).
 *
 * GSM 03.38 packs 7-bit septets: 160 per single message, 153 per part of a concatenated one (the user data header
 * takes the rest). Characters of the extension table cost two septets (escape + character) and are never split
 * across parts. UCS-2 carries 70 UTF-16 code units, 67 per part; a character outside the BMP takes two units
 * (a surrogate pair), which are never split either.
 */

export type Dcs = "gsm" | "ucs";

/** The GSM 03.38 default alphabet without the escape code (0x1B), which is not a character. */
const gsmBasic = new Set(
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà",
);
/** The GSM 03.38 extension table: each is sent as escape + character. */
const gsmExtension = new Set("\f^{}\\[~]|€");

const gsmCost = (char: string): number => (gsmBasic.has(char) ? 1 : gsmExtension.has(char) ? 2 : 0);

/** The first character the GSM 03.38 alphabet (basic or extension table) cannot carry; undefined when all fit. */
export function firstNonGsm(text: string): string | undefined {
  for (const char of text) if (gsmCost(char) === 0) return char;
  return undefined;
}

/** Encoding chosen when the client does not say: GSM when the text fits its alphabet (cheaper), UCS-2 otherwise. */
export const chooseDcs = (text: string): Dcs => (firstNonGsm(text) === undefined ? "gsm" : "ucs");

const limits = {
  gsm: { single: 160, part: 153, cost: gsmCost },
  ucs: { single: 70, part: 67, cost: (char: string) => char.length },
} as const;

/** Number of SMS parts the text takes in the encoding (for GSM, the text must fit its alphabet: see `firstNonGsm`). */
export function segmentCount(text: string, dcs: Dcs): number {
  const { single, part, cost } = limits[dcs];
  const chars = Array.from(text);
  const total = chars.reduce((sum, char) => sum + cost(char), 0);
  if (total <= single) return 1;
  let segments = 1;
  let used = 0;
  for (const char of chars) {
    const size = cost(char);
    if (used + size > part) {
      segments++;
      used = 0;
    }
    used += size;
  }
  return segments;
}

/** Length in characters (Unicode code points), which is what "160 characters" means to a person. */
export const characterCount = (text: string): number => Array.from(text).length;

/** Lone surrogates can travel in JSON strings but have no UTF-8 form, so no SMS can carry them. */
export const hasLoneSurrogate = (text: string): boolean =>
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);
