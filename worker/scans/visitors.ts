import { issuerOf } from "../auth/tokens";
import type { Committer } from "../events/commit";
import { findIdentity } from "../identities/queries";
import { identities } from "../identities/table";
import { revisionMatches } from "../lib/preconditions";
import { eraseIdentity, type Writer } from "../requests/record";
import { madeByScan, type ScanVisitor } from "../../shared/scan-visitors";

/**
 * Deletes the identities a scan's own visits made in the project (the widget's first visits on the scanned pages,
 * decisions included), through the one identity deletion: event, log entry and erasure ledger, as any deletion. Only
 * what `madeByScan` agrees to goes, each guarded by the revision it was read at. Answers how many went.
 */
export async function removeScanVisitors(committer: Committer, projectId: string, scanStarted: string, visitors: ScanVisitor[]): Promise<number> {
  const writer: Writer = { ...committer, issuer: issuerOf(committer.env), caller: { projectId, clientId: "scanner", clientType: "backend", scopes: [] }, signals: {} };
  let removed = 0;
  for (const identityId of new Set(visitors.filter((visitor) => visitor.project === projectId).map((visitor) => visitor.identityId))) {
    const found = await findIdentity(committer.db, projectId, identityId);
    if (!found || !madeByScan(found.identity, scanStarted)) continue;
    if (await eraseIdentity(writer, identityId, revisionMatches(identities.revision, [found.revision]))) removed++;
  }
  return removed;
}
