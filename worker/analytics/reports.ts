import { notFound } from "../lib/errors";
import { projectExists } from "../projects/queries";
import { interactions, type Interaction } from "./schemas";
import { wilson } from "./stats";

/**
 * Counts below this are not shown (null in the API, empty in the CSV): a cell of a few interactions on one day, page
 * and language could single out a visitor the operator knows (docs/analytics.md#small-cells).
 */
export const minimumCell = 10;

/** A count as reported: null when it is between 1 and `minimumCell - 1`. */
export const shown = (n: number): number | null => (n > 0 && n < minimumCell ? null : n);

export type EventCounts = Record<Interaction, number | null>;
export const breakdownDimensions = ["regime", "language", "device", "variant"] as const;
/** The breakdown by page lists the pages with the most banners shown, this many. */
const maxPages = 50;
type Row = Record<string, string | number | null>;

const zeroCounts = () => Object.fromEntries(interactions.map((e) => [e, 0])) as Record<Interaction, number>;
const shownCounts = (raw: Record<Interaction, number>) => Object.fromEntries(interactions.map((e) => [e, shown(raw[e])])) as EventCounts;

/** The days from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

/** A share whose parts are both shown (never a rate computed from a suppressed count). */
const rateOf = (part: number, whole: number) => (shown(part) === null || shown(whole) === null ? null : wilson(part, whole));

/** Grouped sums of one interaction dimension, as rows `{ key, event, n }`. */
function byEvents(rows: Row[], key: string) {
  const grouped = new Map<string, Record<Interaction, number>>();
  for (const row of rows) {
    const value = String(row[key] ?? "");
    const counts = grouped.get(value) ?? zeroCounts();
    if ((interactions as readonly string[]).includes(String(row.event))) counts[row.event as Interaction] += Number(row.n);
    grouped.set(value, counts);
  }
  return grouped;
}

const decisionsOf = (c: Record<Interaction, number>) => c.accept_all + c.reject_all + c.customised;

/** What the funnel says of some counts: each interaction, and the shares of the banners shown that ended each way. */
function funnelOf(raw: Record<Interaction, number>) {
  return {
    counts: shownCounts(raw),
    decided: rateOf(decisionsOf(raw), raw.banner_shown),
    acceptAll: rateOf(raw.accept_all, raw.banner_shown),
    rejectAll: rateOf(raw.reject_all, raw.banner_shown),
    customised: rateOf(raw.customised, raw.banner_shown),
  };
}

/**
 * The project's analytics over `from`..`to` (UTC days), read in one D1 batch of aggregate queries over the two
 * roll-ups: the funnel by day and in total, the opt-in rate of every purpose by day with the days its wording changed,
 * and breakdowns by regime, language, device, variant and page (the 50 pages with the most banners shown).
 */
