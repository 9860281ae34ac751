import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { projects } from "../projects/table";

/** Where a blocking entry came from: the scanner's proposal, the vendor catalogue, or the operator's own hand. */
export const blockingSources = ["scan", "catalogue", "manual"] as const;

/** Whether a project blocks automatically (`projects.blocking`; null: it does not). */
export type BlockingSettings = { enabled: boolean };

/** A project's host → purpose list: what the page-side blocker holds back until the purpose is approved. */
export const blockingEntries = sqliteTable(
  "blocking_entries",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    /** The list's order, as the operator put it. */
    position: integer("position").notNull(),
    host: text("host").notNull(),
    /** A purpose's referenceId. */
    purpose: text("purpose").notNull(),
    source: text("source", { enum: blockingSources }).notNull(),
    /** A shared/vendors catalogue id. */
    vendor: text("vendor"),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.position] })],
);
