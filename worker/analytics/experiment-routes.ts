import { z } from "@hono/zod-openapi";
import { and, desc, eq } from "drizzle-orm";
import { createRouter, defineRoute } from "../auth/router";
import { access } from "../auth/scopes";
import { getDb, isConstraintError } from "../lib/db";
import { conflict, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { ProjectParams } from "../lib/params";
import { createdResponse } from "../lib/preconditions";
import { jsonBody, jsonResponse, problems, Timestamp } from "../lib/schemas";
import { now } from "../lib/time";
import { projectExists } from "../projects/queries";
import { projects } from "../projects/table";
import { defaultAnalyticsSettings } from "./settings";
import { ExperimentInput, guardrailFailures, requireCompliant, VariantInput } from "./experiments";
import { ExperimentResults, readResults } from "./experiment-results";
import { bannerExperiments } from "./table";

/** Banner experiments, mounted at `/admin/v1/projects/{project_id}/experiments`. */
export const experimentRoutes = createRouter();

const tags = ["Analytics"];

const Experiment = z
  .object({
    experimentId: z.string(),
    name: z.string(),
    status: z.enum(["draft", "running", "stopped"]),
    variants: z.array(VariantInput),
    guardrailFailures: z
      .array(z.object({ path: z.string(), code: z.string(), message: z.string() }))
      .openapi({ description: "What keeps it from starting: each variant's failed guardrails (docs/analytics.md#fair-experiments)." }),
    created: Timestamp,
    started: Timestamp.nullable(),
    stopped: Timestamp.nullable(),
  })
  .openapi("BannerExperiment");

type Row = typeof bannerExperiments.$inferSelect;
const present = (row: Row) => ({
  experimentId: row.id,
  name: row.name,
  status: row.status,
  variants: row.variants,
  guardrailFailures: guardrailFailures(row.variants),
  created: row.created,
  started: row.started,
  stopped: row.stopped,
});

const ExperimentParams = ProjectParams.extend({ experiment_id: z.string() });

async function findExperiment(d1: D1Database, projectId: string, experimentId: string) {
  const [row] = await getDb(d1)
    .select()
    .from(bannerExperiments)
    .where(and(eq(bannerExperiments.projectId, projectId), eq(bannerExperiments.id, experimentId)))
    .limit(1);
  if (!row) throw notFound("Experiment");
  return row;
}

experimentRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/",
    operationId: "createBannerExperiment",
    tags,
    ...access.operator("projects:write"),
    summary: "Define a banner experiment (a draft)",
    description:
      "Two to five variants of the first layer's wording and layout. A draft may fail the guardrails (they are listed in " +
      "`guardrailFailures`); it cannot start until every variant passes them.",
    request: { params: ProjectParams, body: jsonBody(ExperimentInput) },
    responses: { 201: createdResponse(Experiment, "The draft.", false), ...problems },
  }),
  async (c) => {
    const { project_id: projectId } = c.req.valid("param");
    if (!(await projectExists(c.var.db, projectId))) throw notFound("Project");
    const input = c.req.valid("json");
    const row: Row = { id: newId("exp"), projectId, name: input.name, status: "draft", variants: input.variants, created: now(), started: null, stopped: null };
    await getDb(c.var.db).insert(bannerExperiments).values(row);
    c.header("Location", `/admin/v1/projects/${projectId}/experiments/${row.id}`);
    return c.json(present(row), 201);
  },
);

experimentRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/",
    operationId: "listBannerExperiments",
    tags,
    ...access.operator("projects:read"),
    summary: "The project's banner experiments, newest first",
    request: { params: ProjectParams },
    responses: { 200: jsonResponse(z.object({ items: z.array(Experiment) }), "The experiments."), ...problems },
  }),
  async (c) => {
    const { project_id: projectId } = c.req.valid("param");
    if (!(await projectExists(c.var.db, projectId))) throw notFound("Project");
    const rows = await getDb(c.var.db).select().from(bannerExperiments).where(eq(bannerExperiments.projectId, projectId)).orderBy(desc(bannerExperiments.id));
    return c.json({ items: rows.map(present) }, 200);
  },
);

experimentRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/{experiment_id}/start",
    operationId: "startBannerExperiment",
    tags,
    ...access.operator("projects:write"),
    summary: "Start a draft experiment",
    description:
      "Refused with 422 `variant_not_compliant` (each failed guardrail in `errors`) unless every variant offers Reject all " +
      "on the first layer, draws it exactly as Accept all and ticks no purpose; 409 `experiment_running` while another " +
      "experiment of the project runs; 409 `experiment_not_draft` for one already started; 409 `analytics_off` while the project " +
      "has counting turned off (`PUT …/analytics/settings`), since the experiment would have no results.",
    request: { params: ExperimentParams },
    responses: { 200: jsonResponse(Experiment, "Running."), ...problems },
  }),
  async (c) => {
    const { project_id: projectId, experiment_id: experimentId } = c.req.valid("param");
    const row = await findExperiment(c.var.db, projectId, experimentId);
    if (row.status !== "draft") throw conflict("experiment_not_draft", "Only a draft experiment can start.");
    requireCompliant(row.variants);
    const [project] = await getDb(c.var.db).select({ analytics: projects.analytics }).from(projects).where(eq(projects.id, projectId)).limit(1);
    if (!(project?.analytics ?? defaultAnalyticsSettings).enabled) {
      throw conflict("analytics_off", "This project has turned counting off, so an experiment would have no results; turn it on first.");
    }
    const started = now();
    await getDb(c.var.db)
      .update(bannerExperiments)
      .set({ status: "running", started })
      .where(eq(bannerExperiments.id, experimentId))
      .catch((error: unknown) => {
        if (isConstraintError(error, "UNIQUE")) throw conflict("experiment_running", "Another experiment of this project is running; stop it first.");
        throw error;
      });
    return c.json(present({ ...row, status: "running", started }), 200);
  },
);

experimentRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/{experiment_id}/stop",
    operationId: "stopBannerExperiment",
    tags,
    ...access.operator("projects:write"),
    summary: "Stop a running experiment",
    request: { params: ExperimentParams },
    responses: { 200: jsonResponse(Experiment, "Stopped."), ...problems },
  }),
  async (c) => {
    const { project_id: projectId, experiment_id: experimentId } = c.req.valid("param");
    const row = await findExperiment(c.var.db, projectId, experimentId);
    if (row.status !== "running") throw conflict("experiment_not_running", "Only a running experiment can stop.");
    const stopped = now();
    await getDb(c.var.db).update(bannerExperiments).set({ status: "stopped", stopped }).where(eq(bannerExperiments.id, experimentId));
    return c.json(present({ ...row, status: "stopped", stopped }), 200);
  },
);

experimentRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/{experiment_id}/results",
    operationId: "getBannerExperimentResults",
    tags,
    ...access.operator("projects:read"),
    summary: "Each variant's rates with 95% intervals, and whether its difference from the control is real",
    description:
      "From the day the experiment started to the day it stopped (or today). Per variant: banners shown, the shares ending " +
      "in Accept all, Reject all and a decision, each purpose's opt-in rate, all with 95% Wilson intervals; against the " +
      "first variant (the control), a two-sided two-proportion z-test of each share, `real` when p < 0.05 with enough " +
      "counts. Counts under 10 are not shown.",
    request: { params: ExperimentParams },
    responses: { 200: jsonResponse(ExperimentResults, "The results."), ...problems },
  }),
  async (c) => {
    const { project_id: projectId, experiment_id: experimentId } = c.req.valid("param");
    return c.json(await readResults(c.var.db, await findExperiment(c.var.db, projectId, experimentId)), 200);
  },
);
