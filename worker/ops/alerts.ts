import { and, eq, isNull } from "drizzle-orm";
import type { Env } from "../env";
import { atomically, getDb } from "../lib/db";
import { newId } from "../lib/ids";
import { measure } from "./counters";
import { opsWebhookConfigured, sendOpsEvent, type OpsEvent } from "./notify";
import { alertRules, isFiring, thresholdOf } from "./rules";
import { opsAlerts, type AlertStatus } from "./table";
import { logger } from "../lib/logger";

type AlertRow = typeof opsAlerts.$inferSelect;

/** The `ops.alert` event a rule's row stands for (docs/operations-alerts.md#the-opsalert-event). */
export function alertEvent(row: AlertRow): OpsEvent {
  const rule = alertRules.find((r) => r.rule === row.rule);
  return {
    id: row.eventId,
    type: "ops.alert",
    created: row.since,
    data: {
      rule: row.rule,
      status: row.status,
      counter: rule?.counter ?? null,
      value: row.value,
      threshold: row.threshold,
      unit: rule?.unit ?? null,
      since: row.since,
      databases: row.databases,
      runbook: `docs/operations-alerts.md#${row.rule}`,
    },
  };
}

/**
 * Cron job (in `DB`, reading every database): measures the counters as of `asOf`, records each rule that crossed its
 * threshold (either way) as a new event, then sends the operator every event their webhook has not taken yet. A rule
 * that stays across sends nothing more; an unsent event is sent again the next minute, with the same id. Failing
 * sends are logged and fail the job, so they show in the cron's history too.
 */
export async function checkAlerts(env: Env, asOf: number = Date.now()): Promise<number> {
  const { counters, databases } = await measure(env, asOf);
  const db = getDb(env.DB);
  const states = new Map((await db.select().from(opsAlerts)).map((row) => [row.rule, row]));
  const since = new Date(asOf).toISOString();
  const crossings = alertRules.flatMap((rule) => {
    const threshold = thresholdOf(env, rule);
    const value = counters[rule.counter];
    const state = states.get(rule.rule);
    const status: AlertStatus = isFiring(value, threshold) ? "firing" : "resolved";
    // Nothing crossed: a rule that never fired has nothing to resolve.
    if ((state?.status ?? "resolved") === status) return [];
    const row: AlertRow = {
      rule: rule.rule,
      status,
      eventId: newId("evt"),
      value,
      threshold,
      databases: Object.fromEntries(databases.map((d) => [d.database, d.counters[rule.counter]])),
      since,
      notified: null,
    };
    // A concurrent check that recorded this crossing first wins; this one then leaves the row to it.
    return [
      state
        ? db.update(opsAlerts).set(row).where(and(eq(opsAlerts.rule, rule.rule), eq(opsAlerts.eventId, state.eventId)))
        : db.insert(opsAlerts).values(row).onConflictDoNothing(),
    ];
  });
  if (crossings.length > 0) await atomically(env.DB, crossings);
  if (!opsWebhookConfigured(env)) return 0;
  const unsent = await db.select().from(opsAlerts).where(isNull(opsAlerts.notified));
  const failures: Error[] = [];
  for (const row of unsent) {
    try {
      await sendOpsEvent(env, alertEvent(row));
      await db
        .update(opsAlerts)
        .set({ notified: new Date().toISOString() })
        .where(and(eq(opsAlerts.rule, row.rule), eq(opsAlerts.eventId, row.eventId)));
    } catch (error) {
      logger.error("ops_alert_not_sent", { job: "alerts", rule: row.rule }, error);
      failures.push(error as Error);
    }
  }
  if (failures.length > 0) throw new AggregateError(failures, `${failures.length} ops alert(s) not sent`);
  return unsent.length;
}
