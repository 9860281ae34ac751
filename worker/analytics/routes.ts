import { z } from "@hono/zod-openapi";
import { clientForOrigin } from "../auth/browser-origins";
import { createRouter, defineRoute } from "../auth/router";
import { access } from "../auth/scopes";
import { bodyLimitExtension } from "../lib/body";
import { ApiError, validationError } from "../lib/errors";
import { jsonResponse, problems } from "../lib/schemas";
import { ProjectParams } from "../lib/params";
import { clientIp, limitRate } from "../limits/rate-limits";
import { addReport, deviceOf } from "./counting";
import { AnalyticsReport } from "./schemas";
import { AnalyticsAnswer, AnalyticsQuery } from "./report-schemas";
import { readReport, reportCsv } from "./reports";

/** The widget's counting, mounted at `/browser/v1/projects/{project_id}`. */
export const countingRoutes = createRouter();

/** The operator's reports, mounted at `/admin/v1/projects/{project_id}/analytics`. */
export const reportRoutes = createRouter();

/** A report is one page view's few interactions; 8 KiB holds ten events with every purpose of a large project. */
const maxReportBytes = 8192;

countingRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/analytics/events",
    operationId: "countBannerEvents",
    tags: ["Analytics"],
    // A page's beacon: no credential, no cookie, no visitor token; the page's origin is checked instead.
    ...access.public,
    [bodyLimitExtension]: maxReportBytes,
    summary: "Count the banner's interactions of one page view",
    description:
      "The widget's fire-and-forget beacon (`navigator.sendBeacon`, `text/plain` JSON, so no preflight). Each event is added " +
      "to daily counts by purpose, regime, language, device class, page path and banner variant; nothing that identifies " +
      "the visitor is read or stored (docs/analytics.md). The `Origin` must be registered on one of the project's clients " +
      "(403 `origin_not_allowed`); reports are rate-limited per address and project (429, dropped); a malformed report is " +
      "400 and dropped; a project that turned counting off refuses them (403 `analytics_off`, nothing counted).",
    request: {
      params: z.object({ project_id: z.string() }),
      // Validated in the handler, whichever of the two types it came as (a required body is validated as JSON only).
      body: {
        required: false,
        content: { "text/plain": { schema: AnalyticsReport }, "application/json": { schema: AnalyticsReport } },
      },
    },
    responses: { 204: { description: "Counted." }, ...problems },
  }),
  async (c) => {
    const { project_id: projectId } = c.req.valid("param");
    const origin = c.req.header("origin");
    if (!origin || origin === "null" || !(await clientForOrigin(c.env, origin, projectId))) {
      throw new ApiError(403, "origin_not_allowed", `Banner events are counted only from the project's registered origins.`);
    }
    await limitRate(c, "ANALYTICS_EVENTS_LIMITER", `${projectId}:${clientIp(c)}`);
    const parsed = AnalyticsReport.safeParse(await c.req.json().catch(() => undefined));
    if (!parsed.success) throw validationError(parsed.error);
    const report = parsed.data;
    const day = new Date().toISOString().slice(0, 10);
    const device = deviceOf(c.req.header("user-agent"));
    const counted = await addReport(c.var.db, projectId, day, report, { regime: report.regime, language: report.language, device, variant: report.variant ?? "" });
    if (!counted) throw new ApiError(403, "analytics_off", "This project has turned counting off (PUT /admin/v1/projects/{project_id}/analytics/settings); nothing was counted.");
    return c.body(null, 204);
  },
);

const maxReportDays = 366;

/** The report's range: `to` defaults to today, `from` to 29 days before it; reversed or longer than a year is 400. */
function rangeOf(query: { from?: string; to?: string }) {
  const to = query.to ?? new Date().toISOString().slice(0, 10);
  const from = query.from ?? new Date(Date.parse(`${to}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
  const real = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) || 0).toISOString().startsWith(day);
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1;
  if (!real(from) || !real(to) || !(days >= 1 && days <= maxReportDays)) {
    throw new ApiError(400, "invalid_range", `\`from\` must be a real day on or before \`to\`, at most ${maxReportDays} days apart.`);
  }
  return { from, to };
}

const reportDescription =
  "Counts are of interactions, not people; a count between 1 and `minimumCell - 1` (9) is not shown, nor any rate " +
  "computed from one (docs/analytics.md#small-cells). Read in one D1 batch over the daily roll-ups.";

reportRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/",
    operationId: "getAnalyticsReport",
    tags: ["Analytics"],
    ...access.operator("projects:read"),
    summary: "Opt-in rates, the decision funnel and breakdowns of the banner",
    description:
      "Over `from`..`to` (UTC days): the funnel (banners shown, Accept all, Reject all, custom choices, dismissed, preferences " +
      "reopened, withdrawn) by day and in total, each purpose's opt-in rate by day with a 95% interval and the days its " +
      "text changed (`versions`), and breakdowns by regime, language, device class, banner variant and page (the 50 pages " +
      "with the most banners shown). " + reportDescription,
    request: { params: ProjectParams, query: AnalyticsQuery },
    responses: { 200: jsonResponse(AnalyticsAnswer, "The report."), ...problems },
  }),
  async (c) => {
    const { from, to } = rangeOf(c.req.valid("query"));
    return c.json(await readReport(c.var.db, c.req.valid("param").project_id, from, to), 200);
  },
);

reportRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/export.csv",
    operationId: "exportAnalyticsCsv",
    tags: ["Analytics"],
    ...access.operator("projects:read"),
    summary: "The report's daily counts as CSV",
    description:
      "`day,event,purpose_reference,count`: every day's interactions, then every day's granted and refused decisions per " +
      "purpose; a count not shown is an empty field. " + reportDescription,
    request: { params: ProjectParams, query: AnalyticsQuery },
    responses: {
      200: { description: "The CSV (RFC 4180).", content: { "text/csv": { schema: z.string() } } },
      ...problems,
    },
  }),
  async (c) => {
    const { from, to } = rangeOf(c.req.valid("query"));
    const { project_id: projectId } = c.req.valid("param");
    return c.body(reportCsv(await readReport(c.var.db, projectId, from, to)), 200, {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="analytics-${projectId}-${from}-${to}.csv"`,
    });
  },
);
