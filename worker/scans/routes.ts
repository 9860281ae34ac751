import { z } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { webClientForOrigin } from "../auth/browser-origins";
import { access } from "../auth/scopes";
import { committerOf } from "../events/commit";
import { loopbackAllowed, webhookUrlProblem } from "../../shared/ssrf";
import { bodyLimitExtension } from "../lib/body";
import { getDb } from "../lib/db";
import { badRequest, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { ProjectParams } from "../lib/params";
import { createRouter, defineRoute } from "../auth/router";
import { jsonBody, jsonResponse, problem, problems } from "../lib/schemas";
import { now } from "../lib/time";
import { projects } from "../projects/table";
import { browserUnavailable } from "./scanner";
import { completeScan, diffOf, essentialMarksOf, findScan, listScans } from "./queries";
import { scanPassHeader } from "../../shared/scans/pass";
import { issueScanPass } from "./pass";
import { EssentialMark, EssentialMarkInput, EssentialMarkList, EssentialMarkName, originOf, Scan, ScanInput, ScanList, ScanListQuery, ScanPass, ScanSettings, ScanWithReport, toScan, UploadedScan } from "./schemas";
import { removeScanVisitors } from "./visitors";
import { defaultScanSchedule, scanEssentials, scans, type ScanTrigger } from "./table";

/** A project's site scans, mounted at the project (`/privacy/v2/projects/{project_id}`). */
export const scanRoutes = createRouter();

const tags = ["Scans"];

/**
 * A report's size grows with the site (pages, and every cookie, key and host with the pages it was seen on), and
 * it is stored as one D1 value, which holds at most 2,000,000 bytes: the body may be that large less room for the
 * wrapper, rather than the API's usual 1 MB.
 */
export const maxReportBodyBytes = 1_900_000;

const ScanParams = ProjectParams.extend({ scan_id: z.string() });

scanRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/scans",
    operationId: "createScan",
    tags,
    ...access.project("scans:write"),
    [bodyLimitExtension]: maxReportBodyBytes,
    summary: "Store a scan report, or start a scan of a registered origin",
    description:
      "`{report}` stores a report made by `npm run scan` (201, `completed`). `{origin}` queues a scan the Worker " +
      "runs through Browser Rendering (202, `queued`; the cron runs it within a minute): the origin must be listed " +
      "in `allowedOrigins` of one of the project's web clients (400 `origin_not_registered`) and be a public " +
      "https address (400 `origin_not_allowed`); a deployment without Browser Rendering answers 503 " +
      "`browser_unavailable` with the `command` that scans from your machine instead. Bodies up to 1,900,000 bytes. " +
      "A completed scan writes the `scan.completed` event. With `passId`, the identities the scan's visits made under that " +
      "pass are deleted (each with its `identity.deleted` event) and counted in `visitorsRemoved`.",
    request: { params: ProjectParams, body: jsonBody(ScanInput) },
    responses: {
      201: jsonResponse(UploadedScan, "The stored report's scan."),
      202: jsonResponse(Scan, "The queued scan."),
      ...problems,
      413: problem("`payload_too_large`: a body larger than 1,900,000 bytes; `report_too_large`: a report taking more than 1,950,000 bytes as stored (numbers written out), with `storedBytes` and `limitBytes`."),
      503: problem("`browser_unavailable`: no Browser Rendering on this deployment; the problem's `command` scans from your machine."),
    },
  }),
  async (c) => {
    const { project_id: projectId } = c.req.valid("param");
    const input = c.req.valid("json");
    // A portal session has no caller: the operator's button.
    const trigger: ScanTrigger = c.var.caller ? "api" : "portal";
    if (input.report) {
      const scan = { id: newId("scn"), projectId, origin: originOf(input.report.origin)!, trigger, created: now(), started: null };
      const committer = committerOf(c);
      const { completed, counts } = (await completeScan(committer, scan, input.report, "insert"))!;
      const visitorsRemoved = input.passId ? await removeScanVisitors(committer, projectId, input.passId) : 0;
      return c.json({ ...toScan({ ...scan, status: "completed", problem: null, completed, counts }), visitorsRemoved }, 201);
    }
    const origin = originOf(input.origin!)!;
    const refused = webhookUrlProblem(origin, loopbackAllowed(c.env));
    if (refused) throw badRequest("origin_not_allowed", `The Worker scans public https sites only: ${refused}`);
    if (!(await webClientForOrigin(c.var.db, projectId, origin))) {
      throw badRequest("origin_not_registered", `${origin} is not listed in allowedOrigins of any of the project's web clients.`);
    }
    if (!c.env.SCANNER) throw browserUnavailable(origin, projectId);
    const row = { id: newId("scn"), projectId, origin, trigger, status: "queued" as const, created: now() };
    await getDb(c.var.db).insert(scans).values(row);
    return c.json(toScan({ ...row, problem: null, started: null, completed: null, counts: null }), 202);
  },
);

scanRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/scans",
    operationId: "listScans",
    tags,
    ...access.project("scans:read"),
    summary: "List the project's scans, newest first (counts, not reports)",
    request: { params: ProjectParams, query: ScanListQuery },
    responses: { 200: jsonResponse(ScanList, "A page of scans."), ...problems },
  }),
  async (c) => {
    const { project_id: projectId } = c.req.valid("param");
    const { limit, before } = c.req.valid("query");
    const rows = await listScans(c.var.db, projectId, limit + 1, before);
    const items = rows.slice(0, limit).map(toScan);
    return c.json({ items, next: rows.length > limit ? items[items.length - 1].scanId : null }, 200);
  },
);

scanRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/scans/{scan_id}",
    operationId: "getScan",
    tags,
    ...access.project("scans:read"),
    summary: "Read a scan: its report and what changed since the previous scan of the origin",
    request: { params: ScanParams },
    responses: { 200: jsonResponse(ScanWithReport, "The scan."), ...problems },
  }),
  async (c) => {
    const { project_id: projectId, scan_id: scanId } = c.req.valid("param");
    const row = await findScan(c.var.db, projectId, scanId);
    if (!row) throw notFound("Scan");
    const { report } = row;
    if (!report) return c.json(toScan(row), 200);
    return c.json({ ...toScan(row), report, diff: await diffOf(c.var.db, { ...row, report }) }, 200);
  },
);

scanRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/scan-schedule",
    operationId: "getScanSchedule",
    tags,
    ...access.project("scans:read"),
    summary: "Read how often the project's registered origins are scanned",
    request: { params: ProjectParams },
    responses: { 200: jsonResponse(ScanSettings, "The schedule."), ...problems },
  }),
  async (c) => {
    const [row] = await getDb(c.var.db)
      .select({ schedule: projects.scanSchedule })
      .from(projects)
      .where(eq(projects.id, c.req.valid("param").project_id))
      .limit(1);
    if (!row) throw notFound("Project");
    return c.json({ schedule: row.schedule ?? defaultScanSchedule }, 200);
  },
);

scanRoutes.openapi(
  defineRoute({
    method: "put",
    path: "/scan-schedule",
    operationId: "updateScanSchedule",
    tags,
    ...access.project("scans:write"),
    summary: "Set how often the project's registered origins are scanned",
    description: "The cron queues a scan of each origin the project's web clients list once the last one is older than the schedule says; only on deployments with Browser Rendering.",
    request: { params: ProjectParams, body: jsonBody(ScanSettings) },
    responses: { 200: jsonResponse(ScanSettings, "The schedule."), ...problems },
  }),
  async (c) => {
    const { schedule } = c.req.valid("json");
    const [row] = await getDb(c.var.db)
      .update(projects)
      .set({ scanSchedule: schedule })
      .where(eq(projects.id, c.req.valid("param").project_id))
      .returning({ id: projects.id });
    if (!row) throw notFound("Project");
    return c.json({ schedule }, 200);
  },
);

scanRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/scan-passes",
    operationId: "createScanPass",
    tags,
    ...access.project("scans:write"),
    summary: "Get a pass for a scan of a site that runs Assent with this project",
    description:
      `A scan's browser adds the pass as \`${scanPassHeader}\` to its requests to this service (never to the page). ` +
      "Visitors that carry it are the project's own scanner: the per-address visitor limit does not apply to them, and each " +
      "identity a first visit makes is marked with the pass, so uploading the report with its `passId` deletes exactly those. " +
      "`npm run scan -- <url> --project <id>` does all of this; the Worker's own scans too. A pass lives one hour.",
    request: { params: ProjectParams },
    responses: { 201: jsonResponse(ScanPass, "The pass."), ...problems },
  }),
  async (c) => {
    const { passId, pass, expiresIn } = await issueScanPass(c.env, c.req.valid("param").project_id);
    return c.json({ passId, pass, header: scanPassHeader, expiresIn }, 201);
  },
);

const EssentialParams = ProjectParams.extend({ name: EssentialMarkName });

scanRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/scan-essentials",
    operationId: "listScanEssentials",
    tags,
    ...access.project("scans:read"),
    summary: "List the cookies and storage keys the project marked essential",
    request: { params: ProjectParams },
    responses: { 200: jsonResponse(EssentialMarkList, "The marks, by name."), ...problems },
  }),
  async (c) => c.json({ items: await essentialMarksOf(c.var.db, c.req.valid("param").project_id) }, 200),
);

scanRoutes.openapi(
  defineRoute({
    method: "put",
    path: "/scan-essentials/{name}",
    operationId: "markScanEssential",
    tags,
    ...access.project("scans:write"),
    summary: "Mark a cookie or storage key essential, with why",
    description:
      "Every scan report the project stores afterwards (uploaded by `npm run scan -- … --project`, or run by the Worker) shows items of that " +
      "name as `necessary`, with `source` `marked essential by the project: <reason>`, and no violation names them. A trailing `*` covers every " +
      "name it begins. Stored reports are not rewritten. Marking again replaces the reason.",
    request: { params: EssentialParams, body: jsonBody(EssentialMarkInput) },
    responses: { 200: jsonResponse(EssentialMark, "The mark."), ...problems },
  }),
  async (c) => {
    const { project_id: projectId, name } = c.req.valid("param");
    const { reason } = c.req.valid("json");
    const mark = { projectId, name, reason, created: now() };
    const [row] = await getDb(c.var.db)
      .insert(scanEssentials)
      .values(mark)
      .onConflictDoUpdate({ target: [scanEssentials.projectId, scanEssentials.name], set: { reason } })
      .returning({ name: scanEssentials.name, reason: scanEssentials.reason, created: scanEssentials.created });
    return c.json(row, 200);
  },
);

scanRoutes.openapi(
  defineRoute({
    method: "delete",
    path: "/scan-essentials/{name}",
    operationId: "unmarkScanEssential",
    tags,
    ...access.project("scans:write"),
    summary: "Take back an essential mark",
    request: { params: EssentialParams },
    responses: { 204: { description: "Unmarked." }, ...problems },
  }),
  async (c) => {
    const { project_id: projectId, name } = c.req.valid("param");
    const [row] = await getDb(c.var.db)
      .delete(scanEssentials)
      .where(and(eq(scanEssentials.projectId, projectId), eq(scanEssentials.name, name)))
      .returning({ name: scanEssentials.name });
    if (!row) throw notFound("Essential mark");
    return c.body(null, 204);
  },
);
