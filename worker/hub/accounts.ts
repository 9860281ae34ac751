import { eq } from "drizzle-orm";
import type { z } from "@hono/zod-openapi";
import type { Env } from "../env";
import { getDb } from "../lib/db";
import type { CustomerLookupResult } from "./schemas";
import { billingAccounts } from "./table";

type LookupResult = z.infer<typeof CustomerLookupResult>;
/** Misses are cached too (briefly), so lookups of unknown accounts do not all reach D1. */
type Cached = { found: true; result: LookupResult } | { found: false };

const kvKey = (billingAccount: string) => `billing-account:${billingAccount}`;
const foundTtlSeconds = 600;
const missingTtlSeconds = 60;
/** Edge-cache time of a KV read (the minimum KV allows): bounds how long other locations see a replaced value. */
const edgeCacheSeconds = 30;

export const toLookupResult = (row: typeof billingAccounts.$inferSelect): LookupResult => ({
  tscid: row.customerCacheId ?? row.tscid,
  assets: row.assets,
});

/**
 * Customer lookup through a KV read-through cache; D1 is the source of truth, so a KV failure degrades to D1.
 * Writes delete the cached entry (`forgetBillingAccounts`); entries also expire on their own (10 min, misses 1 min).
 */
export async function lookupBillingAccount(env: Env, billingAccount: string): Promise<LookupResult | null> {
  try {
    const cached = await env.KV.get<Cached>(kvKey(billingAccount), { type: "json", cacheTtl: edgeCacheSeconds });
    if (cached) return cached.found ? cached.result : null;
  } catch (error) {
    console.warn("KV unavailable, reading billing account from D1:", (error as Error).message);
  }
  const [row] = await getDb(env.DB).select().from(billingAccounts).where(eq(billingAccounts.id, billingAccount)).limit(1);
  const result = row ? toLookupResult(row) : null;
  const entry: Cached = result ? { found: true, result } : { found: false };
  await env.KV.put(kvKey(billingAccount), JSON.stringify(entry), {
    expirationTtl: result ? foundTtlSeconds : missingTtlSeconds,
  }).catch((error: Error) => console.warn("KV put of a billing account failed:", error.message));
  return result;
}

/** Drops accounts from the cache after their D1 rows changed. */
export async function forgetBillingAccounts(env: Env, ids: string[]): Promise<void> {
  await Promise.all(
    ids.map((id) =>
      env.KV.delete(kvKey(id)).catch((error: Error) =>
        console.warn(`KV delete of billing account ${id} failed; it expires within ${foundTtlSeconds} s:`, error.message),
      ),
    ),
  );
}
