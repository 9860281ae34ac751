import { eq } from "drizzle-orm";
import { access } from "../auth/scopes";
import { getDb } from "../lib/db";
import { notFound } from "../lib/errors";
import { ProjectParams } from "../lib/params";
import { nextRevision } from "../lib/preconditions";
import { createRouter, defineRoute } from "../auth/router";
import { jsonBody, jsonResponse, problems } from "../lib/schemas";
import { now } from "../lib/time";
import { projects } from "../projects/table";
import { defaultGppSettings, GppSettingsSchema } from "./settings";

/** The project's GPP settings (docs/gpp.md#mspa), beside its Consent Mode settings and in the same shape. */
export const gppRoutes = createRouter();

const tags = ["GPP"];

gppRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/",
    operationId: "getGppSettings",
    tags,
    ...access.operator("projects:read"),
    summary: "Read the project's IAB GPP settings (MSPA)",
    request: { params: ProjectParams },
    responses: { 200: jsonResponse(GppSettingsSchema, "The settings (the defaults until set: not a covered transaction)."), ...problems },
  }),
  async (c) => {
    const [row] = await getDb(c.var.db).select({ gpp: projects.gpp }).from(projects).where(eq(projects.id, c.req.valid("param").project_id)).limit(1);
    if (!row) throw notFound("Project");
    return c.json(row.gpp ?? defaultGppSettings, 200);
  },
);

gppRoutes.openapi(
  defineRoute({
    method: "put",
    path: "/",
    operationId: "updateGppSettings",
    tags,
    ...access.operator("projects:write"),
    summary: "Replace the project's IAB GPP settings (MSPA)",
    description:
      "Whether the pages' transactions are MSPA Covered Transactions and in which mode: the widget writes them into " +
      "every GPP section it serves (`MspaCoveredTransaction`, `MspaOptOutOptionMode`, `MspaServiceProviderMode`).",
    request: { params: ProjectParams, body: jsonBody(GppSettingsSchema) },
    responses: { 200: jsonResponse(GppSettingsSchema, "The settings."), ...problems },
  }),
  async (c) => {
    const settings = c.req.valid("json");
    const [row] = await getDb(c.var.db)
      .update(projects)
      .set({ gpp: settings, updated: now(), revision: nextRevision(projects.revision) })
      .where(eq(projects.id, c.req.valid("param").project_id))
      .returning({ id: projects.id });
    if (!row) throw notFound("Project");
    return c.json(settings, 200);
  },
);
