import { and, asc, desc, eq, gt, isNotNull, sql, type SQL } from "drizzle-orm";
import type { Env } from "../env";
import { canonicalJson } from "../lib/canonical";
import { sha256Hex } from "../lib/crypto";
import { getDb, type Db } from "../lib/db";
import { now } from "../lib/time";
import { extend, fromHex, leafHash, rootOfEdge, toHex } from "./merkle";
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

type HeadRow = typeof logHeads.$inferSelect;

/** The signed tree head's payload. */
export type TreeHead = { projectId: string; treeSize: number; rootHash: string; timestamp: string; previousHeadHash: string | null };

/**
 * Cron job: for every project with entries written since its latest head, extends that head's tree with them (its
 * stored right edge, so old entries are not read again) and signs a new head naming the previous head's hash.
 * Concurrent runs are harmless: a head for a size that already has one is not written twice (primary key).
 */
export async function sealLogs(env: Env): Promise<number> {
  const db = getDb(env.DB);
  const open = await db
    .selectDistinct({ projectId: logEntries.projectId })
    .from(logEntries)
    .where(
      gt(logEntries.seq, sql`coalesce((SELECT max(h.last_seq) FROM ${logHeads} h WHERE h.project_id = ${logEntries.projectId}), 0)`),
    );
  let sealed = 0;
  for (const { projectId } of open) {
    let previous: HeadRow | undefined = (await latestHead(db, projectId))[0];
    for (;;) {
      const fresh = await db
        .select({ seq: logEntries.seq, entryHash: logEntries.entryHash })
        .from(logEntries)
        .where(and(eq(logEntries.projectId, projectId), gt(logEntries.seq, previous?.lastSeq ?? 0)))
        .orderBy(asc(logEntries.seq))
        .limit(sealBatch);
      if (fresh.length === 0) break;
      const leaves = await Promise.all(fresh.map((row) => leafHash(fromHex(row.entryHash))));
      const edge = await extend((previous?.frontier ?? []).map(fromHex), previous?.treeSize ?? 0, leaves);
      const head: TreeHead = {
        projectId,
        treeSize: (previous?.treeSize ?? 0) + fresh.length,
        rootHash: toHex(await rootOfEdge(edge)),
        timestamp: now(),
        previousHeadHash: previous?.headHash ?? null,
      };
      const { jws, hash } = await signCanonical(env, headType, head);
      const row: HeadRow = {
        projectId,
        treeSize: head.treeSize,
        rootHash: head.rootHash,
        headHash: hash,
        lastSeq: fresh.at(-1)!.seq,
        frontier: edge.map(toHex),
        signed: jws,
        created: head.timestamp,
      };
      const [written] = await db.insert(logHeads).values(row).onConflictDoNothing().returning({ treeSize: logHeads.treeSize });
      // Another run sealed this size meanwhile: its head stands, and this run leaves the project to it.
      if (!written) break;
      sealed++;
      previous = row;
      if (fresh.length < sealBatch) break;
    }
  }
  return sealed;
}

/** Entries sealed per head at most: one head per minute keeps up with far more, and each pass stays bounded. */
const sealBatch = 5000;
