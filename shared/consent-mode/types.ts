/**
 * Google Consent Mode v2 consent types (https://developers.google.com/tag-platform/security/guides/consent): what a
 * purpose stands for, in the Worker's validation and in the vendor catalogue alike.
 */
export const consentTypes = [
  "ad_storage",
  "ad_user_data",
  "ad_personalization",
  "analytics_storage",
  "functionality_storage",
  "personalization_storage",
  "security_storage",
] as const;
export type ConsentType = (typeof consentTypes)[number];
