import { ApiError } from "../lib/errors";
import { and, desc, eq, getTableColumns, lt, sql } from "drizzle-orm";
import { commit, type Committer } from "../events/commit";
import { eventInsert } from "../events/outbox";
import { getDb } from "../lib/db";
import { now } from "../lib/time";
import { countsOf, diffReports, type ScanDiff } from "./diff";
import type { ScanReport } from "../../shared/scans/report";
import { withEssentialMarks } from "../../shared/scans/proposal";
import { scanEssentials, scans, type ScanCounts } from "./table";

/** Every column but the report: what lists show. */
const { report: _report, ...summary } = getTableColumns(scans);

export async function findScan(d1: D1Database, projectId: string, scanId: string) {
  const [row] = await getDb(d1)
    .select()
    .from(scans)
    .where(and(eq(scans.projectId, projectId), eq(scans.id, scanId)))
    .limit(1);
  return row;
}

/** A page of the project's scans, newest first, without their reports. */
export function listScans(d1: D1Database, projectId: string, limit: number, before?: string) {
  return getDb(d1)
    .select(summary)
    .from(scans)
    .where(and(eq(scans.projectId, projectId), before === undefined ? undefined : lt(scans.id, before)))
    .orderBy(desc(scans.id))
    .limit(limit);
}

/** The project's essential marks, by name. */
export function essentialMarksOf(d1: D1Database, projectId: string) {
  return getDb(d1).select({ name: scanEssentials.name, reason: scanEssentials.reason, created: scanEssentials.created }).from(scanEssentials).where(eq(scanEssentials.projectId, projectId)).orderBy(scanEssentials.name);
}

/** The completed scan of the same origin made before `beforeId` (any scan when null), the one a scan is diffed against. */
export async function previousCompleted(d1: D1Database, projectId: string, origin: string, beforeId: string | null) {
  const [row] = await getDb(d1)
    .select({ scanId: scans.id, report: scans.report })
    .from(scans)
    .where(and(eq(scans.projectId, projectId), eq(scans.origin, origin), eq(scans.status, "completed"), beforeId === null ? undefined : lt(scans.id, beforeId)))
    .orderBy(desc(scans.id))
    .limit(1);
  return row?.report ? { scanId: row.scanId, report: row.report } : null;
}

/** The diff of a stored scan against its predecessor. */
export async function diffOf(d1: D1Database, scan: { id: string; projectId: string; origin: string; report: ScanReport }): Promise<ScanDiff> {
  return diffReports(scan.report, await previousCompleted(d1, scan.projectId, scan.origin, scan.id));
}

/**
 * The most a stored report may take, as the column holds it (JSON as written back, so `1e20` takes 21 bytes): under
 * D1's 2,000,000-byte limit on a value, with room to spare. What is received is bounded apart (`maxReportBodyBytes`).
 */
export const maxStoredReportBytes = 1_950_000;

/** 413 `report_too_large` for a report whose stored form would pass `maxStoredReportBytes`. */
function refuseOversizedReport(report: ScanReport) {
  const storedBytes = new TextEncoder().encode(JSON.stringify(report)).byteLength;
  if (storedBytes > maxStoredReportBytes) {
    throw new ApiError(413, "report_too_large", `The report takes ${storedBytes} bytes as stored; at most ${maxStoredReportBytes} are kept (scan fewer pages).`, {
      members: { storedBytes, limitBytes: maxStoredReportBytes },
    });
  }
}

type Completing = { id: string; projectId: string; origin: string; trigger: (typeof scans.$inferSelect)["trigger"]; created: string; started: string | null };

/**
 * Completes a scan with its report, the project's essential marks applied: the row (inserted for an upload, updated from `running` for a scan the Worker
 * ran) and its `scan.completed` event in one batch, the event carrying the counts against the previous scan.
 * Answers the counts, or null when a `running` scan was no longer running (failed meanwhile by the cron).
 */
export async function completeScan(committer: Committer, scan: Completing, crawled: ScanReport, write: "insert" | "update"): Promise<{ completed: string; counts: ScanCounts } | null> {
  refuseOversizedReport(crawled);
  const d1 = committer.db;
  const db = getDb(d1);
  // The project's essential marks hold for every report it stores, whoever scanned.
  const report = withEssentialMarks(crawled, await essentialMarksOf(d1, scan.projectId));
  const diff = diffReports(report, await previousCompleted(d1, scan.projectId, scan.origin, scan.id));
  const counts = countsOf(report, diff);
  const completed = now();
  const done = { status: "completed" as const, report, counts, completed, problem: null };
  const row =
    write === "insert"
      ? db.insert(scans).values({ ...scan, ...done }).returning({ id: scans.id })
      : db
          .update(scans)
          .set(done)
          .where(and(eq(scans.id, scan.id), eq(scans.status, "running")))
          .returning({ id: scans.id });
  const event = eventInsert(
    db,
    scan.projectId,
    "scan.completed",
    { scanId: scan.id, origin: scan.origin, trigger: scan.trigger, completed, counts },
    { stamp: completed, when: sql`EXISTS (SELECT 1 FROM ${scans} WHERE ${scans.id} = ${scan.id} AND ${scans.completed} = ${completed})` },
  );
  const { applied } = await commit(committer, scan.projectId, [row, event], ([written]) => ({ applied: written.results.length > 0 }));
  return applied ? { completed, counts } : null;
}
