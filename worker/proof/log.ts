import { and, asc, desc, eq, gt, sql, type SQL } from "drizzle-orm";
import type { Env } from "../env";
import { canonicalJson } from "../lib/canonical";
import type { Bindable } from "../lib/compiled";
import { fromHex, hex, sha256Hex } from "../lib/crypto";
import { atomically, getDb, type Db } from "../lib/db";
import { now } from "../lib/time";
import { projects } from "../projects/table";
import type { RequestRow } from "../requests/table";
import { extend, foldParts, leafHash, perfectParts, type StoredNode } from "./merkle";
import { headType, signCanonical } from "./receipts";
import { logEntries, logHeads, logNodes, type LogPayload } from "./table";

/**
 * What a log entry's `recordHash` covers: SHA-256 of the canonical JSON of the fields of a stored request that never
 * change (everything but its status, update stamp and receipt), so an entry proves the request as first recorded.
 */
export const recordHash = (row: RequestRow) =>
  sha256Hex(
    canonicalJson({
      requestId: row.id,
      projectId: row.projectId,
      family: row.family,
      identityId: row.identityId,
      requested: row.requested,
      meta: row.meta,
      request: row.request,
      created: row.created,
    }),
  );

/**
 * The columns of a new log entry. The entry hash is SHA-256 (hex) of the payload's canonical JSON, stored as it was
 * hashed; the Merkle leaf is 0x00 || the 32 hash bytes.
 */
export async function logValues(payload: LogPayload) {
  const text = canonicalJson(payload);
  return {
    projectId: payload.projectId,
    identityId: payload.identityId ?? null,
    requestId: payload.requestId ?? null,
    receiptHash: payload.receiptHash ?? null,
    entryHash: await sha256Hex(text),
    payload: text,
    created: payload.at,
  };
}

export type LogValues = Awaited<ReturnType<typeof logValues>>;

/** The insert of a log entry whose values are `logValues` (or a compiled statement's placeholders for them). */
export const logInsert = (v: { [K in keyof LogValues]: Bindable<LogValues[K]> }, when: SQL) =>
  sql`INSERT INTO ${logEntries} (project_id, identity_id, request_id, receipt_hash, entry_hash, payload, created)
    SELECT ${v.projectId}, ${v.identityId}, ${v.requestId}, ${v.receiptHash}, ${v.entryHash}, ${v.payload}, ${v.created} WHERE ${when}`;

/** Appends an entry, in the caller's batch; `when` guards it like the change it records. */
export async function logAppend(payload: LogPayload, when: SQL = sql`1`): Promise<SQL> {
  return logInsert(await logValues(payload), when);
}

/**
 * Erasure: the identity's entries lose their payload and identifiers, keeping only the salted subject hash of the
 * deletion that erased them (so a payload removed without a deletion shows); their entry hashes (the tree's leaves)
 * stay. `when` guards it like the deletion it belongs to.
 */
export const logErase = (projectId: string, identityId: string, subject: string, when: SQL = sql`1`): SQL =>
  sql`UPDATE ${logEntries} SET payload = ${JSON.stringify({ erasedBy: subject })}, identity_id = NULL, request_id = NULL,
    receipt_hash = NULL WHERE project_id = ${projectId} AND identity_id = ${identityId} AND ${when}`;

/**
 * The identity's receipt chain: the hash of its latest receipt, which the next receipt names (one seek on the partial
 * index of entries with a receipt). A subquery, so a write batch can check it and report it (worker/requests/write-guard.ts).
 */
export const latestReceipt = (projectId: Bindable<string>, identityId: Bindable<string> | SQL) => sql<string | null>`(SELECT ${logEntries.receiptHash}
  FROM ${logEntries} WHERE ${logEntries.projectId} = ${projectId} AND ${logEntries.identityId} = ${identityId}
  AND ${logEntries.receiptHash} IS NOT NULL ORDER BY ${logEntries.seq} DESC LIMIT 1)`;

/** The same as a query for a read batch: one row (`hash`, null without a receipt) while the project exists. */
export const latestReceiptHash = (db: Db, projectId: string, identityId: string | SQL) =>
  db.select({ hash: latestReceipt(projectId, identityId) }).from(projects).where(eq(projects.id, projectId));

/** Stored nodes per insert statement: bound as one JSON value, well under D1's statement and value limits. */
const nodesPerInsert = 1000;

const insertNodes = (projectId: string, nodes: StoredNode[]): SQL[] => {
  const statements: SQL[] = [];
  for (let i = 0; i < nodes.length; i += nodesPerInsert) {
    const rows = JSON.stringify(nodes.slice(i, i + nodesPerInsert).map((n) => [n.level, n.index, hex(n.hash)]));
    statements.push(sql`INSERT OR IGNORE INTO ${logNodes} (project_id, level, idx, hash)
      SELECT ${projectId}, value ->> 0, value ->> 1, value ->> 2 FROM json_each(${rows})`);
  }
  return statements;
};

/** The roots of the given ranges of the project's tree, from its stored perfect subtrees: one query. */
export async function rangeRoots(db: Db, projectId: string, ranges: [number, number][]) {
  const parts = ranges.map(([a, b]) => perfectParts(a, b));
  const wanted = JSON.stringify(parts.flat().map((p) => [p.level, p.index]));
  const rows = await db
    .select({ level: logNodes.level, index: logNodes.index, hash: logNodes.hash })
    .from(sql`json_each(${wanted}) AS wanted`)
    .innerJoin(
      logNodes,
      and(eq(logNodes.projectId, projectId), eq(logNodes.level, sql`wanted.value ->> 0`), eq(logNodes.index, sql`wanted.value ->> 1`)),
    );
  const found = new Map(rows.map((row) => [`${row.level}:${row.index}`, fromHex(row.hash)]));
  return Promise.all(
    parts.map((list) =>
      foldParts(
        list.map((p) => {
          const hash = found.get(`${p.level}:${p.index}`);
          if (!hash) throw new Error(`log node ${p.level}:${p.index} of project ${projectId} is missing`);
          return hash;
        }),
      ),
    ),
  );
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
      const { edge, completed } = await extend((previous?.frontier ?? []).map(fromHex), previous?.treeSize ?? 0, leaves);
      const head: TreeHead = {
        projectId,
        treeSize: (previous?.treeSize ?? 0) + fresh.length,
        rootHash: hex(await foldParts(edge)),
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
        frontier: edge.map(hex),
        signed: jws,
        created: head.timestamp,
      };
      const results = await atomically(env.DB, [
        ...insertNodes(projectId, completed),
        db.insert(logHeads).values(row).onConflictDoNothing().returning({ treeSize: logHeads.treeSize }),
      ]);
      // Another run sealed this size meanwhile: its head stands, and this run leaves the project to it.
      if (results.at(-1)?.results.length === 0) break;
      sealed++;
      previous = row;
      if (fresh.length < sealBatch) break;
    }
  }
  return sealed;
}

/** Entries sealed per head at most: one head per minute keeps up with far more, and each pass stays bounded. */
const sealBatch = 5000;
