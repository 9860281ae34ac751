import { z } from "@hono/zod-openapi";

/**
 * Whether the project counts its banner's interactions (docs/analytics.md#turning-counting-off). On unless turned
 * off: the counts need no consent and hold nothing about anyone, so a project gets its opt-in rates from its first
 * visitor; an operator whose regulator reads ePrivacy Art. 5(3) widely turns it off.
 */
export type AnalyticsSettings = { enabled: boolean };

/** What a project without settings (null) gets: counting on, as every project counted before the switch. */
export const defaultAnalyticsSettings: AnalyticsSettings = { enabled: true };

export const AnalyticsSettingsSchema = z
  .strictObject({
    enabled: z.boolean().openapi({
      description:
        "Count the banner's interactions. Off: the bootstrap names no `analytics` part, so the widget loads no counting code, " +
        "and the counting endpoint refuses the project's beacons (403 `analytics_off`); counts already made stay in the reports.",
    }),
  })
  .openapi("AnalyticsSettings");
