import { access } from "../auth/scopes";
import { z } from "@hono/zod-openapi";
import { and, asc, desc, eq, gt, lt, sql } from "drizzle-orm";
import { fromBase64url, hex } from "../lib/crypto";
import { getDb } from "../lib/db";
import { ApiError, notFound } from "../lib/errors";
import { createRouter, defineRoute } from "../auth/router";
import { jsonResponse, problems } from "../lib/schemas";
import { latestHead, rangeRoots } from "./log";
import { consistencyRanges, inclusionRanges } from "./merkle";
import { logEntries, logHeads } from "./table";
import { ProjectParams } from "../lib/params";

/** The project's tamper-evident log (docs/proof.md#tamper-evident-log): signed tree heads, entries and proofs. */
export const proofRoutes = createRouter();

const tags = ["Proof of consent"];
const Hex = z.string().regex(/^[0-9a-f]{64}$/, "64 lowercase hex digits (a SHA-256).");

const Head = z
  .object({
    treeSize: z.number().int(),
    rootHash: z.string(),
    timestamp: z.string(),
    previousHeadHash: z.string().nullable(),
    headHash: z.string().openapi({ description: "SHA-256 (hex) of `signedHead`: what the next head names as previous." }),
    signedHead: z.string().openapi({ description: "Compact JWS (ES256, `typ` assent-log-head+jwt) over the other fields and the project id." }),
  })
  .openapi("LogHead");

const toHead = (row: typeof logHeads.$inferSelect) => {
  const payload = JSON.parse(new TextDecoder().decode(fromBase64url(row.signed.split(".")[1])));
  return {
    treeSize: row.treeSize,
    rootHash: row.rootHash,
    timestamp: row.created,
    previousHeadHash: payload.previousHeadHash ?? null,
    headHash: row.headHash,
    signedHead: row.signed,
  };
};

const noHead = () => new ApiError(404, "not_sealed", "The log has no signed head yet: the cron seals new entries every minute.");

proofRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/head",
    operationId: "getLatestTreeHead",
    ...access.project("audit:read"),
    tags,
    summary: "The latest signed tree head",
    description: "Sealed by the cron every minute from the entries written since the previous head, which it names by hash.",
    request: { params: ProjectParams },
    responses: { 200: jsonResponse(Head, "The latest head."), ...problems },
  }),
  async (c) => {
    const [head] = await latestHead(getDb(c.var.db), c.get("caller").projectId);
    if (!head) throw noHead();
    return c.json(toHead(head), 200);
  },
);

proofRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/heads",
    operationId: "listTreeHeads",
    ...access.project("audit:read"),
    tags,
    summary: "Signed tree heads, oldest first",
    request: {
      params: ProjectParams,
      query: z.object({
        after: z.coerce.number().int().min(0).default(0).openapi({ description: "Only heads of a larger tree size." }),
        limit: z.coerce.number().int().min(1).max(500).default(100),
      }),
    },
    responses: { 200: jsonResponse(z.object({ heads: z.array(Head) }), "A page of heads."), ...problems },
  }),
  async (c) => {
    const { after, limit } = c.req.valid("query");
    const rows = await getDb(c.var.db)
      .select()
      .from(logHeads)
      .where(and(eq(logHeads.projectId, c.get("caller").projectId), gt(logHeads.treeSize, after)))
      .orderBy(asc(logHeads.treeSize))
      .limit(limit);
    return c.json({ heads: rows.map(toHead) }, 200);
  },
);

const Entry = z
  .object({
    index: z.number().int().openapi({ description: "Leaf index in the project's Merkle tree." }),
    entryHash: z.string(),
    payload: z
      .record(z.string(), z.unknown())
      .nullable()
      .openapi({ description: "Once the identity it named was erased, only `{erasedBy}`: the `subject` of that identity.deleted entry." }),
  })
  .openapi("LogEntry");

proofRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/entries",
    operationId: "listLogEntries",
    ...access.project("audit:read"),
    tags,
    summary: "Log entries in leaf order",
    description: "Each entry's hash is the SHA-256 of its payload's canonical JSON; leaf i of the tree is 0x00 || that hash.",
    request: {
      params: ProjectParams,
      query: z.object({
        start: z.coerce.number().int().min(0).default(0),
        limit: z.coerce.number().int().min(1).max(1000).default(500),
      }),
    },
    responses: { 200: jsonResponse(z.object({ entries: z.array(Entry) }), "A page of entries."), ...problems },
  }),
  async (c) => {
    const { start, limit } = c.req.valid("query");
    const rows = await getDb(c.var.db)
      .select({ entryHash: logEntries.entryHash, payload: logEntries.payload })
      .from(logEntries)
      .where(eq(logEntries.projectId, c.get("caller").projectId))
      .orderBy(asc(logEntries.seq))
      .limit(limit)
      .offset(start);
    return c.json({ entries: rows.map((row, i) => ({ index: start + i, entryHash: row.entryHash, payload: row.payload ?? null })) }, 200);
  },
);

