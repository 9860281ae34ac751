import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { projects } from "../projects/table";

export const identities = sqliteTable(
  "identities",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    referenceId: text("reference_id"),
    created: text("created").notNull(),
    updated: text("updated").notNull(),
    /** Grows by one with every write; the resource's ETag (worker/lib/preconditions.ts). */
    revision: integer("revision").notNull().default(1),
  },
  (t) => [
    index("identities_project_idx").on(t.projectId, t.id),
    uniqueIndex("identities_reference_idx").on(t.projectId, t.referenceId),
  ],
);

export const aliases = sqliteTable(
  "aliases",
  {
    projectId: text("project_id").notNull(),
    type: text("type").notNull(),
    identifier: text("identifier").notNull(),
    identityId: text("identity_id")
      .notNull()
      .references(() => identities.id, { onDelete: "cascade" }),
    /** The identifier's normal form where it differs from the one written (worker/identities/normalise.ts), else null. */
    normalized: text("normalized"),
  },
  // One alias names one subject within a project, however it is written: the match index is the uniqueness rule.
  (t) => [
    primaryKey({ columns: [t.projectId, t.type, t.identifier] }),
    index("aliases_identity_idx").on(t.identityId),
    uniqueIndex("aliases_match_idx").on(t.projectId, t.type, sql`coalesce(${t.normalized}, ${t.identifier})`),
  ],
);

/**
 * Aliases that migration 0027 found written differently for the same subject key (`Eva@C.example` and
 * `eva@c.example` on two identities): each keeps matching exactly as written and nothing is merged; the operator
 * decides (docs/privacy-center.md#abuse-limits). Deleted with the identity.
 */
export const aliasCollisions = sqliteTable(
  "alias_collisions",
  {
    projectId: text("project_id").notNull(),
    type: text("type").notNull(),
    normalized: text("normalized").notNull(),
    identifier: text("identifier").notNull(),
    identityId: text("identity_id")
      .notNull()
      .references(() => identities.id, { onDelete: "cascade" }),
    found: text("found").notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.type, t.identifier] }), index("alias_collisions_identity_idx").on(t.identityId)],
);
