import { and, eq, gt, lt } from "drizzle-orm";
import { issuerOf } from "../auth/tokens";
import type { Committer } from "../events/commit";
import { aliases } from "../identities/table";
import { getDb } from "../lib/db";
import { capOf } from "../limits/daily";
import { eraseIdentity, type Writer } from "../requests/record";
import { scanAliasType } from "./pass";

/**
 * Deletes the identities the scan with `passId` made in the project (its visits' first-visit identities, decisions
 * included), through the one identity deletion: event, log entry and erasure ledger, as any deletion. Answers how
 * many went.
 */
export async function removeScanVisitors(committer: Committer, projectId: string, passId: string): Promise<number> {
  const made = await getDb(committer.db)
    .select({ identityId: aliases.identityId })
    .from(aliases)
    .where(and(eq(aliases.projectId, projectId), eq(aliases.type, scanAliasType), gt(aliases.identifier, `${passId}:`), lt(aliases.identifier, `${passId};`)))
    .limit(capOf(committer.env, "visitors-per-scan-pass"));
  const writer: Writer = { ...committer, issuer: issuerOf(committer.env), caller: { projectId, clientId: "scanner", clientType: "backend", scopes: [] }, signals: {} };
  let removed = 0;
  for (const { identityId } of made) if (await eraseIdentity(writer, identityId)) removed++;
  return removed;
}