/** The tree size a proof is for: a given one must be a signed head's; default the latest head's. */
async function headOf(db: ReturnType<typeof getDb>, projectId: string, treeSize: number | undefined) {
  const [head] = await (treeSize === undefined
    ? latestHead(db, projectId)
    : db.select().from(logHeads).where(and(eq(logHeads.projectId, projectId), eq(logHeads.treeSize, treeSize))).limit(1));
  if (!head) throw treeSize === undefined ? noHead() : notFound(`A signed head of tree size ${treeSize}`);
  return head;
}

proofRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/proofs/inclusion",
    operationId: "getInclusionProof",
    ...access.project("audit:read"),
    tags,
    summary: "Inclusion proof of a receipt (or a leaf) in a signed tree head",
    description: "RFC 9162 §2.1.3: the audit path from the entry's leaf to the head's root.",
    request: {
      params: ProjectParams,
      query: z.object({
        receiptHash: Hex.optional().openapi({ description: "SHA-256 (hex) of the compact receipt." }),
        index: z.coerce.number().int().min(0).optional().openapi({ description: "Or the leaf index." }),
        treeSize: z.coerce.number().int().min(1).optional().openapi({ description: "A signed head's size; default the latest." }),
      }),
    },
    responses: {
      200: jsonResponse(
        z.object({ leafIndex: z.number().int(), treeSize: z.number().int(), entryHash: z.string(), auditPath: z.array(z.string()), head: Head }),
        "The proof.",
      ),
      ...problems,
    },
  }),
  async (c) => {
    const { projectId } = c.get("caller");
    const { receiptHash, index, treeSize } = c.req.valid("query");
    const db = getDb(c.var.db);
    const head = await headOf(db, projectId, treeSize);
    let leafIndex = index;
    if (receiptHash !== undefined) {
      const [entry] = await db
        .select({ seq: logEntries.seq })
        .from(logEntries)
        .where(and(eq(logEntries.projectId, projectId), eq(logEntries.receiptHash, receiptHash)))
        .orderBy(desc(logEntries.seq))
        .limit(1);
      // Its leaf index: how many entries of the project precede it (an index-only count).
      const [position] = entry
        ? await db
            .select({ before: sql<number>`count(*)` })
            .from(logEntries)
            .where(and(eq(logEntries.projectId, projectId), lt(logEntries.seq, entry.seq)))
        : [];
      leafIndex = position?.before ?? -1;
    }
    if (leafIndex === undefined || leafIndex < 0 || leafIndex >= head.treeSize) {
      throw notFound(`An entry ${receiptHash ? "with that receipt " : ""}in the tree of size ${head.treeSize}`);
    }
    const [[entry], auditPath] = await Promise.all([
      db
        .select({ entryHash: logEntries.entryHash })
        .from(logEntries)
        .where(eq(logEntries.projectId, projectId))
        .orderBy(asc(logEntries.seq))
        .limit(1)
        .offset(leafIndex),
      rangeRoots(db, projectId, inclusionRanges(leafIndex, 0, head.treeSize)),
    ]);
    return c.json({ leafIndex, treeSize: head.treeSize, entryHash: entry.entryHash, auditPath: auditPath.map(hex), head: toHead(head) }, 200);
  },
);

proofRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/proofs/consistency",
    operationId: "getConsistencyProof",
    ...access.project("audit:read"),
    tags,
    summary: "Consistency proof between two signed tree heads",
    description: "RFC 9162 §2.1.4: proves the tree of size `second` extends the tree of size `first` (append only).",
    request: {
      params: ProjectParams,
      query: z.object({ first: z.coerce.number().int().min(1), second: z.coerce.number().int().min(1) }),
    },
    responses: {
      200: jsonResponse(
        z.object({ first: Head, second: Head, proof: z.array(z.string()) }),
        "The proof.",
      ),
      ...problems,
    },
  }),
  async (c) => {
    const { projectId } = c.get("caller");
    const { first, second } = c.req.valid("query");
    if (first > second) throw new ApiError(400, "invalid_range", "`first` must not exceed `second`.");
    const db = getDb(c.var.db);
    const [older, newer] = await Promise.all([headOf(db, projectId, first), headOf(db, projectId, second)]);
    const proof = await rangeRoots(db, projectId, consistencyRanges(first, second));
    return c.json({ first: toHead(older), second: toHead(newer), proof: proof.map(hex) }, 200);
  },
);
