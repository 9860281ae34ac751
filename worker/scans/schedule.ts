import { and, eq, inArray, lt, sql } from "drizzle-orm";
import { webOriginsOf } from "../auth/browser-origins";
import { clients } from "../auth/table";
import type { Env } from "../env";
import { loopbackAllowed, webhookUrlProblem } from "../../shared/ssrf";
import { getDb } from "../lib/db";
import { ApiError, badRequest } from "../lib/errors";
import { newId } from "../lib/ids";
import { projects } from "../projects/table";
import { crawlInScanner } from "./scanner";
import { issueScanPass, scanPassFor } from "./pass";
import { completeScan } from "./queries";
import { removeScanVisitors } from "./visitors";
import { scans, type ScanProblem, type ScanSchedule } from "./table";

/**
 * The Worker's own scans, run by the cron (worker/index.ts) on deployments with Browser Rendering: each run queues
 * the scans that are due and runs the oldest queued ones, a few per run, so a crawl never holds up the other jobs
 * for long (docs/scans-api.md#schedule).
 */
const day = 24 * 3600_000;
const intervals: Record<Exclude<ScanSchedule, "off">, number> = { daily: day, weekly: 7 * day, monthly: 30 * day };

/** Scans queued per run and database, and scans run per run and database. */
const queuedPerRun = 20;
const runPerRun = 2;
/** Pages a scheduled or portal scan follows, as the CLI's default. */
export const workerScanPages = 20;
/** A scan still `running` this long after it started was cut short (the invocation ended): it is failed. */
const runningAtMost = 15 * 60_000;

/**
 * Queues a scan of every origin a web client of a project lists, when the project's schedule is not `off` and the
 * origin's last scan (of any kind) is older than the schedule's interval. Origins the SSRF guard refuses are skipped.
 * Without the scanner's Worker (the SCANNER binding) nothing could run them, so nothing is queued.
 */
export async function queueDueScans(env: Env, asOf = Date.now()): Promise<number> {
  if (!env.SCANNER) return 0;
  const since = (schedule: keyof typeof intervals) => new Date(asOf - intervals[schedule]).toISOString();
  const candidates = await getDb(env.DB)
    .selectDistinct({ projectId: projects.id, origin: sql<string>`o.value` })
    .from(projects)
    .innerJoin(clients, and(eq(clients.projectId, projects.id), eq(clients.type, "web")))
    .innerJoin(sql`json_each(${clients.allowedOrigins}) o`, sql`1`)
    .where(
      and(
        inArray(projects.scanSchedule, ["daily", "weekly", "monthly"]),
        sql`NOT EXISTS (SELECT 1 FROM ${scans} s WHERE s.project_id = ${projects.id} AND s.origin = o.value AND s.created >= CASE ${projects.scanSchedule}
          WHEN 'daily' THEN ${since("daily")} WHEN 'weekly' THEN ${since("weekly")} ELSE ${since("monthly")} END)`,
      ),
    )
    .limit(500);
  const allowed = candidates.filter(({ origin }) => webhookUrlProblem(origin, loopbackAllowed(env)) === undefined).slice(0, queuedPerRun);
  if (allowed.length === 0) return 0;
  const created = new Date(asOf).toISOString();
  const rows = allowed.map(({ projectId, origin }) => ({ id: newId("scn"), projectId, origin, trigger: "schedule" as const, status: "queued" as const, created }));
  const db = getDb(env.DB);
  // Six bound values a row: ten rows a statement stay within D1's 100 bound parameters.
  const inserts = [];
  for (let i = 0; i < rows.length; i += 10) inserts.push(db.insert(scans).values(rows.slice(i, i + 10)));
  await db.batch(inserts as [(typeof inserts)[number], ...typeof inserts]);
  return rows.length;
}

/** A scan the Worker could not run, as its problem. */
const failureOf = (error: unknown): ScanProblem =>
  error instanceof ApiError ? { code: error.code, detail: error.message } : { code: "scan_failed", detail: String((error as Error)?.message ?? error).slice(0, 500) };

/** What crawls an origin: the scanner's Worker; the tests pass a stand-in for it. */
export type Crawl = typeof crawlInScanner;

/**
 * Runs the oldest queued scans in the scanner's Worker (Browser Rendering), claiming each first (so overlapping runs never crawl one
 * twice), and fails scans left `running` by an invocation that ended. A scan whose origin no web client of the
 * project lists any more fails with `origin_not_registered` before the crawl. Without the SCANNER binding it does nothing.
 */
export async function runQueuedScans(env: Env, asOf = Date.now(), crawl: Crawl = crawlInScanner): Promise<number> {
  if (!env.SCANNER) return 0;
  const db = getDb(env.DB);
  await db
    .update(scans)
    .set({ status: "failed", problem: { code: "timeout", detail: "The scan did not finish within 15 minutes." }, completed: new Date(asOf).toISOString() })
    .where(and(eq(scans.status, "running"), lt(scans.started, new Date(asOf - runningAtMost).toISOString())));
  let ran = 0;
  for (; ran < runPerRun; ran++) {
    const next = db.select({ id: scans.id }).from(scans).where(eq(scans.status, "queued")).orderBy(scans.id).limit(1);
    const [claimed] = await db
      .update(scans)
      .set({ status: "running", started: new Date().toISOString() })
      .where(and(inArray(scans.id, next), eq(scans.status, "queued")))
      .returning();
    if (!claimed) break;
    const { passId, pass } = await issueScanPass(env, claimed.projectId);
    try {
      // The origin was registered when the scan was queued; a client may have dropped it since.
      const registeredOrigins = await webOriginsOf(env.DB, claimed.projectId);
      if (!registeredOrigins.includes(claimed.origin)) {
        throw badRequest("origin_not_registered", `${claimed.origin} is no longer listed in allowedOrigins of any of the project's web clients.`);
      }
      const report = await crawl(env, claimed.origin, { maxPages: workerScanPages, registeredOrigins, pass: scanPassFor(env, pass) });
      // The cron's own dispatch job hands the event to delivery.
      await completeScan({ env, db: env.DB }, claimed, report, "update");
    } catch (error) {
      await db
        .update(scans)
        .set({ status: "failed", problem: failureOf(error), completed: new Date().toISOString() })
        .where(and(eq(scans.id, claimed.id), eq(scans.status, "running")));
    } finally {
      // The scan's own visitors are not data subjects, whether or not it completed.
      await removeScanVisitors({ env, db: env.DB }, claimed.projectId, passId);
    }
  }
  return ran;
}
