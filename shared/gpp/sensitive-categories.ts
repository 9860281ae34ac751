/**
 * Categories of sensitive data, as IAB's US sections list them in `SensitiveDataProcessing` (US National v1 order;
 * California groups racial or ethnic origin, beliefs and union membership in one). The service checks a purpose's
 * list against them; the widget's GPP code places each in every section that has it (widget/src/gpp/sensitive.ts).
 */
export const sensitiveCategories = [
  "racial-or-ethnic-origin",
  "religious-or-philosophical-beliefs",
  "health",
  "sex-life-or-sexual-orientation",
  "citizenship-or-immigration-status",
  "genetic",
  "biometric",
  "precise-geolocation",
  "government-id",
  "account-credentials",
  "union-membership",
  "communications-contents",
] as const;

export type SensitiveCategory = (typeof sensitiveCategories)[number];
