import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { identities } from "../identities/table";

/** A request's statuses, as the table stores them and the API states them. */
export const statuses = ["received", "in_progress", "completed", "rejected", "withdrawn"] as const;
export type Status = (typeof statuses)[number];

export const families = ["permission", "objection", "erasure", "access"] as const;
export type Family = (typeof families)[number];

/** All four request families in one append-only table; `family` tells them apart. */
export const requests = sqliteTable(
  "requests",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id").notNull(),
    family: text("family", { enum: families }).notNull(),
    identityId: text("identity_id")
      .notNull()
      .references(() => identities.id, { onDelete: "cascade" }),
    status: text("status", { enum: statuses }).notNull(),
    /** As sent (ISO 8601 with the client's offset); `requestedAt` is the same instant in epoch ms, for ordering. */
    requested: text("requested").notNull(),
    requestedAt: integer("requested_at").notNull(),
    meta: text("meta", { mode: "json" }).$type<Record<string, unknown>>(),
    request: text("request", { mode: "json" }).$type<Record<string, unknown>>(),
    created: text("created").notNull(),
    updated: text("updated").notNull(),
    /** The compact JWS receipt of the latest write (creation or status change); null while receipts are off. */
    receipt: text("receipt"),
  },
  // Each index is a b-tree insert on every write (docs/performance-history.md#the-writes-storage-work): one per list order, and one for
  // everything asked of one identity. That one leads with the identity, as the identity's foreign key and the
  // retention's "has no request" check need; a page of one identity's requests of a family (with or without a
  // status, which is read from the row) is a seek in id order, its export a sort of its own rows.
  (t) => [
    index("requests_family_idx").on(t.projectId, t.family, t.id),
    index("requests_status_idx").on(t.projectId, t.family, t.status, t.id),
    index("requests_updated_idx").on(t.projectId, t.family, t.updated, t.id),
    index("requests_identity_idx").on(t.identityId, t.projectId, t.family, t.id),
  ],
);

/** A stored request, as drizzle reads it. */
export type RequestRow = typeof requests.$inferSelect;

export type PartyGrant = { partyId: string; referenceId?: string; status: "approved" | "denied" };
export type DataGroupGrant = { dataGroupId: string; referenceId?: string; status: "approved" | "denied" };

/** The materialised permission state: one row per identity and purpose, written in the batch that changes it. */
export const permissionStates = sqliteTable(
  "permission_states",
  {
    projectId: text("project_id").notNull(),
    identityId: text("identity_id")
      .notNull()
      .references(() => identities.id, { onDelete: "cascade" }),
    purposeId: text("purpose_id").notNull(),
    status: text("status", { enum: ["approved", "denied"] }).notNull(),
    version: text("version").notNull(),
    requestId: text("request_id").notNull(),
    requestType: text("request_type", { enum: families }).notNull(),
    requested: text("requested").notNull(),
    requestedAt: integer("requested_at").notNull(),
    dataGroups: text("data_groups", { mode: "json" }).$type<DataGroupGrant[]>().notNull(),
    processors: text("processors", { mode: "json" }).$type<PartyGrant[]>().notNull(),
    recipients: text("recipients", { mode: "json" }).$type<PartyGrant[]>().notNull(),
    updated: text("updated").notNull(),
    /** Id of the write that last changed the row: lets that same batch find what it changed and emit one event. */
    changeId: text("change_id"),
  },
  (t) => [
    primaryKey({ columns: [t.projectId, t.identityId, t.purposeId] }),
    // Deleting an identity (API, erasure, retention) cascades here by identity_id alone, which the key cannot seek:
    // without it each deleted identity scans every state in the database. New state rows only: an update keeps it.
    index("permission_states_identity_idx").on(t.identityId),
  ],
);

/**
 * What each permission or objection says about each purpose it names, fixed when the request is stored. The state
 * of a purpose is the counting row with the latest `requestedAt` (ties: the higher `seq`, i.e. the later write),
 * so recomputing it after a withdrawal is one index seek, however long the history.
 */
export const requestPurposes = sqliteTable(
  "request_purposes",
  {
    /** Write order (AUTOINCREMENT never reuses a value): the tie-break between equal `requestedAt`. */
    seq: integer("seq").primaryKey({ autoIncrement: true }),
    projectId: text("project_id").notNull(),
    identityId: text("identity_id").notNull(),
    purposeId: text("purpose_id").notNull(),
    requestId: text("request_id")
      .notNull()
      .references(() => requests.id, { onDelete: "cascade" }),
    requestType: text("request_type", { enum: families }).notNull(),
    /** 1 while the request is `completed`, else 0: only completed permissions and objections shape the state. */
    counts: integer("counts").notNull(),
    status: text("status", { enum: ["approved", "denied"] }).notNull(),
    version: text("version").notNull(),
    requested: text("requested").notNull(),
    requestedAt: integer("requested_at").notNull(),
    dataGroups: text("data_groups", { mode: "json" }).$type<DataGroupGrant[]>().notNull(),
    processors: text("processors", { mode: "json" }).$type<PartyGrant[]>().notNull(),
    recipients: text("recipients", { mode: "json" }).$type<PartyGrant[]>().notNull(),
  },
  (t) => [
    index("request_purposes_latest_idx").on(t.projectId, t.identityId, t.purposeId, t.counts, t.requestedAt, t.seq),
    index("request_purposes_request_idx").on(t.requestId),
  ],
);
