import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { identities } from "../identities/table";

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
    status: text("status").notNull(),
    /** As sent (ISO 8601 with the client's offset); `requestedAt` is the same instant in epoch ms, for ordering. */
    requested: text("requested").notNull(),
    requestedAt: integer("requested_at").notNull(),
    meta: text("meta", { mode: "json" }).$type<Record<string, unknown>>(),
    request: text("request", { mode: "json" }).$type<Record<string, unknown>>(),
    created: text("created").notNull(),
    updated: text("updated").notNull(),
  },
  (t) => [
    index("requests_family_idx").on(t.projectId, t.family, t.id),
    index("requests_identity_idx").on(t.projectId, t.family, t.identityId, t.id),
    index("requests_status_idx").on(t.projectId, t.family, t.status, t.id),
    index("requests_updated_idx").on(t.projectId, t.family, t.updated, t.id),
    index("requests_subject_idx").on(t.identityId, t.requestedAt),
  ],
);

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
  },
  (t) => [primaryKey({ columns: [t.projectId, t.identityId, t.purposeId] })],
);
