import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/** Transactional outbox: written in the same D1 batch as the change it describes. */
export const events = sqliteTable(
  "events",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id").notNull(),
    type: text("type").notNull(),
    data: text("data", { mode: "json" }).$type<unknown>().notNull(),
    created: text("created").notNull(),
    /** Set once the event has been handed to the delivery queue; the cron re-enqueues rows where it is null. */
    dispatched: text("dispatched"),
  },
  (t) => [index("events_pending_idx").on(t.dispatched, t.created), index("events_project_idx").on(t.projectId, t.id)],
);

export const webhooks = sqliteTable(
  "webhooks",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id").notNull(),
    url: text("url").notNull(),
    events: text("events", { mode: "json" }).$type<string[]>().notNull(),
    description: text("description"),
    secret: text("secret").notNull(),
    previousSecret: text("previous_secret"),
    previousSecretExpires: text("previous_secret_expires"),
    created: text("created").notNull(),
    updated: text("updated").notNull(),
  },
  (t) => [index("webhooks_project_idx").on(t.projectId, t.id)],
);

export const deliveries = sqliteTable(
  "deliveries",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id").notNull(),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    status: text("status", { enum: ["pending", "succeeded", "failed", "dead"] }).notNull(),
    attempts: integer("attempts").notNull(),
    lastStatusCode: integer("last_status_code"),
    lastLatencyMs: integer("last_latency_ms"),
    lastError: text("last_error"),
    nextAttempt: text("next_attempt"),
    created: text("created").notNull(),
    updated: text("updated").notNull(),
  },
  (t) => [index("deliveries_webhook_idx").on(t.webhookId, t.id)],
);
