import type { Context } from "hono";
import journal from "../../drizzle/meta/_journal.json";
import { signingKeys } from "../auth/keys";
import type { AppEnv } from "../env";
import { bindingNamed, databaseNames } from "../lib/databases";
import { ApiError } from "../lib/errors";
import { logger } from "../lib/logger";
import { missingConfiguration } from "../lib/settings";
import { opsWebhookConfigured, opsWebhookProblems } from "./notify";

/** The newest migration this release needs, as `wrangler d1 migrations apply` records it. */
const latestMigration = `${journal.entries.at(-1)!.tag}.sql`;

type Check = "ok" | "missing_migrations" | "failing";

/** A database answers and carries this release's schema (its migrations table names the newest migration). */
async function databaseCheck(name: string, d1: D1Database): Promise<Check> {
  try {
    const row = await d1.prepare("SELECT 1 AS applied FROM d1_migrations WHERE name = ?").bind(latestMigration).first();
    return row ? "ok" : "missing_migrations";
  } catch (error) {
    logger.error("readiness_check_failed", { binding: name }, error);
    return "failing";
  }
}

async function kvCheck(kv: KVNamespace): Promise<Check> {
  try {
    await kv.get("readyz");
    return "ok";
  } catch (error) {
    logger.error("readiness_check_failed", { binding: "KV", operation: "get" }, error);
    return "failing";
  }
}

/**
 * Readiness (`GET /readyz`): 503 `not_configured` naming each missing secret, var or binding (and operator webhook
 * settings that cannot work); 503 `not_ready` naming each database or KV that fails its check; else 200 with the
 * checks. Names and states only, never values.
 */
export async function readiness(c: Context<AppEnv>) {
  const missing = [...missingConfiguration(c.env), ...opsWebhookProblems(c.env).map((p) => p.setting)];
  if (missing.length > 0) {
    throw new ApiError(503, "not_configured", `Not ready: missing ${missing.join(", ")}.`, { members: { missing } });
  }
  await signingKeys(c.env.SIGNING_KEYS);
  const names = databaseNames(c.env);
  const [kv, ...each] = await Promise.all([kvCheck(c.env.KV), ...names.map((name) => databaseCheck(name, bindingNamed(c.env, name)))]);
  const databases = Object.fromEntries(names.map((name, i) => [name, each[i]]));
  const checks = { databases, kv, queue: "ok" as const, opsWebhook: opsWebhookConfigured(c.env) ? "ok" : "not_configured" };
  const failing = [...names.filter((name) => databases[name] !== "ok"), ...(kv === "ok" ? [] : ["KV"])];
  if (failing.length > 0) {
    throw new ApiError(503, "not_ready", `Not ready: ${failing.join(", ")} failing its check.`, { members: { failing, checks } });
  }
  return c.json({ status: "ready", service: "assent", checks });
}
