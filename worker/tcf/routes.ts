import { eq } from "drizzle-orm";
import { access } from "../auth/scopes";
import { createRouter, defineRoute } from "../auth/router";
import { getDb } from "../lib/db";
import { notFound } from "../lib/errors";
import { ProjectParams } from "../lib/params";
import { nextRevision } from "../lib/preconditions";
import { conflictProblem, jsonBody, jsonResponse, problems } from "../lib/schemas";
import { now } from "../lib/time";
import { projects } from "../projects/table";
import { newestVersion } from "./lists";
import { fetchListsNow } from "./refresh";
import { checkTcfSettings, defaultTcfSettings, TcfSettingsSchema } from "./settings";

/** The project's TCF settings (docs/tcf.md#a-projects-settings), mounted at `/admin/v1/projects/{project_id}/tcf`, in the shape of its GPP settings. */
export const tcfRoutes = createRouter();

const tags = ["TCF"];

tcfRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/",
    operationId: "getTcfSettings",
    tags,
    ...access.operator("projects:read"),
    summary: "Read the project's IAB TCF settings",
    request: { params: ProjectParams },
    responses: { 200: jsonResponse(TcfSettingsSchema, "The settings (the defaults until set: TCF off)."), ...problems },
  }),
  async (c) => {
    const [row] = await getDb(c.var.db).select({ tcf: projects.tcf }).from(projects).where(eq(projects.id, c.req.valid("param").project_id)).limit(1);
    if (!row) throw notFound("Project");
    return c.json(row.tcf ?? defaultTcfSettings, 200);
  },
);

tcfRoutes.openapi(
  defineRoute({
    method: "put",
    path: "/",
    operationId: "updateTcfSettings",
    tags,
    ...access.operator("projects:write"),
    summary: "Replace the project's IAB TCF settings",
    description:
      "Checked against the Global Vendor List and Google's ATP list the service hosts (docs/tcf.md#the-hosted-lists); a refused " +
      "change stores nothing. 400 `cmp_id_required` for TCF on with CMP id 0 outside local development; `unknown_vendors` " +
      "(`vendors`: the ids) for vendors not in the newest GVL or deleted from it; `unknown_purposes` (`purposes`) for purposes " +
      "outside it; `restriction_vendor_not_selected` for a restriction naming a vendor not selected; " +
      "`legitimate_interest_not_allowed` for legitimate interest on purposes 1, 3, 4, 5 or 6; `restriction_conflict` for two " +
      "restrictions of one vendor and purpose; `unknown_ac_providers` (`providers`) for ids not in the ATP list. TCF on " +
      "needs no list: the cron fetches the lists only where a project has TCF on, so a change turning it on (or naming " +
      "vendors or providers) while a list is missing starts fetching them at once. 409 `vendor_list_unavailable` or " +
      "`provider_list_unavailable` for vendors, purposes or providers while the list needed is still missing.",
    request: { params: ProjectParams, body: jsonBody(TcfSettingsSchema) },
    responses: { 200: jsonResponse(TcfSettingsSchema, "The settings."), ...conflictProblem, ...problems },
  }),
  async (c) => {
    const settings = c.req.valid("json");
    // TCF on or a list named before the cron has fetched the lists (it fetches only where a project has TCF on):
    // fetched now, so the vendors can be chosen a moment later (docs/tcf.md#the-hosted-lists).
    const wantsLists = settings.enabled || settings.vendors.length > 0 || settings.acProviders.length > 0;
    if (wantsLists && ((await newestVersion(c.env.DB, "gvl")) === undefined || (await newestVersion(c.env.DB, "atp")) === undefined)) {
      c.executionCtx.waitUntil(fetchListsNow(c.env));
    }
    await checkTcfSettings(c.env, settings);
    const [row] = await getDb(c.var.db)
      .update(projects)
      .set({ tcf: settings, updated: now(), revision: nextRevision(projects.revision) })
      .where(eq(projects.id, c.req.valid("param").project_id))
      .returning({ id: projects.id });
    if (!row) throw notFound("Project");
    return c.json(settings, 200);
  },
);
