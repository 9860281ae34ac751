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
 * (docs/analytics.md#where-it-is-stored).
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
