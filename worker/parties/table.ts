import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { projects, type Policies, type Translation } from "../projects/table";

export type PartyDetails = {
  name: string;
  description?: Translation[];
  address?: string;
  email?: string;
  nationalId?: string;
  phone?: string;
  policies?: Policies;
  jurisdiction?: string;
};

export const parties = sqliteTable(
  "parties",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    referenceId: text("reference_id").notNull(),
    type: text("type", { enum: ["individual", "company"] }).notNull(),
    details: text("details", { mode: "json" }).$type<PartyDetails>().notNull(),
    created: text("created").notNull(),
    updated: text("updated").notNull(),
    /** Grows by one with every write; the resource's ETag (worker/lib/preconditions.ts). */
    revision: integer("revision").notNull().default(1),
  },
  (t) => [index("parties_project_idx").on(t.projectId, t.id), uniqueIndex("parties_reference_idx").on(t.projectId, t.referenceId)],
);
