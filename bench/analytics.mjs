// The analytics data set of `npm run bench` (docs/analytics.md#where-it-is-stored): 90 days of the daily roll-ups a site
// with a million banner views a day fills, generated inside SQLite by one statement a table (an API call per event
// would take days), and the two scenarios that read and write them: the widget's counting beacon and the portal's
// 90-day report.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { executeSqlFile, querySql } from "./server.mjs";

export const analyticsDays = 90;
export const viewsPerDay = 1_000_000;
export const benchOrigin = "https://bench.example";
const languages = ["en", "de", "fr", "es", "it", "nl", "sv", "pl"];
const pages = 500;
/** Each interaction's share of the banners shown, and each purpose's share granted. */
const interactionShares = [
  ["banner_shown", 1],
  ["accept_all", 0.55],
  ["reject_all", 0.25],
  ["customised", 0.08],
  ["dismissed", 0.12],
  ["preferences_reopened", 0.02],
  ["withdrawn", 0.005],
];

const values = (rows) => rows.map((row) => `(${row.map((v) => (typeof v === "number" ? v : `'${v}'`)).join(", ")})`).join(", ");

/**
 * The SQL filling both roll-ups for `analyticsDays` days up to `lastDay`: every cell of regime (3) × language (8) ×
 * device (3) × variant (2) × (7 interactions + 2 decisions × `purposeIds`) on every day, and every page (500, shares
 * falling as 1/rank) × interaction on every day: the worst case of a million views a day, where no cell stays empty.
 */
export function analyticsSql(projectId, purposeIds, lastDay) {
  const events = [
    ...interactionShares.map(([event, share]) => [event, "", share]),
    ...purposeIds.flatMap((id, i) => [["granted", id, 0.6 - i * 0.1], ["refused", id, 0.4 + i * 0.1]]),
  ];
  const cells = 3 * languages.length * 3 * 2;
  const harmonic = Array.from({ length: pages }, (_, i) => 1 / (i + 1)).reduce((a, b) => a + b);
  const days = `d(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM d WHERE n < ${analyticsDays - 1})`;
  const day = `date('${lastDay}', '-' || d.n || ' days')`;
  return [
    `WITH RECURSIVE ${days},
       r(v) AS (VALUES ${values([["opt-in"], ["opt-out"], ["notice"]])}),
       l(v) AS (VALUES ${values(languages.map((x) => [x]))}),
       dev(v) AS (VALUES ${values([["desktop"], ["mobile"], ["tablet"]])}),
       va(v) AS (VALUES ${values([[""], ["b"]])}),
       e(event, purpose, share) AS (VALUES ${values(events)})
     INSERT INTO analytics_counts (project_id, day, event, purpose_id, regime, language, device, variant, count)
     SELECT '${projectId}', ${day}, e.event, e.purpose, r.v, l.v, dev.v, va.v, max(1, CAST(${viewsPerDay / cells} * e.share AS INTEGER))
     FROM d, r, l, dev, va, e;`,
    `WITH RECURSIVE ${days},
       p(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM p WHERE n < ${pages}),
       e(event, share) AS (VALUES ${values(interactionShares)})
     INSERT INTO analytics_pages (project_id, day, event, path, count)
     SELECT '${projectId}', ${day}, e.event, '/page/' || p.n, max(1, CAST(${viewsPerDay / harmonic} / p.n * e.share AS INTEGER))
     FROM d, p, e;`,
  ].join("\n");
}

/** Loads the generated roll-ups into the stopped service's D1; returns how many rows each table holds. */
export function loadAnalytics(stateDir, workDir, projectId, purposeIds, lastDay) {
  const file = join(workDir, "analytics.sql");
  writeFileSync(file, analyticsSql(projectId, purposeIds, lastDay));
  executeSqlFile(stateDir, file);
  const [[counts], [pagesRows]] = querySql(stateDir, "SELECT count(*) AS n FROM analytics_counts; SELECT count(*) AS n FROM analytics_pages;");
  return { "analytics_counts rows (90 days)": counts.n, "analytics_pages rows (90 days)": pagesRows.n };
}

/** The scenarios: (8) the widget's beacon for one page view, (9) the portal's report over 90 days. */
export function analyticsScenarios(f) {
  let address = 0;
  const report = JSON.stringify({
    regime: "opt-in",
    language: "en",
    path: "/shop/cart",
    events: [{ event: "banner_shown" }, { event: "customised", granted: [f.purposeIds[0]], refused: f.purposeIds.slice(1) }],
  });
  return [
    {
      id: 8,
      name: "count a page view's banner events",
      method: "POST",
      headers: { "content-type": "text/plain;charset=UTF-8", origin: benchOrigin },
      // The beacon is limited per address (docs/analytics.md#abuse): the load comes from many visitors.
      requests: [
        {
          path: `/browser/v1/projects/${f.projectId}/analytics/events`,
          setupRequest: (request) => {
            address = (address + 1) % 65_000;
            request.headers = { ...request.headers, "cf-connecting-ip": `10.${address >> 8}.${address & 255}.2` };
            request.body = report;
            return request;
          },
        },
      ],
      expectStatus: 204,
    },
    {
      id: 9,
      name: `analytics report over ${analyticsDays} days of ${viewsPerDay.toLocaleString("en")} banner views a day`,
      path: `/admin/v1/projects/${f.projectId}/analytics?from=${f.analyticsFrom}&to=${f.analyticsTo}`,
      connections: 1,
      headers: { authorization: `Bearer ${f.adminToken}` },
      expectStatus: 200,
    },
  ];
}
