import { lte } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Env } from "../env";
import { billingLookups } from "../hub/table";
import { getDb } from "../lib/db";
import { addressBlocks } from "../limits/table";
import { portalSessions } from "../portal/table";
import { signInLinks, ssoPendingSignIns, webauthnChallenges } from "../accounts/table";

/**
 * Operator tables whose rows carry their own end (docs/operations-data.md#what-is-stored-where): each is refused on
 * read once past it, and deleted here by the cron. All live in `DB`.
 */
const expiring: [table: SQLiteTable, end: SQLiteColumn][] = [
  [portalSessions, portalSessions.expires],
  [signInLinks, signInLinks.expires],
  [webauthnChallenges, webauthnChallenges.expires],
  [ssoPendingSignIns, ssoPendingSignIns.expires],
  [billingLookups, billingLookups.until],
  [addressBlocks, addressBlocks.until],
];

/** Deletes every row past its end as of `asOf`, in one batch; how many went. */
export async function purgeExpired(env: Env, asOf = Date.now()): Promise<number> {
  const db = getDb(env.DB);
  const at = new Date(asOf).toISOString();
  const [first, ...rest] = expiring.map(([table, end]) => db.delete(table).where(lte(end, at)));
  const results = await db.batch([first, ...rest]);
  return results.reduce((sum, result) => sum + result.meta.changes, 0);
}
