import type { StringKey } from "../../shared/i18n/strings";

/*
 * Strings a translation may leave exactly as English has them, because the language itself writes them so (a
 * loanword, an international abbreviation). Anything else equal to English is an untranslated string.
 */
export const sameEverywhere: StringKey[] = ["ok"];

export const sameAsEnglish: Record<string, StringKey[]> = {
  de: ["details"],
};
