import { and, eq, gt } from "drizzle-orm";
import { z } from "@hono/zod-openapi";
import type { Env } from "../env";
import { getDb, inJsonArray } from "../lib/db";
import { ApiError } from "../lib/errors";
import { logger } from "../lib/logger";
import { BillingAccountInput, type CustomerLookupResult } from "./schemas";
import { billingAccounts, billingLookups } from "./table";

type LookupResult = z.infer<typeof CustomerLookupResult>;

/** How long an answer of the billing system is kept: found, and not found (so unknown accounts do not all reach it). */
export const foundTtlSeconds = 600;
export const missingTtlSeconds = 60;
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
 * Customer lookup from its source: the D1 table loaded through the admin API, or, when `BILLING_UPSTREAM_URL` is
 * set, the operator's billing system, whose answers are kept in D1 (`billing_lookups`, in `DB`, so in the
 * database's location like every other piece of personal data) for at most 10 min (misses 1 min). An answer past
 * that age is never served, even when the billing system fails; the cron deletes it (worker/retention/expiring.ts).
 * Admin writes delete the kept answers of the accounts they change (`forgetLookups`).
 */
export async function lookupBillingAccount(env: Env, d1: D1Database, billingAccount: string): Promise<LookupResult | null> {
  const upstream = env.BILLING_UPSTREAM_URL;
  if (!upstream) return fromD1(d1, billingAccount);
  const db = getDb(d1);
  const now = Date.now();
  const [kept] = await db
    .select({ result: billingLookups.result })
    .from(billingLookups)
    .where(and(eq(billingLookups.billingAccount, billingAccount), gt(billingLookups.until, new Date(now).toISOString())))
    .limit(1);
  if (kept) return kept.result;
  const result = await fromUpstream(env, upstream, billingAccount);
  const until = new Date(now + (result ? foundTtlSeconds : missingTtlSeconds) * 1000).toISOString();
  await db
    .insert(billingLookups)
    .values({ billingAccount, result, until })
    .onConflictDoUpdate({ target: billingLookups.billingAccount, set: { result, until } })
    .catch((error: unknown) => logger.warn("billing_lookup_not_kept", { binding: "DB" }, error));
  return result;
}

/** Deletes the kept answers for accounts whose D1 rows change: a statement for the write's own batch. */
export const forgetLookups = (d1: D1Database, ids: string[]) => getDb(d1).delete(billingLookups).where(inJsonArray(billingLookups.billingAccount, ids));
