import { z } from "@hono/zod-openapi";
import { regimes } from "../jurisdictions/rules";

/** What the widget reports: interactions, each counted once (docs/analytics.md#what-is-counted). */
export const interactions = ["banner_shown", "accept_all", "reject_all", "customised", "dismissed", "preferences_reopened", "withdrawn"] as const;
export type Interaction = (typeof interactions)[number];

/** Device classes, told apart by the request's User-Agent (the widget sends nothing for it). */
export const devices = ["mobile", "tablet", "desktop"] as const;
export type Device = (typeof devices)[number];

export const maxEventsPerReport = 10;
const maxPurposesPerEvent = 50;

const PurposeIds = z.array(z.string().regex(/^pur_[0-9A-Z]{26}$/, "A purpose id.")).max(maxPurposesPerEvent);

const CountedEvent = z
  .strictObject({
    event: z.enum(interactions),
    granted: PurposeIds.optional().openapi({ description: "A decision's purposes the visitor allowed." }),
    refused: PurposeIds.optional().openapi({ description: "A decision's purposes the visitor refused (or withdrew)." }),
  })
  .openapi("AnalyticsEvent");

export const VariantName = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, "Lower-case letters, digits and hyphens, at most 40.")
  .openapi({ example: "short-wording" });

export const AnalyticsReport = z
  .strictObject({
    regime: z.enum(regimes),
    language: z.string().regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/, "The widget's language (`bootstrap.language`).").max(12),
    path: z.string().min(1).max(2000).openapi({
      description:
        "The page's path (`location.pathname`). Stored normalised: without query or fragment, at most 200 characters, every " +
        "segment that could name someone (digits, long hex, an `@`) replaced by `:id`.",
      example: "/shop/cart",
    }),
    variant: VariantName.optional().openapi({ description: "The banner variant the visitor was shown, when the project runs an experiment." }),
    events: z.array(CountedEvent).min(1).max(maxEventsPerReport),
  })
  .openapi("AnalyticsReport", { description: "Banner interactions of one page view, sent by the widget without credentials." });
export type AnalyticsReport = z.infer<typeof AnalyticsReport>;
