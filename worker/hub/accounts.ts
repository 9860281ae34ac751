import { eq } from "drizzle-orm";
import { z } from "@hono/zod-openapi";
import type { Env } from "../env";
import { getDb } from "../lib/db";
import { ApiError } from "../lib/errors";
import { BillingAccountInput, type CustomerLookupResult } from "./schemas";
import { billingAccounts } from "./table";

type LookupResult = z.infer<typeof CustomerLookupResult>;
/** Misses are cached too (briefly), so lookups of unknown accounts do not all reach the source. */
type Cached = { found: true; result: LookupResult } | { found: false };
/** KV metadata of an entry: the end of its documented age, checked on read (KV's own expiry may remove it later). */
type CachedMetadata = { until: number };

const kvKey = (billingAccount: string) => `billing-account:${billingAccount}`;
export const foundTtlSeconds = 600;
export const missingTtlSeconds = 60;
/** Edge-cache time of a KV read (the minimum KV allows): bounds how long other locations see a replaced value. */
const edgeCacheSeconds = 30;
const defaultUpstreamTimeoutMs = 5000;
/** The upstream's answer: a billing account; fields we do not use are ignored. */
const UpstreamAccount = z.object(BillingAccountInput.shape);

export const toLookupResult = (row: { tscid: string; customerCacheId?: string | null; assets: LookupResult["assets"] }): LookupResult => ({
  tscid: row.customerCacheId ?? row.tscid,
  assets: row.assets,
});

/**
 * The operator's billing system (`BILLING_UPSTREAM_URL`): `GET <url>/<billing_account>` with the bearer
 * `BILLING_UPSTREAM_SECRET`, answering a billing account (`tscid`, `customerCacheId`, `assets`) or 404. Anything
 * else is 502 `upstream_failed`; no answer within the timeout is 504 `upstream_timeout`.
 */
async function fromUpstream(env: Env, url: string, billingAccount: string): Promise<LookupResult | null> {
  const timeoutMs = Number(env.BILLING_UPSTREAM_TIMEOUT_MS ?? defaultUpstreamTimeoutMs);
  let response: Response;
  try {
    response = await fetch(`${url.replace(/\/+$/, "")}/${encodeURIComponent(billingAccount)}`, {
      headers: { accept: "application/json", ...(env.BILLING_UPSTREAM_SECRET ? { authorization: `Bearer ${env.BILLING_UPSTREAM_SECRET}` } : {}) },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    if ((error as Error).name === "TimeoutError") {
      throw new ApiError(504, "upstream_timeout", `The billing system did not answer within ${timeoutMs} ms.`);
    }
    throw new ApiError(502, "upstream_failed", "The billing system could not be reached.");
  }
  if (response.status === 404) {
    await response.body?.cancel();
    return null;
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new ApiError(502, "upstream_failed", `The billing system answered ${response.status}.`);
  }
  const account = UpstreamAccount.safeParse(await response.json().catch(() => undefined));
  if (!account.success) throw new ApiError(502, "upstream_failed", "The billing system's answer is not a billing account.");
  return toLookupResult(account.data);
}

async function fromD1(d1: D1Database, billingAccount: string): Promise<LookupResult | null> {
  const [row] = await getDb(d1).select().from(billingAccounts).where(eq(billingAccounts.id, billingAccount)).limit(1);
  return row ? toLookupResult(row) : null;
}

/**
 * Customer lookup through a KV read-through cache over its source: the operator's billing system when
 * `BILLING_UPSTREAM_URL` is set, else the D1 table loaded through the admin API. A KV failure degrades to the source.
 * Entries live at most 10 min (misses 1 min); an entry past that age is never served, even when the upstream fails.
 * Admin writes delete the cached entry (`forgetBillingAccounts`).
 */
export async function lookupBillingAccount(env: Env, d1: D1Database, billingAccount: string): Promise<LookupResult | null> {
  try {
    const { value: cached, metadata } = await env.KV.getWithMetadata<Cached, CachedMetadata>(kvKey(billingAccount), {
      type: "json",
      cacheTtl: edgeCacheSeconds,
    });
    if (cached && (!metadata || metadata.until > Date.now())) return cached.found ? cached.result : null;
  } catch (error) {
    console.warn("KV unavailable, reading billing account from its source:", (error as Error).message);
  }
  const upstream = env.BILLING_UPSTREAM_URL;
  const result = upstream ? await fromUpstream(env, upstream, billingAccount) : await fromD1(d1, billingAccount);
  const ttl = result ? foundTtlSeconds : missingTtlSeconds;
  const entry: Cached = result ? { found: true, result } : { found: false };
  const metadata: CachedMetadata = { until: Date.now() + ttl * 1000 };
  await env.KV.put(kvKey(billingAccount), JSON.stringify(entry), { expirationTtl: ttl, metadata }).catch((error: Error) =>
    console.warn("KV put of a billing account failed:", error.message),
  );
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
