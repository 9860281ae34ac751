import { sql } from "drizzle-orm";
import type { Env } from "../env";
import { getDb } from "../lib/db";
import { dailyCounts } from "./table";

/**
 * Daily caps that must be exact (the Rate Limiting binding's counters are per location and approximate): counted in
 * D1, one row per counter, key and UTC day. Each cap is a var (wrangler.toml) with the default below; the
 * documentation's tables (docs/security.md#daily-caps) hold them.
 */
export const dailyCaps = {
  /** Wrong codes tried on one address (the privacy center): beyond, the address needs a challenge. */
  "guesses-per-address": { limitVar: "DAILY_GUESSES_PER_ADDRESS", byDefault: 20 },
  /** Wrong codes tried from one client address, whatever addresses: beyond, that client needs a challenge. */
  "guesses-per-client": { limitVar: "DAILY_GUESSES_PER_CLIENT", byDefault: 30 },
  /** Codes sent to one address, whoever asked: beyond, the address needs a challenge. */
  "codes-per-address": { limitVar: "DAILY_CODES_PER_ADDRESS", byDefault: 10 },
  /** Requests one privacy-center session files (keyed by its verification; sessions last 30 minutes). */
  "requests-per-session": { limitVar: "PRIVACY_CENTER_REQUESTS_PER_SESSION", byDefault: 5 },
  /**
   * Visitors one scan pass may make (keyed by the pass's id; a pass lasts an hour): the scanned page's own scripts run
   * under the pass too, so past this the pass no longer spares the address limit. 100 pages of 3 visits, and room.
   */
  "visitors-per-scan-pass": { limitVar: "SCAN_PASS_VISITORS", byDefault: 500 },
  /** Code SMS one project sends: beyond, refused (429) and the operator alerted. */
  "sms-per-project": { limitVar: "DAILY_SMS_PER_PROJECT", byDefault: 500 },
} as const satisfies Record<string, { limitVar: keyof Env; byDefault: number }>;

export type DailyCap = keyof typeof dailyCaps;

/** The cap's value on this deployment. */
export function capOf(env: Env, cap: DailyCap): number {
  const { limitVar, byDefault } = dailyCaps[cap];
  const set = Number(env[limitVar]);
  return Number.isInteger(set) && set >= 0 ? set : byDefault;
}

const today = () => new Date().toISOString().slice(0, 10);

/** Adds one to today's count for `key` and answers the count after it (one statement). */
export async function countToday(d1: D1Database, cap: DailyCap, key: string): Promise<number> {
  const [row] = await getDb(d1)
    .insert(dailyCounts)
    .values({ counter: cap, key, day: today(), count: 1 })
    .onConflictDoUpdate({ target: [dailyCounts.counter, dailyCounts.key, dailyCounts.day], set: { count: sql`${dailyCounts.count} + 1` } })
    .returning({ count: dailyCounts.count });
  return row.count;
}

/** Today's counts for several keys of caps at once, in one read: 0 where nothing was counted. */
export async function countsToday(d1: D1Database, wanted: { cap: DailyCap; key: string }[]): Promise<number[]> {
  const day = today();
  const { results } = await d1
    .prepare(
      `SELECT counter, key, count FROM daily_counts WHERE day = ? AND (${wanted.map(() => "(counter = ? AND key = ?)").join(" OR ")})`,
    )
    .bind(day, ...wanted.flatMap(({ cap, key }) => [cap, key]))
    .all<{ counter: string; key: string; count: number }>();
  return wanted.map(({ cap, key }) => results.find((row) => row.counter === cap && row.key === key)?.count ?? 0);
}

/** Deletes counts of days before `asOf`'s, at most `rows` of them (the cron, with the privacy center's records). */
export async function purgeDailyCounts(d1: D1Database, asOf: number, rows: number): Promise<number> {
  const before = new Date(asOf).toISOString().slice(0, 10);
  const { meta } = await d1.prepare("DELETE FROM daily_counts WHERE rowid IN (SELECT rowid FROM daily_counts WHERE day < ? LIMIT ?)").bind(before, rows).run();
  return meta.changes;
}
