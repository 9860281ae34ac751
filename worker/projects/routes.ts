import { access } from "../auth/scopes";
import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { and, eq, sql } from "drizzle-orm";
import { forgetClients } from "../auth/clients-cache";
import { clients } from "../auth/table";
import { events, webhooks } from "../events/table";
import { forgetSmsProject } from "../hub/registrations";
import { smsClients, smsMessages } from "../hub/table";
import { databaseNameOf, defaultDatabase } from "../lib/databases";
import { getDb } from "../lib/db";
import { notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { createRouter, defineRoute } from "../auth/router";
import { jsonBody, jsonResponse, problems } from "../lib/schemas";
import { ProjectParams } from "../lib/params";
import { acceptedRevisions, createdResponse, IfMatch, nextRevision, notModified, preconditionProblem, refusal, revisionMatches, tagged, taggedResponse } from "../lib/preconditions";
import { now } from "../lib/time";
import { findProject } from "./queries";
import { adoption, release } from "../accounts/projects";
import { visibleProjects } from "../auth/operators";
import { Project, ProjectInput, toProject } from "./schemas";
import { projects } from "./table";

/** The operator's projects, mounted at `/admin/v1/projects`. */
export const projectAdminRoutes = createRouter();

/** A project's own view of its metadata, mounted at the project (`/privacy/v2/projects/{project_id}`). */
export const projectRoutes = createRouter();


projectAdminRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/",
    operationId: "createProject",
    ...access.operator("projects:write"),
    tags: ["Admin"],
    summary: "Create a project",
    request: { body: jsonBody(ProjectInput) },
    responses: { 201: createdResponse(Project, "The project."), ...problems },
  }),
  async (c) => {
    const input = c.req.valid("json");
    const stamp = now();
    const row = {
      id: newId("prj"),
      name: input.name,
      controller: input.controller ?? null,
      policies: input.policies,
      jurisdiction: input.jurisdiction ?? null,
      defaultLanguage: input.defaultLanguage,
      created: stamp,
      updated: stamp,
      revision: 1,
    };
    // A new project lives in DB (the map names existing ids only), with the organizations: one batch, and the
    // operator's organization owns it (the admin token's: the first organization).
    const db = getDb(c.var.db);
    await db.batch([db.insert(projects).values(row), ...adoption(db, row.id, c.var.operator?.organizationId)]);
    tagged(c, row.revision);
    c.header("Location", `/admin/v1/projects/${row.id}`);
    return c.json(toProject(row), 201);
  },
);

projectAdminRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/",
    operationId: "listProjects",
    ...access.operator("projects:read"),
    tags: ["Admin"],
    summary: "List projects",
    responses: { 200: jsonResponse(z.object({ items: z.array(Project) }), "All projects."), ...problems },
  }),
  async (c) => {
    // Every database's projects (worker/lib/databases.ts), in id order as from one.
    const perDatabase = await Promise.all(c.var.databases.every().map((d1) => getDb(d1).select().from(projects).orderBy(projects.id)));
    const visible = await visibleProjects(c, c.var.operator);
    const rows = perDatabase
      .flat()
      .filter((row) => visible === "all" || visible.has(row.id))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return c.json({ items: rows.map(toProject) }, 200);
  },
);

projectAdminRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/{project_id}",
    operationId: "getProject",
    ...access.operator("projects:read"),
    tags: ["Admin"],
    summary: "Read a project",
    request: { params: ProjectParams },
    responses: { 200: taggedResponse(Project, "The project."), ...notModified, ...problems },
  }),
  async (c) => {
    const row = await findProject(c.var.db, c.req.valid("param").project_id);
    if (!row) throw notFound("Project");
    return tagged(c, row.revision) ?? c.json(toProject(row), 200);
  },
);

async function updateProject(c: Context<AppEnv>, projectId: string, input: z.infer<typeof ProjectInput>) {
  const accepted = acceptedRevisions(c);
  const [row] = await getDb(c.var.db)
    .update(projects)
    .set({
      name: input.name,
      controller: input.controller ?? null,
      policies: input.policies,
      jurisdiction: input.jurisdiction ?? null,
      defaultLanguage: input.defaultLanguage,
      updated: now(),
      revision: nextRevision(projects.revision),
    })
    .where(and(eq(projects.id, projectId), revisionMatches(projects.revision, accepted)))
    .returning();
  if (!row) throw await refusal(accepted, () => findProject(c.var.db, projectId), "Project");
  tagged(c, row.revision);
  return c.json(toProject(row), 200);
}

