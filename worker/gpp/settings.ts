import { z } from "@hono/zod-openapi";

/**
 * Whether the project's pages are covered by IAB's Multi-State Privacy Agreement (MSPA), which the GPP sections'
 * `MspaCoveredTransaction`, `MspaOptOutOptionMode` and `MspaServiceProviderMode` declare (docs/gpp.md#mspa). Only the
 * publisher knows whether it signed the agreement, so it is the project's to say.
 */
export type GppSettings = {
  /** The publisher signed the MSPA and declares its pages' transactions "Covered Transactions". */
  mspaCoveredTransaction: boolean;
  /** The mode a covered transaction is in (exactly one); null when the transaction is not covered. */
  mspaMode: "opt-out-option" | "service-provider" | null;
};

/** What a project without settings gets: not a covered transaction, so neither mode applies. */
export const defaultGppSettings: GppSettings = { mspaCoveredTransaction: false, mspaMode: null };

export const GppSettingsSchema = z
  .strictObject({
    mspaCoveredTransaction: z.boolean().openapi({
      description: "The publisher is an MSPA signatory and declares the pages' transactions Covered Transactions (`MspaCoveredTransaction` 1; false: 2).",
    }),
    mspaMode: z.enum(["opt-out-option", "service-provider"]).nullable().openapi({
      description:
        "The MSPA mode of a covered transaction: `opt-out-option` (Opt-Out Option Mode: `MspaOptOutOptionMode` 1, " +
        "`MspaServiceProviderMode` 2) or `service-provider` (the other way round); null, and both fields 0, when not covered.",
    }),
  })
  .superRefine((settings, ctx) => {
    if (settings.mspaCoveredTransaction !== (settings.mspaMode !== null)) {
      ctx.addIssue({
        code: "custom",
        path: ["mspaMode"],
        message: "A covered transaction is in exactly one mode (opt-out-option or service-provider); a transaction not covered has none (null).",
      });
    }
  })
  .openapi("GppSettings");