export async function readReport(d1: D1Database, projectId: string, from: string, to: string) {
  if (!(await projectExists(d1, projectId))) throw notFound("Project");
  const range = "project_id = ? AND day >= ? AND day <= ?";
  const interactionsOnly = `${range} AND purpose_id = ''`;
  // Each roll-up is scanned once over the range: interactions by day, interactions by every dimension together (the
  // breakdowns are summed from it here), decisions by day and purpose, and pages (the top 50 picked here).
  const [daily, byDimensions, purposeDaily, purposes, versions, pageRows] = await d1.batch<Row>([
    d1.prepare(`SELECT day, event, sum(count) AS n FROM analytics_counts WHERE ${interactionsOnly} GROUP BY day, event`).bind(projectId, from, to),
    d1
      .prepare(`SELECT ${breakdownDimensions.join(", ")}, event, sum(count) AS n FROM analytics_counts WHERE ${interactionsOnly} GROUP BY ${breakdownDimensions.join(", ")}, event`)
      .bind(projectId, from, to),
    d1
      .prepare(`SELECT day, purpose_id, event, sum(count) AS n FROM analytics_counts WHERE ${range} AND purpose_id <> '' GROUP BY day, purpose_id, event`)
      .bind(projectId, from, to),
    d1.prepare("SELECT id, reference_id, json_extract(content, '$.name') AS name FROM purposes WHERE project_id = ? AND deleted IS NULL ORDER BY id").bind(projectId),
    d1
      .prepare(
        `SELECT v.purpose_id, v.version, substr(v.created, 1, 10) AS day FROM purpose_versions v JOIN purposes p ON p.id = v.purpose_id
         WHERE p.project_id = ? AND p.deleted IS NULL ORDER BY v.created`,
      )
      .bind(projectId),
    d1.prepare(`SELECT path, event, sum(count) AS n FROM analytics_pages WHERE ${range} GROUP BY path, event`).bind(projectId, from, to),
  ]);
  const shownOn = new Map<string, number>();
  for (const row of pageRows.results) if (row.event === "banner_shown") shownOn.set(String(row.path), Number(row.n));
  const topPages = new Set([...shownOn].sort((a, b) => b[1] - a[1]).slice(0, maxPages).map(([path]) => path));
  const pages = pageRows.results.filter((row) => topPages.has(String(row.path)));

  const days = daysBetween(from, to);
  const dailyCounts = byEvents(daily.results, "day");
  const total = zeroCounts();
  for (const counts of dailyCounts.values()) for (const e of interactions) total[e] += counts[e];

  const perPurpose = new Map<string, Map<string, { granted: number; refused: number }>>();
  for (const row of purposeDaily.results) {
    const byDay = perPurpose.get(String(row.purpose_id)) ?? new Map<string, { granted: number; refused: number }>();
    const cell = byDay.get(String(row.day)) ?? { granted: 0, refused: 0 };
    cell[row.event === "granted" ? "granted" : "refused"] += Number(row.n);
    byDay.set(String(row.day), cell);
    perPurpose.set(String(row.purpose_id), byDay);
  }
  const versionsOf = (purposeId: string) =>
    versions.results.filter((v) => v.purpose_id === purposeId).map((v) => ({ version: String(v.version), since: String(v.day) }));

  const breakdown = (grouped: Map<string, Record<Interaction, number>>) =>
    [...grouped]
      .map(([value, raw]) => ({ value, ...funnelOf(raw) }))
      .sort((a, b) => (b.counts.banner_shown ?? 0) - (a.counts.banner_shown ?? 0) || a.value.localeCompare(b.value));

  return {
    projectId,
    from,
    to,
    minimumCell,
    funnel: funnelOf(total),
    daily: days.map((day) => ({ day, counts: shownCounts(dailyCounts.get(day) ?? zeroCounts()) })),
    purposes: purposes.results.map((p) => {
      const byDay = perPurpose.get(String(p.id)) ?? new Map<string, { granted: number; refused: number }>();
      const sum = { granted: 0, refused: 0 };
      for (const cell of byDay.values()) (sum.granted += cell.granted), (sum.refused += cell.refused);
      const point = (cell: { granted: number; refused: number }) => ({
        granted: shown(cell.granted),
        refused: shown(cell.refused),
        optIn: rateOf(cell.granted, cell.granted + cell.refused),
      });
      return {
        purposeId: String(p.id),
        referenceId: String(p.reference_id),
        name: String(p.name ?? p.reference_id),
        total: point(sum),
        daily: days.map((day) => ({ day, ...point(byDay.get(day) ?? { granted: 0, refused: 0 }) })),
        versions: versionsOf(String(p.id)),
      };
    }),
    breakdowns: {
      ...Object.fromEntries(breakdownDimensions.map((dimension) => [dimension, breakdown(byEvents(byDimensions.results, dimension))])),
      page: breakdown(byEvents(pages, "path")),
    } as Record<(typeof breakdownDimensions)[number] | "page", ReturnType<typeof breakdown>>,
  };
}
export type AnalyticsReportAnswer = Awaited<ReturnType<typeof readReport>>;

/** The report as CSV: one line per day and interaction, then per day, purpose and decision; suppressed counts empty. */
export function reportCsv(report: AnalyticsReportAnswer): string {
  const lines = ["day,event,purpose_reference,count"];
  const cell = (n: number | null) => (n === null ? "" : String(n));
  for (const { day, counts } of report.daily) for (const e of interactions) lines.push(`${day},${e},,${cell(counts[e])}`);
  for (const p of report.purposes) {
    for (const d of p.daily) lines.push(`${d.day},granted,${p.referenceId},${cell(d.granted)}`, `${d.day},refused,${p.referenceId},${cell(d.refused)}`);
  }
  return `${lines.join("\r\n")}\r\n`;
}
