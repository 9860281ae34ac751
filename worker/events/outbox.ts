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
