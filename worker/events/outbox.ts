import { and, asc, eq, inArray, is, isNull, lt, or, SQL, sql } from "drizzle-orm";
import type { Env } from "../env";
import type { Bindable } from "../lib/compiled";
import { getDb, type Db } from "../lib/db";
import { newId } from "../lib/ids";
import { now } from "../lib/time";
import { ttlCache } from "../../shared/ttl-cache";
import { deliveries, events, webhooks } from "./table";
import { logger } from "../lib/logger";

/** The event catalogue: what a webhook can subscribe to (docs/webhooks.md#event-catalogue describes each). */
export const eventTypes = [
  "permission.created",
  "permission.updated",
  "permission.withdrawn",
  "objection.created",
  "objection.updated",
  "objection.withdrawn",
  "erasure.created",
  "erasure.updated",
  "erasure.withdrawn",
  "access.created",
  "access.updated",
  "access.withdrawn",
  "permission_state.changed",
  "identity.deleted",
  "sms.status_changed",
  "scan.completed",
] as const;

export type EventType = (typeof eventTypes)[number];

/**
 * The one place an outbox row is written: a statement to put in the same batch as the change it describes, so
 * the change and its event commit together or not at all. `data` is the event's data (the record as the API
 * returns it), or SQL the batch evaluates to its JSON; the row appears only if `when` holds when the batch
 * reaches it and a webhook of the project subscribes to the type then (D1 runs one write at a time, so a webhook
 * created before the batch sees its event, one created after does not): an event nobody subscribes to has
 * nothing to deliver and is not kept. The row starts pending (`dispatched` NULL) for the fan-out. Subscribers
 * receive `{id, type, projectId, created, data}`. Values may be placeholders of a statement compiled once
 * (worker/lib/compiled.ts), the event's `id` included.
 */
export function eventInsert(
  db: Db,
  projectId: Bindable<string>,
  type: Bindable<EventType>,
  data: unknown,
  options: { stamp?: Bindable<string>; when?: SQL; id?: Bindable<string> } = {},
) {
  const stamp = options.stamp ?? now();
  const json = is(data, SQL) ? data : sql`${JSON.stringify(data)}`;
  return db.insert(events).select(
    db
      .select({
        id: sql<string>`${options.id ?? newId("evt")}`.as("id"),
        projectId: sql<string>`${projectId}`.as("project_id"),
        type: sql<string>`${type}`.as("type"),
        data: sql<unknown>`${json}`.as("data"),
        created: sql<string>`${stamp}`.as("created"),
        dispatched: sql<string | null>`NULL`.as("dispatched"),
      })
      .from(sql`(SELECT 1)`)
      .where(and(options.when, subscribedTo(projectId, type))),
  );
}

/** Whether a webhook of the project subscribes to the type, as the writing batch finds it. */
const subscribedTo = (projectId: Bindable<string>, type: Bindable<EventType>): SQL =>
  sql`EXISTS (SELECT 1 FROM ${webhooks} w, json_each(w.events) e WHERE w.project_id = ${projectId} AND e.value = ${type})`;

/** Whether a project has webhooks, per isolate for a few seconds: most projects have none, and then a write needs no dispatch. */
const webhookPresence = ttlCache<boolean>(10_000);

async function projectHasWebhooks(d1: D1Database, projectId: string): Promise<boolean> {
  const known = webhookPresence.get(projectId);
  if (known !== undefined) return known;
  const [row] = await getDb(d1).select({ id: webhooks.id }).from(webhooks).where(eq(webhooks.projectId, projectId)).limit(1);
  noteWebhookPresence(projectId, Boolean(row));
  return Boolean(row);
}

/** What a write batch found out anyway (worker/requests/write-guard.ts `commit`), so the dispatch need not read it again. */
export function noteWebhookPresence(projectId: string, present: boolean) {
  webhookPresence.set(projectId, present);
}

/** After a webhook of the project was created or deleted in this isolate. */
export const forgetWebhookPresence = (projectId: string) => webhookPresence.delete(projectId);

/**
 * After a batch that wrote events (called by `commit`, worker/events/commit.ts): hands them to delivery without
 * delaying the response (the queue decouples the API call from the subscribers' endpoints, however slow they are).
 * When this isolate last saw no webhook in the project it does nothing; an event that a webhook created meanwhile
 * elsewhere does subscribe to was still written (the batch itself checks for subscribers, see `eventInsert`) and
 * the cron hands it over within a minute. The events are in the database the batch wrote to.
 */
