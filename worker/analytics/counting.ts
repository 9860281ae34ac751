import type { AnalyticsReport, Device } from "./schemas";

const maxPathLength = 200;

/**
 * A page path as it is counted: no query, no fragment, no trailing slash, and every segment that could name a
 * person or an order (one with four digits or more, a long hex run, an `@`, or a percent-encoded byte) made `:id`,
 * so `/orders/88412/receipt` and `/users/ann@example.com` count as `/orders/:id/receipt` and `/users/:id`.
 */
export function normalisePath(raw: string): string {
  const path = raw.split(/[?#]/, 1)[0];
  const segments = path
    .split("/")
    .filter(Boolean)
    .map((segment) => (/\d{4}|[0-9a-f]{12}|@|%/i.test(segment) ? ":id" : segment));
  return `/${segments.join("/")}`.slice(0, maxPathLength);
}

/** The device class of a User-Agent, coarse on purpose: three values, no version, no model. */
export function deviceOf(userAgent: string | undefined): Device {
  const ua = userAgent ?? "";
  if (/iPad|Tablet|Android(?!.*Mobile)/i.test(ua)) return "tablet";
  if (/Mobi|iPhone|Android/i.test(ua)) return "mobile";
  return "desktop";
}

type Dimensions = { regime: string; language: string; device: Device; variant: string };
type CountRow = { event: string; purposeId: string };

/** The rows one report adds to, each with how much: its interactions, and each decision's purposes. */
export function countsOf(report: AnalyticsReport) {
  const counts = new Map<string, CountRow & { count: number }>();
  const pages = new Map<string, number>();
  const add = (event: string, purposeId = "") => {
    const key = `${event} ${purposeId}`;
    const row = counts.get(key) ?? { event, purposeId, count: 0 };
    row.count++;
    counts.set(key, row);
  };
  for (const { event, granted = [], refused = [] } of report.events) {
    add(event);
    pages.set(event, (pages.get(event) ?? 0) + 1);
    for (const purposeId of new Set(granted)) add("granted", purposeId);
    for (const purposeId of new Set(refused)) add("refused", purposeId);
  }
  return { counts: [...counts.values()], pages: [...pages].map(([event, count]) => ({ event, count })) };
}

// D1 binds at most 100 values a statement: 10 rows of 9 (or 5) values and the project id.
const rowsPerStatement = 10;

const chunks = <T>(rows: T[]) => Array.from({ length: Math.ceil(rows.length / rowsPerStatement) }, (_, i) => rows.slice(i * rowsPerStatement, (i + 1) * rowsPerStatement));

/** The project's counting switch in SQL: null (never set) is the default, on (worker/analytics/settings.ts). */
const countingOn = "coalesce(json_extract(analytics, '$.enabled'), 1)";

/**
 * Adds one report to the roll-ups: upserts into both tables in one batch (one round trip), beside the read of the
 * project's counting switch. Each statement inserts only while the project exists and counts, so a report racing
 * the project's deletion or its switch adds nothing instead of failing. False when the project turned counting off.
 */
export async function addReport(d1: D1Database, projectId: string, day: string, report: AnalyticsReport, dims: Dimensions): Promise<boolean> {
  const { counts, pages } = countsOf(report);
  const path = normalisePath(report.path);
  const exists = `WHERE EXISTS (SELECT 1 FROM projects WHERE id = ? AND ${countingOn})`;
  const statements = [
    ...chunks(counts).map((rows) =>
      d1
        .prepare(
          `INSERT INTO analytics_counts (project_id, day, event, purpose_id, regime, language, device, variant, count)
           SELECT * FROM (VALUES ${rows.map(() => "(?, ?, ?, ?, ?, ?, ?, ?, ?)").join(", ")}) ${exists}
           ON CONFLICT DO UPDATE SET count = analytics_counts.count + excluded.count`,
        )
        .bind(...rows.flatMap((r) => [projectId, day, r.event, r.purposeId, dims.regime, dims.language, dims.device, dims.variant, r.count]), projectId),
    ),
    ...chunks(pages).map((rows) =>
      d1
        .prepare(
          `INSERT INTO analytics_pages (project_id, day, event, path, count)
           SELECT * FROM (VALUES ${rows.map(() => "(?, ?, ?, ?, ?)").join(", ")}) ${exists}
           ON CONFLICT DO UPDATE SET count = analytics_pages.count + excluded.count`,
        )
        .bind(...rows.flatMap((r) => [projectId, day, r.event, path, r.count]), projectId),
    ),
  ];
  const [switchRead] = await d1.batch([d1.prepare(`SELECT ${countingOn} AS counting FROM projects WHERE id = ?`).bind(projectId), ...statements]);
  return (switchRead.results[0] as { counting: number } | undefined)?.counting !== 0;
}
