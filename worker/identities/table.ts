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
  },
  // One alias names one subject within a project: the primary key is the uniqueness rule.
  (t) => [primaryKey({ columns: [t.projectId, t.type, t.identifier] }), index("aliases_identity_idx").on(t.identityId)],
);