projectAdminRoutes.openapi(
  defineRoute({
    method: "put",
    path: "/{project_id}",
    operationId: "updateProject",
    ...access.operator("projects:write"),
    tags: ["Admin"],
    summary: "Replace a project's name and privacy metadata",
    request: { params: ProjectParams, headers: IfMatch, body: jsonBody(ProjectInput) },
    responses: { 200: taggedResponse(Project, "The project."), ...problems, ...preconditionProblem },
  }),
  async (c) => updateProject(c, c.req.valid("param").project_id, c.req.valid("json")),
);

projectAdminRoutes.openapi(
  defineRoute({
    method: "delete",
    path: "/{project_id}",
    operationId: "deleteProject",
    ...access.operator("projects:delete"),
    tags: ["Admin"],
    summary: "Delete a project and everything in it",
    description: "Clients, identities, requests, configuration, webhooks and events go in one atomic batch.",
    request: { params: ProjectParams, headers: IfMatch },
    responses: { 204: { description: "Deleted." }, ...problems, ...preconditionProblem },
  }),
  async (c) => {
    const { project_id: projectId } = c.req.valid("param");
    const db = getDb(c.var.db);
    const accepted = acceptedRevisions(c);
    // With If-Match every statement holds only while the project is at an accepted revision (checked in the batch).
    const current = accepted && sql`EXISTS (SELECT 1 FROM ${projects} WHERE ${projects.id} = ${projectId} AND ${revisionMatches(projects.revision, accepted)})`;
    const clientIds = await db.select({ id: clients.id }).from(clients).where(eq(clients.projectId, projectId));
    // The organization's hold on the project is in DB: in the same batch for a project there.
    const inDefault = databaseNameOf(c.env, projectId) === defaultDatabase;
    // Tables with a foreign key to the project (or to its identities) follow by ON DELETE CASCADE.
    const [, , , , deleted] = await db.batch([
      db.delete(events).where(and(eq(events.projectId, projectId), current)),
      db.delete(webhooks).where(and(eq(webhooks.projectId, projectId), current)),
      db.delete(smsMessages).where(and(eq(smsMessages.projectId, projectId), current)),
      db.delete(smsClients).where(and(eq(smsClients.projectId, projectId), current)),
      db.delete(projects).where(and(eq(projects.id, projectId), revisionMatches(projects.revision, accepted))).returning({ id: projects.id }),
      ...(inDefault ? release(db, projectId, current) : []),
    ]);
    if (deleted.length === 0) throw await refusal(accepted, () => findProject(c.var.db, projectId), "Project");
    await forgetClients(c.env, clientIds.map((r) => r.id));
    // The hub's rows and the organization's hold of a project in another database are in DB (for a project in DB the
    // batch took them).
    const main = c.var.databases.named(defaultDatabase);
    await forgetSmsProject(main, projectId);
    if (!inDefault) {
      const [roles, holding] = release(getDb(main), projectId);
      await getDb(main).batch([roles, holding]);
    }
    return c.body(null, 204);
  },
);

/* The project's own view of its metadata, for project tokens (spec: a project carries privacy metadata). */

projectRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/",
    operationId: "getPrivacyMetadata",
    ...access.project("config:read"),
    tags: ["Projects"],
    summary: "Read the project's privacy metadata",
    request: { params: ProjectParams },
    responses: { 200: taggedResponse(Project, "The project."), ...notModified, ...problems },
  }),
  async (c) => {
    const row = await findProject(c.var.db, c.req.valid("param").project_id);
    if (!row) throw notFound("Project");
    return tagged(c, row.revision) ?? c.json(toProject(row), 200);
  },
);

projectRoutes.openapi(
  defineRoute({
    method: "put",
    path: "/",
    operationId: "updatePrivacyMetadata",
    ...access.project("config:write"),
    tags: ["Projects"],
    summary: "Replace the project's privacy metadata",
    request: { params: ProjectParams, headers: IfMatch, body: jsonBody(ProjectInput) },
    responses: { 200: taggedResponse(Project, "The project."), ...problems, ...preconditionProblem },
  }),
  async (c) => updateProject(c, c.req.valid("param").project_id, c.req.valid("json")),
);
