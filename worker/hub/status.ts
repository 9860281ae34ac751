import { and, eq, sql } from "drizzle-orm";
import { commit, type Committer } from "../events/commit";
import { eventInsert } from "../events/outbox";
import { getDb, isConstraintError, type Db, type Statement } from "../lib/db";
import { smsMessages, smsRouteHealth, smsTrail, type OutboxMessage, type SmsStatus } from "./table";

/** One change of a message: a new status (or the same one, for another failed attempt or a reroute) and its fields. */
export type Change = {
  status: SmsStatus;
  detail: string;
  errorCode?: string | null;
  /** Other columns to set with it (attempts, nextAttempt, provider …). */
  set?: Partial<OutboxMessage>;
};

/** The payload of `sms.status_changed`: enough for the sending client to recognise its message (it never saw the id). */
const eventData = (row: OutboxMessage, change: Change, route: string, at: string) => ({
  messageId: row.id,
  clientId: row.clientId,
  receiver: row.receiver,
  sender: row.sender,
  route,
  previousStatus: row.status,
  status: change.status,
  errorCode: change.errorCode ?? null,
  detail: change.detail,
  created: row.created,
  at,
});

/**
 * The statements of one change, for one D1 batch: the trail entry first (its key is the message's next revision, so
 * of two changes computed from the same state only one commits: the other batch fails and rolls back whole), the
 * row, and, when the status changes, `sms.status_changed` through the events outbox.
 */
function changeStatements(db: Db, row: OutboxMessage, change: Change, at: string): Statement[] {
  const route = change.set?.provider ?? row.provider;
  const revision = row.revision + 1;
  const statements: Statement[] = [
    db.insert(smsTrail).values({
      messageId: row.id,
      seq: revision,
      at,
      status: change.status,
      route,
      errorCode: change.errorCode ?? null,
      detail: change.detail,
    }),
    db
      .update(smsMessages)
      .set({ ...change.set, status: change.status, revision, updated: at, ...(change.errorCode !== undefined ? { errorCode: change.errorCode } : {}) })
      .where(and(eq(smsMessages.id, row.id), eq(smsMessages.revision, row.revision))),
  ];
  if (change.status !== row.status) statements.push(eventInsert(db, row.projectId, "sms.status_changed", eventData(row, change, route, at)));
  return statements;
}

/**
 * Records one change in one batch. Returns false when another change of the message committed first (the caller's
 * view was stale): nothing was written then.
 */
export async function applyChange(committer: Committer, row: OutboxMessage, change: Change, at: string): Promise<boolean> {
  try {
    await commit(committer, row.projectId, changeStatements(getDb(committer.db), row, change, at), () => ({ applied: true }));
    return true;
  } catch (error) {
    if (isConstraintError(error, "UNIQUE") || isConstraintError(error, "PRIMARY KEY")) return false;
    throw error;
  }
}

/** Records how a route's hand-offs went: a success clears its failure count, transient failures add to it. */
export async function recordRouteHealth(
  d1: D1Database,
  route: string,
  outcome: { successes: number; transientFailures: number; lastError: string | null },
  at: string,
): Promise<void> {
  const lastSuccess = outcome.successes > 0 ? at : null;
  const lastErrorAt = outcome.lastError ? at : null;
  await getDb(d1)
    .insert(smsRouteHealth)
    .values({ route, lastSuccess, lastError: outcome.lastError, lastErrorAt, consecutiveFailures: outcome.successes > 0 ? 0 : outcome.transientFailures })
    .onConflictDoUpdate({
      target: smsRouteHealth.route,
      set: {
        lastSuccess: sql`coalesce(${lastSuccess}, ${smsRouteHealth.lastSuccess})`,
        lastError: sql`coalesce(${outcome.lastError}, ${smsRouteHealth.lastError})`,
        lastErrorAt: sql`coalesce(${lastErrorAt}, ${smsRouteHealth.lastErrorAt})`,
        consecutiveFailures:
          outcome.successes > 0 ? 0 : sql`${smsRouteHealth.consecutiveFailures} + ${outcome.transientFailures}`,
      },
    });
}
