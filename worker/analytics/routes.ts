import { z } from "@hono/zod-openapi";
import { clientForOrigin } from "../auth/browser-origins";
import { createRouter, defineRoute } from "../auth/router";
import { access } from "../auth/scopes";
import { bodyLimitExtension } from "../lib/body";
import { ApiError, validationError } from "../lib/errors";
import { problems } from "../lib/schemas";
import { clientIp, limitRate } from "../limits/rate-limits";
import { addReport, deviceOf } from "./counting";
import { AnalyticsReport } from "./schemas";

/** The widget's counting, mounted at `/browser/v1/projects/{project_id}`. */
export const countingRoutes = createRouter();

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
      "400 and dropped.",
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
    await addReport(c.var.db, projectId, day, report, { regime: report.regime, language: report.language, device, variant: report.variant ?? "" });
    return c.body(null, 204);
  },
);
