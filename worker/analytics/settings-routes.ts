import { createRouter } from "../auth/router";
import { defineSettingsRoutes } from "../project-settings/define-routes";
import { AnalyticsSettingsSchema, defaultAnalyticsSettings } from "./settings";

/** The project's counting switch, mounted at `/admin/v1/projects/{project_id}/analytics/settings`. */
export const analyticsSettingsRoutes = createRouter();

defineSettingsRoutes(analyticsSettingsRoutes, {
  column: "analytics",
  schema: AnalyticsSettingsSchema,
  defaults: defaultAnalyticsSettings,
  tags: ["Analytics"],
  read: {
    operationId: "getAnalyticsSettings",
    summary: "Read whether the project counts its banner's interactions",
    answer: "The settings (the defaults until set: counting on).",
  },
  write: {
    operationId: "updateAnalyticsSettings",
    // What the widget loads on the project's pages, as the configuration is: editors change it too.
    scope: "config:write",
    summary: "Turn counting the banner's interactions on or off",
    description:
      "On by default: the counts hold no identifier and need no consent (docs/analytics.md#why-counting-needs-no-consent). Off, " +
      "for an operator whose regulator reads ePrivacy Art. 5(3) widely: the widget loads no counting code on the project's pages " +
      "and the counting endpoint refuses the project's beacons (403 `analytics_off`). Counts already made are kept.",
  },
});