export function dispatchSoon(
  to: { env: Env; db: D1Database; waitUntil(promise: Promise<unknown>): void },
  projectId: string,
): void {
  if (webhookPresence.get(projectId) === false) return;
  to.waitUntil(
    projectHasWebhooks(to.db, projectId)
      .then((present) => (present ? dispatchPending(to.env, to.db) : 0))
      .catch((error) => logger.error("dispatch_failed", { job: "dispatch", projectId }, error)),
  );
}

/** Events fanned out per pass: keeps each `IN (...)` list within D1's 100 bound parameters. */
const eventsPerPass = 50;
/** Delivery rows per insert statement: each binds nine values, D1 allows 100 per statement. */
const deliveriesPerInsert = 8;
/** Deliveries claimed and sent per queue hand-off (`sendBatch` takes up to 100; the claim's IN list stays under D1's limit). */
const deliveriesPerSend = 50;
/** A pending delivery handed to the queue this long ago without an attempt is handed over again. */
const requeueAfterMs = 15 * 60_000;

/**
 * Moves the outbox on: fans undispatched events out into one delivery per subscribed webhook (marking
 * the events dispatched in the same batch), then hands unqueued deliveries to the queue. Safe to run
 * concurrently (request tail and cron): fan-out is idempotent through a unique index, and queue hand-off
 * claims rows first. Returns the number of deliveries handed to the queue.
 */
export async function dispatchPending(env: Env, d1: D1Database): Promise<number> {
  const db = getDb(d1);
  for (let pass = 0; pass < 20; pass++) {
    if ((await fanOut(db)) < eventsPerPass) break;
  }
  let queued = 0;
  for (let pass = 0; pass < 20; pass++) {
    const handed = await enqueueDeliveries(env, d1);
    queued += handed;
    if (handed < deliveriesPerSend) break;
  }
  return queued;
}

async function fanOut(db: Db): Promise<number> {
  const pending = await db
    .select({ id: events.id, projectId: events.projectId, type: events.type })
    .from(events)
    .where(isNull(events.dispatched))
    .orderBy(asc(events.created), asc(events.id))
    .limit(eventsPerPass);
  if (pending.length === 0) return 0;
  const projectIds = [...new Set(pending.map((e) => e.projectId))];
  const subscribed = await db
    .select({ id: webhooks.id, projectId: webhooks.projectId, events: webhooks.events })
    .from(webhooks)
    .where(inArray(webhooks.projectId, projectIds));
  const stamp = now();
  const rows = pending.flatMap((event) =>
    subscribed
      .filter((hook) => hook.projectId === event.projectId && hook.events.includes(event.type))
      .map((hook) => ({
        id: newId("dlv"),
        projectId: event.projectId,
        webhookId: hook.id,
        eventId: event.id,
        status: "pending" as const,
        attempts: 0,
        nextAttempt: stamp,
        created: stamp,
        updated: stamp,
      })),
  );
  const inserts = [];
  for (let i = 0; i < rows.length; i += deliveriesPerInsert) {
    inserts.push(db.insert(deliveries).values(rows.slice(i, i + deliveriesPerInsert)).onConflictDoNothing());
  }
  const markDispatched = db
    .update(events)
    .set({ dispatched: stamp })
    .where(and(inArray(events.id, pending.map((e) => e.id)), isNull(events.dispatched)));
  await db.batch([markDispatched, ...inserts]);
  return pending.length;
}

/** Claims a page of pending deliveries that are not (or no longer credibly) in the queue, and sends them. */
export async function enqueueDeliveries(env: Env, d1: D1Database): Promise<number> {
  const db = getDb(d1);
  const stamp = now();
  const stale = new Date(Date.now() - requeueAfterMs).toISOString();
  const due = db
    .select({ id: deliveries.id })
    .from(deliveries)
    .where(and(eq(deliveries.status, "pending"), or(isNull(deliveries.queued), lt(deliveries.queued, stale))))
    .limit(deliveriesPerSend);
  const claimed = await db
    .update(deliveries)
    .set({ queued: stamp })
    .where(and(inArray(deliveries.id, due), eq(deliveries.status, "pending")))
    .returning({ id: deliveries.id, projectId: deliveries.projectId });
  if (claimed.length === 0) return 0;
  try {
    // The project tells the consumer which database holds the delivery (worker/lib/databases.ts).
    await env.WEBHOOK_QUEUE.sendBatch(
      claimed.map(({ id, projectId }) => ({ body: { deliveryId: id, projectId }, contentType: "json" as const })),
    );
  } catch (error) {
    // Release the claim so the next dispatch (or the cron) sends them instead of waiting out the requeue delay.
    const ids = claimed.map((row) => row.id);
    await db.update(deliveries).set({ queued: null }).where(and(inArray(deliveries.id, ids), eq(deliveries.queued, stamp)));
    throw error;
  }
  return claimed.length;
}
