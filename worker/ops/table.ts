import { real, sqliteTable, text } from "drizzle-orm/sqlite-core";

export const alertStatuses = ["firing", "resolved"] as const;
export type AlertStatus = (typeof alertStatuses)[number];

/**
 * Where each alert rule stands (in `DB`): one row per rule that has ever fired. A crossing replaces the row with a new
 * `eventId`, so the operator hears of each crossing once; `notified` stays null until their webhook took the event.
 */
export const opsAlerts = sqliteTable("ops_alerts", {
  rule: text("rule").primaryKey(),
  status: text("status", { enum: alertStatuses }).notNull(),
  /** The `ops.alert` event of this crossing: its `id` and `webhook-id`, the same on every retry. */
  eventId: text("event_id").notNull(),
  /** The counter and threshold when the crossing was seen; null value: the counter had nothing to measure. */
  value: real("value"),
  threshold: real("threshold").notNull(),
  /** The counter per database at the crossing. */
  databases: text("databases", { mode: "json" }).$type<Record<string, number | null>>().notNull(),
  since: text("since").notNull(),
  notified: text("notified"),
});
