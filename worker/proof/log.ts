import { and, asc, desc, eq, gt, isNotNull, sql, type SQL } from "drizzle-orm";
import type { Env } from "../env";
import { canonicalJson } from "../lib/canonical";
import { sha256Hex } from "../lib/crypto";
import { getDb, type Db } from "../lib/db";
import { now } from "../lib/time";
import { fromHex, leafHash, rootOf, toHex } from "./merkle";
import { headType, signCanonical } from "./receipts";
import { logEntries, logHeads, type LogPayload } from "./table";

/** The fields of a stored request that never change: what a log entry's `recordHash` commits to. */
export type ImmutableRecord = {
  requestId: string;
  projectId: string;
  family: string;
  identityId: string;
  requested: string;
  meta: unknown;
  request: unknown;
  created: string;
};

export const recordHash = (record: ImmutableRecord) =>
  sha256Hex(
    canonicalJson({
      requestId: record.requestId,
      projectId: record.projectId,
      family: record.family,
      identityId: record.identityId,
      requested: record.requested,
      meta: record.meta,
      request: record.request,
      created: record.created,
    }),
  );

/** The entry hash: SHA-256 (hex) of the payload's canonical JSON. The Merkle leaf is 0x00 || the 32 hash bytes. */
export const entryHash = (payload: LogPayload) => sha256Hex(canonicalJson(payload));

/** Appends an entry, in the caller's batch; `when` guards it like the change it records. */
export async function logAppend(payload: LogPayload, when: SQL = sql`1`): Promise<SQL> {
  const hash = await entryHash(payload);
  return sql`INSERT INTO ${logEntries} (project_id, identity_id, request_id, receipt_hash, entry_hash, payload, created)
    SELECT ${payload.projectId}, ${payload.identityId ?? null}, ${payload.requestId ?? null}, ${payload.receiptHash ?? null},
      ${hash}, ${canonicalJson(payload)}, ${payload.at} WHERE ${when}`;
}

/** Erasure: the identity's entries lose their payload and identifiers; their hashes (the tree's leaves) stay. */
export const logErase = (projectId: string, identityId: string): SQL =>
  sql`UPDATE ${logEntries} SET payload = NULL, identity_id = NULL, request_id = NULL, receipt_hash = NULL
    WHERE project_id = ${projectId} AND identity_id = ${identityId}`;

/** The hash of the identity's latest receipt (one index seek), for the next receipt to name. */
export const latestReceiptHash = (db: Db, projectId: string, identityId: string) =>
  db
    .select({ hash: logEntries.receiptHash })
    .from(logEntries)
    .where(and(eq(logEntries.projectId, projectId), eq(logEntries.identityId, identityId), isNotNull(logEntries.receiptHash)))
    .orderBy(desc(logEntries.seq))
    .limit(1);

/** Leaf hashes of the project's first `size` entries (all when undefined), in log order. */
export async function leavesOf(db: Db, projectId: string, size?: number) {
  const query = db
    .select({ seq: logEntries.seq, entryHash: logEntries.entryHash })
    .from(logEntries)
    .where(eq(logEntries.projectId, projectId))
    .orderBy(asc(logEntries.seq));
  const rows = await (size === undefined ? query : query.limit(size));
  return { rows, leaves: await Promise.all(rows.map((row) => leafHash(fromHex(row.entryHash)))) };
}

export const latestHead = (db: Db, projectId: string) =>
  db.select().from(logHeads).where(eq(logHeads.projectId, projectId)).orderBy(desc(logHeads.treeSize)).limit(1);

/** The signed tree head's payload. */
export type TreeHead = { projectId: string; treeSize: number; rootHash: string; timestamp: string; previousHeadHash: string | null };

/**
 * Cron job: for every project with entries written since its latest head, computes the Merkle root of all its
 * entries and signs a new head naming the previous head's hash. Concurrent runs are harmless: a head for a size
 * that already has one is not written twice (primary key).
 */
export async function sealLogs(env: Env): Promise<number> {
  const db = getDb(env.DB);
  const open = await db
    .select({ projectId: logEntries.projectId, size: sql<number>`count(*)` })
    .from(logEntries)
    .groupBy(logEntries.projectId)
    .having(
      gt(
        sql`count(*)`,
        sql`coalesce((SELECT max(h.tree_size) FROM ${logHeads} h WHERE h.project_id = ${logEntries.projectId}), 0)`,
      ),
    );
  let sealed = 0;
  for (const { projectId } of open) {
    const [previous] = await latestHead(db, projectId);
    const { leaves } = await leavesOf(db, projectId);
    const head: TreeHead = {
      projectId,
      treeSize: leaves.length,
      rootHash: toHex(await rootOf(leaves)),
      timestamp: now(),
      previousHeadHash: previous?.headHash ?? null,
    };
    const { jws, hash } = await signCanonical(env, headType, head);
    await db
      .insert(logHeads)
      .values({ projectId, treeSize: head.treeSize, rootHash: head.rootHash, headHash: hash, signed: jws, created: head.timestamp })
      .onConflictDoNothing();
    sealed++;
  }
  return sealed;
}
