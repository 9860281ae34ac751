import { createRouter } from "../auth/router";
import { defineSettingsRoutes } from "../project-settings/define-routes";
import { ConsentModeSettingsSchema, defaultConsentModeSettings } from "./settings";

/** The project's Google Consent Mode v2 settings: the tags' defaults and updates the widget sets (docs/jurisdictions.md#google-consent-mode-v2). */
export const consentModeRoutes = createRouter();

defineSettingsRoutes(consentModeRoutes, {
  column: "consentMode",
  schema: ConsentModeSettingsSchema,
  defaults: defaultConsentModeSettings,
  tags: ["Consent Mode"],
  read: {
    operationId: "getConsentModeSettings",
    summary: "Read the project's Google Consent Mode v2 settings",
    answer: "The settings (the defaults until set: off).",
  },
  write: {
    operationId: "updateConsentModeSettings",
    scope: "projects:write",
    summary: "Replace the project's Google Consent Mode v2 settings",
    description:
      "With `enabled`, the widget sets gtag `consent default` (region-scoped from the jurisdiction rules, with " +
      "`wait_for_update`, `url_passthrough`, `ads_data_redaction`) before any gated tag and an `update` on every " +
      "decision. Which consent types a purpose stands for is the purpose's `consentMode` field.",
  },
});
