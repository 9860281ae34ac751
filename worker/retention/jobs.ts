import { and, eq, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { visitorAliasType } from "../auth/browser-tokens";
import { scanAliasType } from "../scans/pass";
import type { Env } from "../env";
import { deliveries, events } from "../events/table";
import { aliases, identities } from "../identities/table";
import { defaultDatabase } from "../lib/databases";
import { emailOutbox } from "../email/table";
import { purgeDailyCounts } from "../limits/daily";
import { getDb, type Db } from "../lib/db";
import { idsFrom } from "../lib/ids";
import { now } from "../lib/time";
import { verificationCodes, verifications } from "../privacy-center/table";
import { requests } from "../requests/table";
import { jobWatermarks } from "./table";

/**
 * Retention, run by the cron (worker/index.ts). Each job deletes at most `rowsPerPass` rows per run, so a backlog
 * drains over a few minutes instead of one long invocation. Periods are vars (docs/security.md#retention).
 */
const rowsPerPass = 500;
const day = 24 * 3600 * 1000;

const days = (value: string | undefined, fallback: number) => {
  const parsed = Number(value);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : fallback;
};
const cutoff = (value: string | undefined, fallback: number, asOf: number) => new Date(asOf - days(value, fallback) * day).toISOString();

/** The DELETE of the rows of `table` that `chosen` (a SELECT of ids) names, at most `rowsPerPass` of them. */
const purgeOf = (db: Db, table: SQLiteTable & { id: SQLiteColumn }, chosen: SQL) =>
  db
    .delete(table)
    .where(sql`${table.id} IN (${chosen} LIMIT ${rowsPerPass})`)
    .returning({ id: table.id });

/** Deletes the rows of `table` that `chosen` names, at most `rowsPerPass` of them; how many went. */
const purge = async (env: Env, table: SQLiteTable & { id: SQLiteColumn }, chosen: SQL) => (await purgeOf(getDb(env.DB), table, chosen)).length;

export const retentionDefaults = { idleVisitorDays: 30, dispatchedEventDays: 7, webhookDeliveryDays: 30 } as const;

/** The idle-visitor job's name in `job_watermarks`. */
export const idleVisitorsJob = "idle-visitors";

/**
 * Identities the visitor-token endpoint created that never recorded anything: only their visitor alias, no
 * referenceId, no request of any kind, older than RETENTION_IDLE_VISITOR_DAYS. (Their aliases go with them.)
 *
 * Each identity is examined once, as it crosses the period: a run takes the next `rowsPerPass` identities in id
 * (creation) order after the database's watermark and older than the period, moves the watermark to the last of them
 * and deletes the idle ones, in one batch. An identity found in use then is not examined again.
 */
export async function purgeIdleVisitors(env: Env, asOf = Date.now(), database = defaultDatabase): Promise<number> {
  const bound = idsFrom("idn", Date.parse(cutoff(env.RETENTION_IDLE_VISITOR_DAYS, retentionDefaults.idleVisitorDays, asOf)));
  const db = getDb(env.DB);
  const mark = and(eq(jobWatermarks.job, idleVisitorsJob), eq(jobWatermarks.database, database));
  const from = (await db.select({ watermark: jobWatermarks.watermark }).from(jobWatermarks).where(mark).get())?.watermark ?? "";
  const walked = sql`SELECT id FROM ${identities} WHERE id > ${from} AND id < ${bound} ORDER BY id LIMIT ${rowsPerPass}`;
  const [, deleted] = await db.batch([
    db
      .insert(jobWatermarks)
      .values({ job: idleVisitorsJob, database, watermark: sql`coalesce((SELECT max(id) FROM (${walked})), ${from})`, updated: now() })
      .onConflictDoUpdate({
        target: [jobWatermarks.job, jobWatermarks.database],
        set: { watermark: sql`excluded.watermark`, updated: sql`excluded.updated` },
      }),
    purgeOf(
      db,
      identities,
      sql`SELECT i.id FROM ${identities} i
        WHERE i.id > ${from} AND i.id <= (SELECT watermark FROM ${jobWatermarks} WHERE ${mark}) AND i.reference_id IS NULL
          AND EXISTS (SELECT 1 FROM ${aliases} a WHERE a.identity_id = i.id AND a.type = ${visitorAliasType})
          AND NOT EXISTS (SELECT 1 FROM ${aliases} a WHERE a.identity_id = i.id AND a.type NOT IN (${visitorAliasType}, ${scanAliasType}))
          AND NOT EXISTS (SELECT 1 FROM ${requests} r WHERE r.identity_id = i.id)`,
    ),
  ]);
  return deleted.length;
}

/** Finished webhook deliveries (succeeded or dead) last touched before RETENTION_WEBHOOK_DELIVERIES_DAYS. */
export async function purgeWebhookDeliveries(env: Env, asOf = Date.now()): Promise<number> {
  const before = cutoff(env.RETENTION_WEBHOOK_DELIVERIES_DAYS, retentionDefaults.webhookDeliveryDays, asOf);
  return purge(env, deliveries, sql`SELECT id FROM ${deliveries} WHERE status IN ('succeeded', 'dead') AND updated < ${before}`);
}

/**
 * Outbox events dispatched before RETENTION_DISPATCHED_EVENTS_DAYS that no delivery log still names (a delivery
 * can be redelivered, which needs its event).
 */
export async function purgeDispatchedEvents(env: Env, asOf = Date.now()): Promise<number> {
  const before = cutoff(env.RETENTION_DISPATCHED_EVENTS_DAYS, retentionDefaults.dispatchedEventDays, asOf);
  // Event ids sort by creation time (worker/lib/ids.ts): the id bound makes this a range of the primary key.
  return purge(
    env,
    events,
    sql`SELECT e.id FROM ${events} e WHERE e.id < ${idsFrom("evt", Date.parse(before))} AND e.dispatched IS NOT NULL AND e.created < ${before}
      AND NOT EXISTS (SELECT 1 FROM ${deliveries} d WHERE d.event_id = e.id)`,
  );
}

/**
 * The privacy center's verification records past their project's retention (fixed on each record as `purge_after`),
 * one-time codes a day after they expired, and the abuse counts of days past (worker/limits/daily.ts). All index seeks.
 */
export async function purgeVerifications(env: Env, asOf = Date.now()): Promise<number> {
  const [records, codes, counts] = await Promise.all([
    purge(env, verifications, sql`SELECT ${verifications.id} FROM ${verifications} WHERE ${verifications.purgeAfter} < ${new Date(asOf).toISOString()}`),
    purge(env, verificationCodes, sql`SELECT ${verificationCodes.id} FROM ${verificationCodes} WHERE ${verificationCodes.expires} < ${new Date(asOf - day).toISOString()}`),
    purgeDailyCounts(env.DB, asOf, rowsPerPass),
  ]);
  return records + codes + counts;
}

/**
 * The email outbox: captured mail (no provider: local development) a day after it was written, as it holds one-time
 * codes in clear; a provider's outcome (the recipient's address, sent or failed) after 30 days, long enough to answer
 * "did my code go out?". Index seeks on (status, created).
 */
export async function purgeEmailOutbox(env: Env, asOf = Date.now()): Promise<number> {
  const captured = new Date(asOf - day).toISOString();
  const handedOver = new Date(asOf - 30 * day).toISOString();
  const [codes, outcomes] = await Promise.all([
    purge(env, emailOutbox, sql`SELECT ${emailOutbox.id} FROM ${emailOutbox} WHERE ${emailOutbox.status} = 'captured' AND ${emailOutbox.created} < ${captured}`),
    purge(env, emailOutbox, sql`SELECT ${emailOutbox.id} FROM ${emailOutbox} WHERE ${emailOutbox.status} IN ('sent', 'failed') AND ${emailOutbox.created} < ${handedOver}`),
  ]);
  return codes + outcomes;
}
