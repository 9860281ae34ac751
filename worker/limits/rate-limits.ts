import { and, eq, gt } from "drizzle-orm";
import type { Context } from "hono";
import type { AppEnv, Env } from "../env";
import { sha256Hex } from "../lib/crypto";
import { getDb } from "../lib/db";
import { ApiError } from "../lib/errors";
import { notConfigured } from "../lib/settings";
import { addressBlocks } from "./table";

/**
 * Abuse limits, counted by Cloudflare's Rate Limiting binding (wrangler.toml `[[ratelimits]]`; Miniflare emulates
 * it locally and in tests). Each limiter's binding holds the enforced limit (`simple.limit` per `simple.period`);
 * the var of the same row states that limit to clients in the `RateLimit-Policy` header, so keep the two equal.
 * Counters are per Cloudflare location and approximate, as the platform documents.
 */
export const rateLimits = {
  VISITOR_TOKENS_IP_LIMITER: { policy: "visitor-tokens-ip", limitVar: "RATE_LIMIT_VISITOR_TOKENS_PER_IP", periodSeconds: 60 },
  VISITOR_TOKENS_PROJECT_LIMITER: { policy: "visitor-tokens-project", limitVar: "RATE_LIMIT_VISITOR_TOKENS_PER_PROJECT", periodSeconds: 60 },
  TOKEN_ENDPOINT_LIMITER: { policy: "token-endpoint", limitVar: "RATE_LIMIT_TOKEN_ENDPOINT", periodSeconds: 60 },
  ANALYTICS_EVENTS_LIMITER: { policy: "analytics-events", limitVar: "RATE_LIMIT_ANALYTICS_EVENTS", periodSeconds: 60 },
  PORTAL_SIGN_IN_LIMITER: { policy: "portal-sign-in", limitVar: "RATE_LIMIT_PORTAL_SIGN_IN", periodSeconds: 60 },
  ADMIN_FAILURES_LIMITER: { policy: "admin-token-failures", limitVar: "RATE_LIMIT_ADMIN_FAILURES", periodSeconds: 60 },
  PRIVACY_CENTER_IP_LIMITER: { policy: "privacy-center-ip", limitVar: "RATE_LIMIT_PRIVACY_CENTER_PER_IP", periodSeconds: 60 },
  PRIVACY_CENTER_ALIAS_CLIENT_LIMITER: { policy: "privacy-center-alias-client", limitVar: "RATE_LIMIT_PRIVACY_CENTER_PER_ALIAS_CLIENT", periodSeconds: 60 },
  PRIVACY_CENTER_VERIFICATIONS_ALIAS_CLIENT_LIMITER: {
    policy: "privacy-center-verifications-alias-client",
    limitVar: "RATE_LIMIT_PRIVACY_CENTER_VERIFICATIONS_PER_ALIAS_CLIENT",
    periodSeconds: 60,
  },
  PRIVACY_CENTER_ALIAS_LIMITER: { policy: "privacy-center-alias", limitVar: "RATE_LIMIT_PRIVACY_CENTER_PER_ALIAS", periodSeconds: 60 },
  PRIVACY_CENTER_VERIFICATIONS_ALIAS_LIMITER: {
    policy: "privacy-center-verifications-alias",
    limitVar: "RATE_LIMIT_PRIVACY_CENTER_VERIFICATIONS_PER_ALIAS",
    periodSeconds: 60,
  },
} as const satisfies Record<string, { policy: string; limitVar: keyof Env; periodSeconds: 10 | 60 }>;

export type Limiter = keyof typeof rateLimits;

/** The client's address as Cloudflare saw it; requests that did not come through Cloudflare share one bucket. */
export const clientIp = (c: Context<AppEnv>) => c.req.header("cf-connecting-ip") ?? "unknown";

/** Counts one request against `limiter` for `key` (default: the client's IP); over the limit, a 429. */
export async function limitRate(c: Context<AppEnv>, limiter: Limiter, key = clientIp(c)): Promise<void> {
  if (!(await withinRate(c, limiter, key))) throw tooManyRequests(c.env, limiter);
}

/** Counts one request against `limiter` for `key`: whether it is within the limit (the caller decides what then). */
export async function withinRate(c: Context<AppEnv>, limiter: Limiter, key = clientIp(c)): Promise<boolean> {
  const binding = c.env[limiter];
  if (!binding) throw notConfigured(limiter, `The rate-limit binding ${limiter} is not configured on this deployment.`);
  const { success } = await binding.limit({ key: `${limiter}:${key}` });
  return success;
}

/**
 * Admin-token failures: counted per IP on each failure; once over the limit the address is blocked (every admin
 * token attempt, right or wrong, is 429) for one period, so guessing cannot go on at the limit's pace. The block is
 * a row in `DB` (worker/limits/table.ts) naming the address by its hash, written and read on the primary.
 */
export async function countFailure(c: Context<AppEnv>, limiter: "ADMIN_FAILURES_LIMITER"): Promise<void> {
  try {
    await limitRate(c, limiter);
  } catch (error) {
    if (error instanceof ApiError && error.status === 429) {
      const until = new Date(Date.now() + rateLimits[limiter].periodSeconds * 1000).toISOString();
      await getDb(c.env.DB)
        .insert(addressBlocks)
        .values({ limiter, addressHash: await sha256Hex(clientIp(c)), until })
        .onConflictDoUpdate({ target: [addressBlocks.limiter, addressBlocks.addressHash], set: { until } });
    }
    throw error;
  }
}

/** 429 while `countFailure` has blocked this address. */
export async function refuseIfBlocked(c: Context<AppEnv>, limiter: "ADMIN_FAILURES_LIMITER"): Promise<void> {
  const [block] = await getDb(c.env.DB)
    .select({ until: addressBlocks.until })
    .from(addressBlocks)
    .where(and(eq(addressBlocks.limiter, limiter), eq(addressBlocks.addressHash, await sha256Hex(clientIp(c))), gt(addressBlocks.until, new Date().toISOString())))
    .limit(1);
  if (block) throw tooManyRequests(c.env, limiter);
}

export function tooManyRequests(env: Env, limiter: Limiter) {
  const { policy, limitVar, periodSeconds } = rateLimits[limiter];
  const quota = Number(env[limitVar]);
  const quotaPart = Number.isFinite(quota) && quota > 0 ? `;q=${quota}` : "";
  return new ApiError(429, "rate_limited", `Too many requests (${policy}); try again in ${periodSeconds} seconds.`, {
    headers: {
      "Retry-After": String(periodSeconds),
      "RateLimit-Policy": `"${policy}"${quotaPart};w=${periodSeconds}`,
      RateLimit: `"${policy}";r=0;t=${periodSeconds}`,
    },
  });
}
