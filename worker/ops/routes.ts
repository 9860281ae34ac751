import { z } from "@hono/zod-openapi";
import { access } from "../auth/scopes";
import { getDb } from "../lib/db";
import { createRouter, defineRoute } from "../auth/router";
import { jsonResponse, problems, Timestamp } from "../lib/schemas";
import { counterNames, measure, type CounterName } from "./counters";
import { opsWebhookConfigured } from "./notify";
import { alertRules, isFiring, thresholdOf } from "./rules";
import { alertStatuses, opsAlerts } from "./table";

/** The operator's health view, mounted at `/admin/v1`. */
export const opsRoutes = createRouter();

const Counters = z
  .object({
    outboxBacklogAgeSeconds: z.number().openapi({ description: "Age of the oldest event not fanned out or delivery not yet attempted; 0 when there is none." }),
    deadLetters: z.number().openapi({ description: "Webhook deliveries that became `dead` in the last 24 hours." }),
    unsealedLogAgeSeconds: z.number().openapi({ description: "Age of the oldest log entry no signed tree head covers yet; 0 when every entry is sealed." }),
    smsFailures: z.number().openapi({ description: "SMS that settled `failed`, `undelivered` or `expired` in the last hour." }),
    webhookFailureRate: z.number().nullable().openapi({ description: "Failed share of webhook delivery attempts in the last hour; null below 20 attempts." }),
    tcfListFailingSeconds: z.number().openapi({ description: "Age of the oldest TCF list refresh (GVL, translations, ATP list) still failing; 0 when every list is current." }),
  } satisfies Record<CounterName, z.ZodType>)
  .openapi("OpsCounters");

const OpsHealth = z
  .object({
    checked: Timestamp,
    counters: Counters.openapi({ description: "Over every database." }),
    databases: z.array(z.object({ database: z.string().openapi({ example: "DB" }), counters: Counters })),
    alerts: z.array(
      z.object({
        rule: z.enum(alertRules.map((r) => r.rule) as [string, ...string[]]),
        counter: z.enum(counterNames),
        value: z.number().nullable(),
        threshold: z.number(),
        unit: z.string(),
        firing: z.boolean().openapi({ description: "Whether the counter is at or above the threshold now." }),
        state: z
          .object({ status: z.enum(alertStatuses), since: Timestamp, notified: Timestamp.nullable() })
          .nullable()
          .openapi({ description: "What the alert check last recorded (the cron, every minute); null if the rule never fired." }),
      }),
    ),
    opsWebhook: z.enum(["configured", "not_configured"]).openapi({ description: "Whether `OPS_WEBHOOK_URL` is set." }),
  })
  .openapi("OpsHealth");

opsRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/health",
    operationId: "getOpsHealth",
    ...access.admin,
    tags: ["Admin"],
    summary: "The operator's counters and alert rules",
    description:
      "Computed from every database at the time of the call: the outbox backlog's age, dead letters, the age of the oldest " +
      "unsealed log entry, failed SMS and the webhook failure rate, each with its alert rule, threshold (ALERT_* variables) " +
      "and the state the cron's alert check last recorded (docs/operations-alerts.md). Numbers and database names only.",
    responses: { 200: jsonResponse(OpsHealth, "The counters and alerts."), ...problems },
  }),
  async (c) => {
    const asOf = Date.now();
    const [{ counters, databases }, states] = await Promise.all([
      measure(c.env, asOf, c.var.databases.named),
      getDb(c.var.db).select().from(opsAlerts),
    ]);
    const alerts = alertRules.map((rule) => {
      const threshold = thresholdOf(c.env, rule);
      const value = counters[rule.counter];
      const state = states.find((s) => s.rule === rule.rule);
      return {
        rule: rule.rule,
        counter: rule.counter,
        value,
        threshold,
        unit: rule.unit,
        firing: isFiring(value, threshold),
        state: state ? { status: state.status, since: state.since, notified: state.notified } : null,
      };
    });
    const opsWebhook = opsWebhookConfigured(c.env) ? ("configured" as const) : ("not_configured" as const);
    return c.json({ checked: new Date(asOf).toISOString(), counters, databases, alerts, opsWebhook }, 200);
  },
);
