/*
 * A language's writing direction, for `dir`: a module of its own (not negotiate.ts) because the widget's eager bundle
 * needs it and language negotiation only its lazy parts.
 */

/** `dir` for a language: right to left for the scripts written so (by primary subtag), else left to right. */
export const direction = (language: string) => (/^(ar|fa|he|ur|ps|yi|ckb|dv|sd|ug)\b/i.test(language) ? "rtl" : "ltr");
