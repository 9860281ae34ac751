import { sql } from "drizzle-orm";
import { index, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { projects } from "../projects/table";
import type { ScanReport } from "../../shared/scans/report";

/** How a scan came to be: a report uploaded through the API (the CLI's `--project`), the cron's schedule, the portal's button. */
export const scanTriggers = ["api", "schedule", "portal"] as const;
export type ScanTrigger = (typeof scanTriggers)[number];

/** `queued` and `running` only for scans the Worker runs itself; an uploaded report is `completed` at once. */
export const scanStatuses = ["queued", "running", "completed", "failed"] as const;

/** How often the cron scans a project's registered origins (docs/scans-api.md#schedule); a project without a choice: weekly. */
export const scanSchedules = ["off", "daily", "weekly", "monthly"] as const;
export type ScanSchedule = (typeof scanSchedules)[number];
export const defaultScanSchedule: ScanSchedule = "weekly";

/** What the list shows of a scan, and what `scan.completed` carries: sizes of the report and what is new since the previous scan. */
export type ScanCounts = {
  pages: number;
  pageErrors: number;
  cookies: number;
  storage: number;
  thirdPartyHosts: number;
  violations: number;
  /** Cookies, storage keys and third-party hosts not in the previous completed scan of the origin. */
  newItems: number;
  newViolations: number;
};

/** Why a scan failed, as an RFC 9457 problem's code and detail. */
export type ScanProblem = { code: string; detail: string };

export const scans = sqliteTable(
  "scans",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    origin: text("origin").notNull(),
    trigger: text("trigger", { enum: scanTriggers }).notNull(),
    status: text("status", { enum: scanStatuses }).notNull(),
    problem: text("problem", { mode: "json" }).$type<ScanProblem>(),
    created: text("created").notNull(),
    /** When the Worker began crawling; null for uploads and scans still queued. */
    started: text("started"),
    completed: text("completed"),
    report: text("report", { mode: "json" }).$type<ScanReport>(),
    counts: text("counts", { mode: "json" }).$type<ScanCounts>(),
  },
  (t) => [
    // The list (newest first) and the previous completed scan of one origin.
    index("scans_project_idx").on(t.projectId, t.id),
    index("scans_origin_idx").on(t.projectId, t.origin, t.status, t.id),
    // The cron's queue: only scans waiting or running.
    index("scans_pending_idx").on(t.status, t.id).where(sql`${t.status} IN ('queued', 'running')`),
  ],
);

/**
 * Cookies and storage keys the project has marked essential, with why: every report stored afterwards (uploaded or
 * run by the Worker) shows them as `necessary` and flags them nowhere (docs/scanner.md#marking-an-item-essential).
 */
export const scanEssentials = sqliteTable(
  "scan_essentials",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    /** A cookie or storage key name; a trailing `*` marks every name it begins (`wp_session_*`). */
    name: text("name").notNull(),
    reason: text("reason").notNull(),
    created: text("created").notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.name] })],
);
