import { and, eq } from "drizzle-orm";
import type { Env } from "../env";
import { getDb } from "../lib/db";
import { logger } from "../lib/logger";
import { underCurrentKey } from "../events/secrets-key-rotation";
import { secretContext } from "./sso-config";
import { ssoConfigurations } from "./table";

/**
 * Rotating WEBHOOK_SECRETS_KEY (docs/operations.md#rotating-secrets) covers the organizations' single sign-on client
 * secrets too: run by the cron while WEBHOOK_SECRETS_KEY_PREVIOUS is set, each still under the previous key is
 * re-encrypted under the new one, only if nobody changed it meanwhile; one neither key reads is counted and left.
 */
export async function reencryptSsoSecrets(env: Env): Promise<{ reencrypted: number; unreadable: number }> {
  if (!env.WEBHOOK_SECRETS_KEY_PREVIOUS?.trim()) return { reencrypted: 0, unreadable: 0 };
  const db = getDb(env.DB);
  const rows = await db.select({ organizationId: ssoConfigurations.organizationId, sealed: ssoConfigurations.clientSecretEncrypted }).from(ssoConfigurations);
  let unreadable = 0;
  const updates = [];
  for (const row of rows) {
    const sealed = await underCurrentKey(env, secretContext(row.organizationId), row.sealed);
    if (sealed === null) unreadable++;
    else if (sealed !== row.sealed) {
      updates.push(
        db
          .update(ssoConfigurations)
          .set({ clientSecretEncrypted: sealed })
          .where(and(eq(ssoConfigurations.organizationId, row.organizationId), eq(ssoConfigurations.clientSecretEncrypted, row.sealed))),
      );
    }
  }
  if (updates.length > 0) await db.batch(updates as [(typeof updates)[number], ...typeof updates]);
  logger.info("sso_secrets_reencrypted", { job: "reencryptSsoSecrets", count: updates.length, skipped: unreadable });
  return { reencrypted: updates.length, unreadable };
}
