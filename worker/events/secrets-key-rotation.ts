import { and, eq, isNull, type SQL } from "drizzle-orm";
import { logger } from "../lib/logger";
import type { Env } from "../env";
import { getDb } from "../lib/db";
import { encryptSecret, openSecret } from "./secrets";
import { webhooks } from "./table";

/**
 * A stored secret under the current key: unchanged, re-encrypted from the previous key, or null when neither reads it.
 * `context` is the additional data it was sealed with (a webhook's id; worker/accounts/sso-key-rotation.ts's too).
 */
export async function underCurrentKey(env: Env, context: string, stored: string): Promise<string | null> {
  try {
    const { secret, underPrevious } = await openSecret(env, context, stored);
    return underPrevious ? await encryptSecret(env.WEBHOOK_SECRETS_KEY, context, secret) : stored;
  } catch {
    return null;
  }
}

/**
 * The second half of rotating WEBHOOK_SECRETS_KEY (docs/operations.md#rotating-secrets), run by the cron on every
 * database while WEBHOOK_SECRETS_KEY_PREVIOUS is set: every webhook secret (and previous secret) still under the
 * previous key is re-encrypted under the new one, each row only if nobody changed it meanwhile. A secret neither key
 * reads is left as it is and counted, and the log line names how many, so the operator knows when the previous key
 * can go (none left under it) or that it is the wrong one.
 */
export async function reencryptWebhookSecrets(env: Env): Promise<{ reencrypted: number; unreadable: number }> {
  if (!env.WEBHOOK_SECRETS_KEY_PREVIOUS?.trim()) return { reencrypted: 0, unreadable: 0 };
  const db = getDb(env.DB);
  const rows = await db.select({ id: webhooks.id, secret: webhooks.secret, previousSecret: webhooks.previousSecret }).from(webhooks);
  let unreadable = 0;
  const updates = [];
  for (const row of rows) {
    const secret = await underCurrentKey(env, row.id, row.secret);
    const previousSecret = row.previousSecret === null ? null : await underCurrentKey(env, row.id, row.previousSecret);
    if (secret === null || (row.previousSecret !== null && previousSecret === null)) {
      unreadable++;
      continue;
    }
    if (secret === row.secret && previousSecret === row.previousSecret) continue;
    const unchanged: SQL[] = [eq(webhooks.id, row.id), eq(webhooks.secret, row.secret)];
    unchanged.push(row.previousSecret === null ? isNull(webhooks.previousSecret) : eq(webhooks.previousSecret, row.previousSecret));
    updates.push(db.update(webhooks).set({ secret, previousSecret }).where(and(...unchanged)));
  }
  if (updates.length > 0) await db.batch(updates as [(typeof updates)[number], ...typeof updates]);
  logger.info("webhook_secrets_reencrypted", { job: "reencryptWebhookSecrets", count: updates.length, skipped: unreadable });
  return { reencrypted: updates.length, unreadable };
}
