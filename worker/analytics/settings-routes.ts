import { eq } from "drizzle-orm";
import { access } from "../auth/scopes";
import { createRouter, defineRoute } from "../auth/router";
import { getDb } from "../lib/db";
import { notFound } from "../lib/errors";
import { ProjectParams } from "../lib/params";
import { nextRevision } from "../lib/preconditions";
import { jsonBody, jsonResponse, problems } from "../lib/schemas";
import { now } from "../lib/time";
import { projects } from "../projects/table";
import { AnalyticsSettingsSchema, defaultAnalyticsSettings } from "./settings";

/** The project's counting switch, mounted at `/admin/v1/projects/{project_id}/analytics/settings`. */
export const analyticsSettingsRoutes = createRouter();

const tags = ["Analytics"];

analyticsSettingsRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/",
    operationId: "getAnalyticsSettings",
    tags,
    ...access.operator("projects:read"),
    summary: "Read whether the project counts its banner's interactions",
    request: { params: ProjectParams },
    responses: { 200: jsonResponse(AnalyticsSettingsSchema, "The settings (the defaults until set: counting on)."), ...problems },
  }),
  async (c) => {
    const [row] = await getDb(c.var.db)
      .select({ analytics: projects.analytics })
      .from(projects)
      .where(eq(projects.id, c.req.valid("param").project_id))
      .limit(1);
    if (!row) throw notFound("Project");
    return c.json(row.analytics ?? defaultAnalyticsSettings, 200);
  },
);

analyticsSettingsRoutes.openapi(
  defineRoute({
    method: "put",
    path: "/",
    operationId: "updateAnalyticsSettings",
    tags,
    // What the widget loads on the project's pages, as the configuration is: editors change it too.
    ...access.operator("config:write"),
    summary: "Turn counting the banner's interactions on or off",
    description:
      "On by default: the counts hold no identifier and need no consent (docs/analytics.md#why-counting-needs-no-consent). Off, " +
      "for an operator whose regulator reads ePrivacy Art. 5(3) widely: the widget loads no counting code on the project's pages " +
      "and the counting endpoint refuses the project's beacons (403 `analytics_off`). Counts already made are kept.",
    request: { params: ProjectParams, body: jsonBody(AnalyticsSettingsSchema) },
    responses: { 200: jsonResponse(AnalyticsSettingsSchema, "The settings."), ...problems },
  }),
  async (c) => {
    const settings = c.req.valid("json");
    const [row] = await getDb(c.var.db)
      .update(projects)
      .set({ analytics: settings, updated: now(), revision: nextRevision(projects.revision) })
      .where(eq(projects.id, c.req.valid("param").project_id))
      .returning({ id: projects.id });
    if (!row) throw notFound("Project");
    return c.json(settings, 200);
  },
);
