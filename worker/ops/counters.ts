import type { Env } from "../env";
import type { SmsStatus } from "../hub/table";
import { bindingNamed, databaseNames } from "../lib/databases";
import { idsFrom } from "../lib/ids";

/**
 * The operator's counters (docs/operations-alerts.md#counters), computed from D1 rather than kept: one query per
 * database reads what the outbox, the delivery log, the tamper-evident log and the SMS outbox already hold.
 */
export type Counters = {
  outboxBacklogAgeSeconds: number;
  deadLetters: number;
  unsealedLogAgeSeconds: number;
  smsFailures: number;
  /** Null below `rateMinimumAttempts`: too few attempts to say. */
  webhookFailureRate: number | null;
  /** Age of the oldest TCF list refresh still failing (worker/tcf/refresh.ts); 0 when every list is current. */
  tcfListFailingSeconds: number;
};
export type CounterName = keyof Counters;
export const counterNames = ["outboxBacklogAgeSeconds", "deadLetters", "unsealedLogAgeSeconds", "smsFailures", "webhookFailureRate", "tcfListFailingSeconds"] as const satisfies readonly CounterName[];

const hour = 3600_000;
/** How far back the counters of things that happened look. */
export const windows = { deadLetters: 24 * hour, smsFailures: hour, webhookFailureRate: hour } as const;
/** Below this many attempts in the window the failure rate says too little: null. */
export const rateMinimumAttempts = 20;

/** Final SMS statuses that mean the message did not reach its receiver. */
const smsFailureStatuses = ["failed", "undelivered", "expired"] as const satisfies SmsStatus[];

/** What one database holds that the counters derive from. */
type Reading = {
  oldestUndispatchedEvent: string | null;
  oldestPendingDelivery: string | null;
  deadLetters: number;
  oldestUnsealedEntry: string | null;
  smsFailures: number;
  webhookAttempts: number;
  webhookFailedAttempts: number;
  oldestFailingTcfRefresh: string | null;
};

/**
 * Each subquery is a seek or a short range: undispatched events (partial index), pending and dead deliveries (status
 * index), each project's first entry after its latest head (primary keys), failed SMS (status index), and the last
 * hour's delivery attempts by id (ids sort by creation time).
 */
const readingQuery = `SELECT
  (SELECT min(created) FROM events WHERE dispatched IS NULL) AS oldestUndispatchedEvent,
  (SELECT min(created) FROM deliveries WHERE status = 'pending') AS oldestPendingDelivery,
  (SELECT count(*) FROM deliveries WHERE status = 'dead' AND updated >= ?1) AS deadLetters,
  (SELECT min((SELECT e.created FROM log_entries e WHERE e.project_id = p.id AND e.seq > coalesce(
     (SELECT h.last_seq FROM log_heads h WHERE h.project_id = p.id ORDER BY h.tree_size DESC LIMIT 1), 0)
     ORDER BY e.seq LIMIT 1)) FROM projects p) AS oldestUnsealedEntry,
  (SELECT count(*) FROM sms_messages WHERE status IN (${smsFailureStatuses.map((s) => `'${s}'`).join(", ")}) AND updated >= ?2) AS smsFailures,
  (SELECT count(*) FROM delivery_attempts WHERE id >= ?3) AS webhookAttempts,
  (SELECT count(error) FROM delivery_attempts WHERE id >= ?3) AS webhookFailedAttempts,
  (SELECT min(failing_since) FROM tcf_refreshes WHERE failing_since IS NOT NULL) AS oldestFailingTcfRefresh`;

async function read(d1: D1Database, asOf: number): Promise<Reading> {
  const since = (ms: number) => new Date(asOf - ms).toISOString();
  const row = await d1
    .prepare(readingQuery)
    .bind(since(windows.deadLetters), since(windows.smsFailures), idsFrom("dla", asOf - windows.webhookFailureRate))
    .first<Reading>();
  return row!;
}

const earliest = (...stamps: (string | null)[]) => stamps.filter((s): s is string => s !== null).sort()[0] ?? null;
const ageSeconds = (stamp: string | null, asOf: number) => (stamp === null ? 0 : Math.max(0, Math.floor((asOf - Date.parse(stamp)) / 1000)));

function countersOf(r: Reading, asOf: number): Counters {
  return {
    outboxBacklogAgeSeconds: ageSeconds(earliest(r.oldestUndispatchedEvent, r.oldestPendingDelivery), asOf),
    deadLetters: r.deadLetters,
    unsealedLogAgeSeconds: ageSeconds(r.oldestUnsealedEntry, asOf),
    smsFailures: r.smsFailures,
    webhookFailureRate: r.webhookAttempts >= rateMinimumAttempts ? Math.round((r.webhookFailedAttempts / r.webhookAttempts) * 1000) / 1000 : null,
    tcfListFailingSeconds: ageSeconds(r.oldestFailingTcfRefresh, asOf),
  };
}

/** Several databases as one: the oldest item of each kind, the sums of the counts. */
const together = (readings: Reading[]): Reading => ({
  oldestUndispatchedEvent: earliest(...readings.map((r) => r.oldestUndispatchedEvent)),
  oldestPendingDelivery: earliest(...readings.map((r) => r.oldestPendingDelivery)),
  deadLetters: readings.reduce((n, r) => n + r.deadLetters, 0),
  oldestUnsealedEntry: earliest(...readings.map((r) => r.oldestUnsealedEntry)),
  smsFailures: readings.reduce((n, r) => n + r.smsFailures, 0),
  webhookAttempts: readings.reduce((n, r) => n + r.webhookAttempts, 0),
  webhookFailedAttempts: readings.reduce((n, r) => n + r.webhookFailedAttempts, 0),
  oldestFailingTcfRefresh: earliest(...readings.map((r) => r.oldestFailingTcfRefresh)),
});

export type Measurement = { counters: Counters; databases: { database: string; counters: Counters }[] };

/** The counters over every database as of `asOf`, and per database. `open` gives a database by binding name. */
export async function measure(env: Env, asOf: number, open: (name: string) => D1Database = (name) => bindingNamed(env, name)): Promise<Measurement> {
  const names = databaseNames(env);
  const readings = await Promise.all(names.map((name) => read(open(name), asOf)));
  return {
    counters: countersOf(together(readings), asOf),
    databases: names.map((database, i) => ({ database, counters: countersOf(readings[i], asOf) })),
  };
}
