import { createRouter } from "../auth/router";
import { defineSettingsRoutes } from "../project-settings/define-routes";
import { defaultGppSettings, GppSettingsSchema } from "./settings";

/** The project's GPP settings (docs/gpp.md#mspa), beside its Consent Mode settings and in the same shape. */
export const gppRoutes = createRouter();

defineSettingsRoutes(gppRoutes, {
  column: "gpp",
  schema: GppSettingsSchema,
  defaults: defaultGppSettings,
  tags: ["GPP"],
  read: {
    operationId: "getGppSettings",
    summary: "Read the project's IAB GPP settings (MSPA)",
    answer: "The settings (the defaults until set: not a covered transaction).",
  },
  write: {
    operationId: "updateGppSettings",
    scope: "projects:write",
    summary: "Replace the project's IAB GPP settings (MSPA)",
    description:
      "Whether the pages' transactions are MSPA Covered Transactions and in which mode: the widget writes them into " +
      "every GPP section it serves (`MspaCoveredTransaction`, `MspaOptOutOptionMode`, `MspaServiceProviderMode`).",
  },
});
