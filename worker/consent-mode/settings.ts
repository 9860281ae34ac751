import { z } from "@hono/zod-openapi";
import { consentTypes } from "../../shared/consent-mode/types.ts";

export { consentTypes, type ConsentType } from "../../shared/consent-mode/types.ts";

export type ConsentModeSettings = {
  /** Whether the widget talks to Google tags at all (gtag `consent` commands and `dataLayer` events). */
  enabled: boolean;
  /** Milliseconds Google tags wait for the `update` after the `default` (gtag `wait_for_update`). */
  waitForUpdate: number;
  /** gtag `url_passthrough`: pass ad click ids in links while ad_storage is denied. */
  urlPassthrough: boolean;
  /** gtag `ads_data_redaction`: redact ad click ids while ad_storage is denied. */
  adsDataRedaction: boolean;
};

/** What a project without settings gets: off (a site without Google tags needs nothing), Google's suggested values otherwise. */
export const defaultConsentModeSettings: ConsentModeSettings = {
  enabled: false,
  waitForUpdate: 500,
  urlPassthrough: false,
  adsDataRedaction: true,
};

export const ConsentTypeList = z
  .array(z.enum(consentTypes))
  .max(consentTypes.length)
  .refine((types) => new Set(types).size === types.length, "A consent type is listed twice.")
  .openapi({
    description: "Google Consent Mode v2 types this purpose stands for; the widget grants them when the purpose is allowed.",
    example: ["analytics_storage"],
  });

export const ConsentModeSettingsSchema = z
  .strictObject({
    enabled: z.boolean(),
    waitForUpdate: z.number().int().min(0).max(10_000).openapi({ description: "gtag `wait_for_update`, milliseconds." }),
    urlPassthrough: z.boolean(),
    adsDataRedaction: z.boolean(),
  })
  .openapi("ConsentModeSettings");
