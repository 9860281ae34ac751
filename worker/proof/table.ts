import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { projects } from "../projects/table";

/** What one log entry commits to (docs/proof.md#tamper-evident-log); its SHA-256 over canonical JSON is the entry hash. */
export type LogPayload = {
  kind: string;
  projectId: string;
  requestId?: string;
  identityId?: string;
  status?: string;
  /** SHA-256 of the request's immutable fields (see `recordHash`). */
  recordHash?: string;
  /** SHA-256 of the compact JWS receipt issued with this write, when receipts are on. */
  receiptHash?: string;
  /** On `*.created`: the purposes that ran under an exemption when the request was made, and under which. */
  exemptions?: { purposeId: string; version: string; reason: string; regime: string }[];
  /** On `identity.deleted`: the erasure ledger's salted hash of the identity, which its erased entries name. */
  subject?: string;
  /** On `verification.succeeded` (the privacy center): the verification's id and how the person proved the alias. */
  verificationId?: string;
  method?: string;
  at: string;
};

/** What an erased entry keeps instead of its payload: the deletion that erased it (its `subject`). */
export type ErasedPayload = { erasedBy: string };

/**
 * The project's append-only log: one entry per recorded request, status change and identity deletion, written in
 * the batch that makes the change. Leaves of the Merkle tree are the entries in `seq` order; the payload is erased
 * with the identity while the entry hash (all the tree needs) stays.
 */
export const logEntries = sqliteTable(
  "log_entries",
  {
    /** Write order: AUTOINCREMENT never reuses a value, and D1 commits one batch at a time. */
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    identityId: text("identity_id"),
    requestId: text("request_id"),
    receiptHash: text("receipt_hash"),
    entryHash: text("entry_hash").notNull(),
    payload: text("payload", { mode: "json" }).$type<LogPayload | ErasedPayload>(),
    created: text("created").notNull(),
  },
  (t) => [
    index("log_entries_project_idx").on(t.projectId, t.seq),
    index("log_entries_identity_idx").on(t.projectId, t.identityId, t.seq),
    // The identity's latest receipt (every write reads it) is one seek even when receipts were off for a while.
    index("log_entries_identity_receipts_idx").on(t.projectId, t.identityId, t.seq).where(sql`${t.receiptHash} IS NOT NULL`),
    index("log_entries_receipt_idx").on(t.projectId, t.receiptHash).where(sql`${t.receiptHash} IS NOT NULL`),
  ],
);

/** Signed tree heads: the cron seals the entries written since the last head into a new one, linked to it. */
export const logHeads = sqliteTable(
  "log_heads",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    treeSize: integer("tree_size").notNull(),
    rootHash: text("root_hash").notNull(),
    /** SHA-256 of `signed`: what the next head names as its previous one. */
    headHash: text("head_hash").notNull(),
    /** `seq` of the last entry sealed: the next head starts after it. */
    lastSeq: integer("last_seq").notNull(),
    /** Roots of the perfect subtrees along the tree's right edge, largest first: the next head extends them. */
    frontier: text("frontier", { mode: "json" }).$type<string[]>().notNull(),
    signed: text("signed").notNull(),
    created: text("created").notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.treeSize] })],
);

/** Roots of the perfect subtrees of each project's tree (level 0: the leaves), written as heads complete them. */
export const logNodes = sqliteTable(
  "log_nodes",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    level: integer("level").notNull(),
    index: integer("idx").notNull(),
    hash: text("hash").notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.level, t.index] })],
);
