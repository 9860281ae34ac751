import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { projects } from "../projects/table";

/**
 * Banner interactions as counts, never as events (docs/analytics.md#what-is-stored): one row per UTC day and
 * combination of what the widget reports, its `count` added to by each event. No column can hold who sent it: no
 * identity, token, visitor key, address or cookie, and the page path is normalised (no query, no fragment, id-like
 * segments replaced) before it is stored.
 *
 * Two roll-ups, written together in one batch: `analytics_counts` by event and purpose across regime, language,
 * device and variant (what opt-in rates, the funnel and experiments read), and `analytics_pages` by event and page
 * path (the breakdown by page). The full cross product with the path made the 90-day report too slow to read on D1
 * (docs/analytics.md#where-it-is-stored). Both are `WITHOUT ROWID` in drizzle/0036_analytics.sql (Drizzle cannot say so):
 * the primary key is the table, so a report's range scan reads the rows in key order with no second lookup.
 */
export const analyticsCounts = sqliteTable(
  "analytics_counts",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    day: text("day").notNull(),
    /** An interaction (`banner_shown`, `accept_all`, …), or `granted` / `refused` for one purpose of a decision. */
    event: text("event").notNull(),
    /** The purpose a `granted` / `refused` row counts; empty for the interactions themselves. */
    purposeId: text("purpose_id").notNull(),
    regime: text("regime").notNull(),
    language: text("language").notNull(),
    device: text("device").notNull(),
    /** The banner variant the visitor saw; empty without an experiment. */
    variant: text("variant").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.day, t.event, t.purposeId, t.regime, t.language, t.device, t.variant] })],
);

export const analyticsPages = sqliteTable(
  "analytics_pages",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    day: text("day").notNull(),
    event: text("event").notNull(),
    path: text("path").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.day, t.event, t.path] })],
);

/** A banner experiment's variant as the operator defines it (worker/analytics/experiments.ts checks its guardrails). */
export type VariantDefinition = {
  name: string;
  weight: number;
  layout: { rejectAll: "first-layer" | "preferences-only"; accept: "primary" | "secondary" | "link"; reject: "primary" | "secondary" | "link"; preChecked: string[] };
  wording: Record<string, Record<string, string>>;
};

/** Banner experiments: one may run per project at a time; its variants' counts are the rows with their names. */
export const bannerExperiments = sqliteTable("banner_experiments", {
  id: text("id").primaryKey(),
  projectId: text("project_id")
    .notNull()
    .references(() => projects.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  status: text("status", { enum: ["draft", "running", "stopped"] }).notNull(),
  variants: text("variants", { mode: "json" }).$type<VariantDefinition[]>().notNull(),
  created: text("created").notNull(),
  started: text("started"),
  stopped: text("stopped"),
});
