import { z } from "@hono/zod-openapi";
import { interactions } from "./schemas";

const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "A UTC day, YYYY-MM-DD.").openapi({ example: "2026-11-22" });
const Count = z.number().int().nullable().openapi({ description: "null: between 1 and `minimumCell - 1`, not shown." });
const Rate = z
  .object({ rate: z.number(), low: z.number(), high: z.number() })
  .nullable()
  .openapi("AnalyticsRate", { description: "A share with its 95% Wilson interval; null when a count it needs is not shown or is zero." });
const EventCounts = z.object(Object.fromEntries(interactions.map((e) => [e, Count])) as Record<(typeof interactions)[number], typeof Count>).openapi("AnalyticsEventCounts");
const Funnel = z
  .object({ counts: EventCounts, decided: Rate, acceptAll: Rate, rejectAll: Rate, customised: Rate })
  .openapi("AnalyticsFunnel", { description: "The interactions, and the shares of banners shown that ended in a decision, in Accept all, Reject all, a custom choice." });
const OptIn = { granted: Count, refused: Count, optIn: Rate };
const Breakdown = z.array(z.object({ value: z.string(), ...Funnel.shape }));

export const AnalyticsQuery = z.strictObject({
  from: Day.optional().openapi({ description: "First day (UTC), default 29 days before `to`." }),
  to: Day.optional().openapi({ description: "Last day (UTC), default today; at most 366 days after `from`." }),
});

export const AnalyticsAnswer = z
  .object({
    projectId: z.string(),
    from: Day,
    to: Day,
    minimumCell: z.number().int().openapi({ description: "Counts below it (but above zero) are not shown." }),
    funnel: Funnel,
    daily: z.array(z.object({ day: Day, counts: EventCounts })),
    purposes: z.array(
      z.object({
        purposeId: z.string(),
        referenceId: z.string(),
        name: z.string(),
        total: z.object(OptIn),
        daily: z.array(z.object({ day: Day, ...OptIn })),
        versions: z
          .array(z.object({ version: z.string(), since: Day }))
          .openapi({ description: "Each version of the purpose's text and the day it was made: where a change of wording is marked." }),
      }),
    ),
    breakdowns: z.object({ regime: Breakdown, language: Breakdown, device: Breakdown, variant: Breakdown, page: Breakdown }),
  })
  .openapi("AnalyticsReportAnswer");
