import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * Transactional outbox: written in the same D1 batch as the change it describes, and only when a webhook of the
 * project subscribes to its type (worker/events/outbox.ts `eventInsert`).
 */
export const events = sqliteTable(
  "events",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id").notNull(),
    type: text("type").notNull(),
    data: text("data", { mode: "json" }).$type<unknown>().notNull(),
    created: text("created").notNull(),
    /** Set once the event has been fanned out into deliveries (same batch); the cron picks up rows where it is null. */
    dispatched: text("dispatched"),
  },
  (t) => [
    // Only undispatched rows: the fan-out's queue, small whatever the outbox keeps. The retention finds old rows
    // by id, which sorts by creation time.
    index("events_pending_idx").on(t.created, t.id).where(sql`${t.dispatched} IS NULL`),
    index("events_project_idx").on(t.projectId, t.id),
  ],
);

export const webhooks = sqliteTable(
  "webhooks",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id").notNull(),
    url: text("url").notNull(),
    events: text("events", { mode: "json" }).$type<string[]>().notNull(),
    description: text("description"),
    /** AES-GCM ciphertext of the `whsec_…` secret (it keys an HMAC, so it cannot be hashed); see secrets.ts. */
    secret: text("secret").notNull(),
    /** The secret before the last rotation, also encrypted; it keeps signing until `previousSecretExpires`. */
    previousSecret: text("previous_secret"),
    previousSecretExpires: text("previous_secret_expires"),
    created: text("created").notNull(),
    updated: text("updated").notNull(),
    /** Grows by one with every write; the resource's ETag (worker/lib/preconditions.ts). */
    revision: integer("revision").notNull().default(1),
  },
  (t) => [index("webhooks_project_idx").on(t.projectId, t.id)],
);

export const deliveryStatuses = ["pending", "failed", "succeeded", "dead"] as const;

/** One event for one webhook: `pending` until the first attempt, `failed` while retries remain, then `succeeded` or `dead`. */
export const deliveries = sqliteTable(
  "deliveries",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id").notNull(),
    webhookId: text("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    status: text("status", { enum: deliveryStatuses }).notNull(),
    attempts: integer("attempts").notNull(),
    lastStatusCode: integer("last_status_code"),
    lastLatencyMs: integer("last_latency_ms"),
    lastError: text("last_error"),
    nextAttempt: text("next_attempt"),
    /** The delivery this one repeats (manual redelivery); null for the delivery made by the event's fan-out. */
    redeliveryOf: text("redelivery_of"),
    /** When the delivery was last handed to the queue; a `pending` row that stays unqueued (or queued long ago) is re-sent by the cron. */
    queued: text("queued"),
    created: text("created").notNull(),
    updated: text("updated").notNull(),
  },
  (t) => [
    index("deliveries_webhook_idx").on(t.webhookId, t.id),
    // Fan-out is idempotent: a second dispatcher racing over the same event inserts nothing.
    uniqueIndex("deliveries_fanout_idx").on(t.eventId, t.webhookId).where(sql`redelivery_of is null`),
    index("deliveries_unqueued_idx").on(t.status, t.queued),
    // The retention keeps an event while any delivery (redeliveries included, which the fan-out index leaves out)
    // names it: one seek per candidate event instead of a scan of every delivery.
    index("deliveries_event_idx").on(t.eventId),
  ],
);

/** Every HTTP attempt of a delivery, for the delivery log. */
export const deliveryAttempts = sqliteTable(
  "delivery_attempts",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id").notNull(),
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => deliveries.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    started: text("started").notNull(),
    statusCode: integer("status_code"),
    latencyMs: integer("latency_ms").notNull(),
    error: text("error"),
  },
  (t) => [index("delivery_attempts_delivery_idx").on(t.deliveryId, t.attempt)],
);
