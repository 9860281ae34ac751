import { access } from "../auth/scopes";
import { z } from "@hono/zod-openapi";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "../lib/db";
import { conflict, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { createRouter, defineRoute } from "../auth/router";
import { conflictProblem, jsonBody, jsonResponse, problems } from "../lib/schemas";
import { ProjectParams } from "../lib/params";
import { acceptedRevisions, createdResponse, IfMatch, nextRevision, notModified, preconditionProblem, refusal, revisionMatches, tagged, taggedResponse } from "../lib/preconditions";
import { now } from "../lib/time";
import { livePurpose, toDataGroup } from "./queries";
import { DataGroup, DataGroupInput } from "./schemas";
import { dataGroups, purposes } from "./table";
import { referenceTaken, tags } from "./route-parts";

export const dataGroupRoutes = createRouter();

const DataGroupParams = ProjectParams.extend({ data_group_id: z.string() });

/* Data groups */

dataGroupRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/",
    operationId: "createDataGroup",
    ...access.project("config:write"),
    tags,
    summary: "Create a data group",
    request: { params: ProjectParams, body: jsonBody(DataGroupInput) },
    responses: { 201: createdResponse(DataGroup, "The data group."), ...problems, ...conflictProblem },
  }),
  async (c) => {
    const stamp = now();
    const row = { id: newId("dg"), projectId: c.get("caller").projectId, ...c.req.valid("json"), created: stamp, updated: stamp, revision: 1 };
    await getDb(c.var.db).insert(dataGroups).values(row).catch(referenceTaken("data group"));
    tagged(c, row.revision);
    c.header("Location", `/privacy/v2/projects/${row.projectId}/configurations/data-groups/${row.id}`);
    return c.json(toDataGroup(row), 201);
  },
);

dataGroupRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/",
    operationId: "listDataGroups",
    ...access.project("config:read"),
    tags,
    summary: "List the project's data groups",
    description: "All of them, oldest first: a project's configuration is small, so this list is not paginated.",
    request: { params: ProjectParams },
    responses: { 200: jsonResponse(z.object({ items: z.array(DataGroup) }), "The data groups."), ...problems },
  }),
  async (c) => {
    const rows = await getDb(c.var.db)
      .select()
      .from(dataGroups)
      .where(eq(dataGroups.projectId, c.get("caller").projectId))
      .orderBy(dataGroups.id);
    return c.json({ items: rows.map(toDataGroup) }, 200);
  },
);

const dataGroupWhere = (projectId: string, id: string) => and(eq(dataGroups.projectId, projectId), eq(dataGroups.id, id));

async function findDataGroup(d1: D1Database, projectId: string, id: string) {
  const [row] = await getDb(d1).select().from(dataGroups).where(dataGroupWhere(projectId, id)).limit(1);
  return row;
}

dataGroupRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/{data_group_id}",
    operationId: "getDataGroup",
    ...access.project("config:read"),
    tags,
    summary: "Read a data group",
    request: { params: DataGroupParams },
    responses: { 200: taggedResponse(DataGroup, "The data group."), ...notModified, ...problems },
  }),
  async (c) => {
    const row = await findDataGroup(c.var.db, c.get("caller").projectId, c.req.valid("param").data_group_id);
    if (!row) throw notFound("Data group");
    return tagged(c, row.revision) ?? c.json(toDataGroup(row), 200);
  },
);

dataGroupRoutes.openapi(
  defineRoute({
    method: "put",
    path: "/{data_group_id}",
    operationId: "updateDataGroup",
    ...access.project("config:write"),
    tags,
    summary: "Replace a data group",
    description: "Purposes naming the data group show the new name and description at once (they name it by id).",
    request: { params: DataGroupParams, headers: IfMatch, body: jsonBody(DataGroupInput) },
    responses: { 200: taggedResponse(DataGroup, "The data group."), ...problems, ...conflictProblem, ...preconditionProblem },
  }),
  async (c) => {
    const { projectId } = c.get("caller");
    const id = c.req.valid("param").data_group_id;
    const accepted = acceptedRevisions(c);
    const [row] = await getDb(c.var.db)
      .update(dataGroups)
      .set({ ...c.req.valid("json"), updated: now(), revision: nextRevision(dataGroups.revision) })
      .where(and(dataGroupWhere(projectId, id), revisionMatches(dataGroups.revision, accepted)))
      .returning()
      .catch(referenceTaken("data group"));
    if (!row) throw await refusal(accepted, () => findDataGroup(c.var.db, projectId, id), "Data group");
    tagged(c, row.revision);
    return c.json(toDataGroup(row), 200);
  },
);

dataGroupRoutes.openapi(
  defineRoute({
    method: "delete",
    path: "/{data_group_id}",
    operationId: "deleteDataGroup",
    ...access.project("config:write"),
    tags,
    summary: "Delete a data group",
    description:
      "A data group that a purpose still uses is refused with 409 `data_group_in_use`: remove it from the purposes " +
      "first, where the editor decides whether that change needs new consent.",
    request: { params: DataGroupParams, headers: IfMatch },
    responses: { 204: { description: "Deleted." }, ...problems, ...conflictProblem, ...preconditionProblem },
  }),
  async (c) => {
    const { projectId } = c.get("caller");
    const id = c.req.valid("param").data_group_id;
    const db = getDb(c.var.db);
    const [user] = await db
      .select({ id: purposes.id })
      .from(purposes)
      .where(livePurpose(projectId, sql`EXISTS (SELECT 1 FROM json_each(${purposes.content}, '$.dataGroups') WHERE value = ${id})`))
      .limit(1);
    if (user) throw conflict("data_group_in_use", `Purpose ${user.id} still uses this data group.`);
    const accepted = acceptedRevisions(c);
    const deleted = await db
      .delete(dataGroups)
      .where(and(dataGroupWhere(projectId, id), revisionMatches(dataGroups.revision, accepted)))
      .returning({ id: dataGroups.id });
    if (deleted.length === 0) throw await refusal(accepted, () => findDataGroup(c.var.db, projectId, id), "Data group");
    return c.body(null, 204);
  },
);

