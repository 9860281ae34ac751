import type { Env } from "../env";
import type { Db } from "../lib/db";
import { newId } from "../lib/ids";
import { now } from "../lib/time";
import { events } from "./table";

export type EventType =
  | `${"permission" | "objection" | "erasure" | "access"}.${"created" | "updated" | "withdrawn"}`
  | "permission_state.changed"
  | "identity.deleted";

/**
 * The outbox row for one event, as a statement to put in the same `db.batch([...])` as the change it
 * describes: the change and its event commit together or not at all.
 */
export function eventInsert(db: Db, projectId: string, type: EventType, data: unknown) {
  return db.insert(events).values({ id: newId("evt"), projectId, type, data, created: now(), dispatched: null });
}

/**
 * Call after a batch that wrote events: hands them to delivery without delaying the response.
 * (Delivery itself lives in this folder; until a project has webhooks there is nothing to send.)
 */
export function dispatchSoon(c: { env: Env; executionCtx: { waitUntil(promise: Promise<unknown>): void } }): void {
  c.executionCtx.waitUntil(dispatchPending(c.env));
}

/** Hands undispatched outbox rows to the delivery queue. */
export async function dispatchPending(_env: Env): Promise<void> {}
