import { and, eq, sql } from "drizzle-orm";
import { commit, type Committer } from "../events/commit";
import { eventInsert } from "../events/outbox";
import { bindingNamed, databaseNameOf, defaultDatabase } from "../lib/databases";
import { logger } from "../lib/logger";
import { atomically, getDb, isConstraintError, type Db, type Statement } from "../lib/db";
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

const routeOf = (row: OutboxMessage, change: Change) => change.set?.provider ?? row.provider;

/**
 * The statements of one change, for one D1 batch: the trail entry first (its key is the message's next revision, so
 * of two changes computed from the same state only one commits: the other batch fails and rolls back whole), then
 * the row.
 */
function changeStatements(db: Db, row: OutboxMessage, change: Change, at: string): Statement[] {
  const route = routeOf(row, change);
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
  return statements;
}

/**
 * Records one change in one batch on the hub's database (`committer.db`, DB) and, when the status changes,
 * `sms.status_changed` in the outbox of the message's project, where its webhooks are. For a project in DB that is
 * the same batch. A project in another database gets it there once the change has committed, and it is dispatched
 * from there; a failure of that write is logged, the change stands (the message's trail has it). Returns false when
 * another change of the message committed first (the caller's view was stale): nothing was written then.
 */
export async function applyChange(committer: Committer, row: OutboxMessage, change: Change, at: string): Promise<boolean> {
  const db = getDb(committer.db);
  const home = databaseNameOf(committer.env, row.projectId);
  const emits = change.status !== row.status;
  const event = (on: Db) => eventInsert(on, row.projectId, "sms.status_changed", eventData(row, change, routeOf(row, change), at));
  const statements = changeStatements(db, row, change, at);
  const applied = () => ({ applied: true });
  try {
    if (home === defaultDatabase) await commit(committer, row.projectId, emits ? [...statements, event(db)] : statements, applied);
    // Not through `commit`: its dispatch would look for the project's webhooks in DB.
    else await atomically(committer.db, statements);
  } catch (error) {
    if (isConstraintError(error, "UNIQUE") || isConstraintError(error, "PRIMARY KEY")) return false;
    throw error;
  }
  if (emits && home !== defaultDatabase) {
    const there: Committer = { ...committer, db: bindingNamed(committer.env, home) };
    await commit(there, row.projectId, [event(getDb(there.db))], applied).catch((error: unknown) =>
      logger.error("sms_status_event_not_written", { projectId: row.projectId, binding: home }, error),
    );
  }
  return true;
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
