import { eq } from "drizzle-orm";
import { access } from "../auth/scopes";
import { getDb } from "../lib/db";
import { notFound } from "../lib/errors";
import { createRouter, defineRoute } from "../auth/router";
import { jsonBody, jsonResponse, problems } from "../lib/schemas";
import { ProjectParams } from "../lib/params";
import { nextRevision } from "../lib/preconditions";
import { now } from "../lib/time";
import { projects } from "../projects/table";
import { ConsentModeSettingsSchema, defaultConsentModeSettings } from "./settings";

export const consentModeRoutes = createRouter();

const tags = ["Consent Mode"];

consentModeRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/",
    operationId: "getConsentModeSettings",
    tags,
    ...access.operator("projects:read"),
    summary: "Read the project's Google Consent Mode v2 settings",
    request: { params: ProjectParams },
    responses: { 200: jsonResponse(ConsentModeSettingsSchema, "The settings (the defaults until set: off)."), ...problems },
  }),
  async (c) => {
    const [row] = await getDb(c.var.db)
      .select({ consentMode: projects.consentMode })
      .from(projects)
      .where(eq(projects.id, c.req.valid("param").project_id))
      .limit(1);
    if (!row) throw notFound("Project");
    return c.json(row.consentMode ?? defaultConsentModeSettings, 200);
  },
);

consentModeRoutes.openapi(
  defineRoute({
    method: "put",
    path: "/",
    operationId: "updateConsentModeSettings",
    tags,
    ...access.operator("projects:write"),
    summary: "Replace the project's Google Consent Mode v2 settings",
    description:
      "With `enabled`, the widget sets gtag `consent default` (region-scoped from the jurisdiction rules, with " +
      "`wait_for_update`, `url_passthrough`, `ads_data_redaction`) before any gated tag and an `update` on every " +
      "decision. Which consent types a purpose stands for is the purpose's `consentMode` field.",
    request: { params: ProjectParams, body: jsonBody(ConsentModeSettingsSchema) },
    responses: { 200: jsonResponse(ConsentModeSettingsSchema, "The settings."), ...problems },
  }),
  async (c) => {
    const settings = c.req.valid("json");
    const [row] = await getDb(c.var.db)
      .update(projects)
      .set({ consentMode: settings, updated: now(), revision: nextRevision(projects.revision) })
      .where(eq(projects.id, c.req.valid("param").project_id))
      .returning({ id: projects.id });
    if (!row) throw notFound("Project");
    return c.json(settings, 200);
  },
);
