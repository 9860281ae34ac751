import { access } from "../auth/scopes";
import { createRoute, z } from "@hono/zod-openapi";
import { and, eq, sql } from "drizzle-orm";
import { atomically, getDb, isConstraintError } from "../lib/db";
import { conflict, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { conflictProblem, createRouter, jsonBody, jsonResponse, Problem, problems } from "../lib/router";
import { now } from "../lib/time";
import { projects } from "../projects/table";
import { cachedConfiguration } from "./document";

import { assertPurposeReferences, livePurpose, toDataGroup, toPurpose, toPurposeVersion } from "./queries";
import { Configuration, DataGroup, DataGroupInput, Purpose, PurposeInput, PurposeUpdate, PurposeVersion } from "./schemas";
import { dataGroups, purposes, purposeVersions, type PurposeContent } from "./table";

export const configurationRoutes = createRouter();

const tags = ["Configuration"];
const root = "/privacy/v2/projects/{project_id}/configurations";
const ProjectParams = z.object({ project_id: z.string() });
const DataGroupParams = ProjectParams.extend({ data_group_id: z.string() });
const PurposeParams = ProjectParams.extend({ purpose_id: z.string() });
const VersionParams = PurposeParams.extend({ version: z.string() });

export const unknownReferenceProblem = {
  422: {
    description: "The body names an id (identity, purpose, data group, party) that does not exist in this project.",
    content: { "application/problem+json": { schema: Problem } },
  },
} as const;

const referenceTaken = (what: string) => (error: unknown): never => {
  if (isConstraintError(error, "UNIQUE")) throw conflict("reference_id_taken", `Another ${what} of this project has this referenceId.`);
  throw error;
};

/* Data groups */

configurationRoutes.openapi(
  createRoute({
    method: "post",
    path: `${root}/data-groups`,
    ...access.project("config:write"),
    tags,
    summary: "Create a data group",
    request: { params: ProjectParams, body: jsonBody(DataGroupInput) },
    responses: { 201: jsonResponse(DataGroup, "The data group."), ...problems, ...conflictProblem },
  }),
  async (c) => {
    const stamp = now();
    const row = { id: newId("dg"), projectId: c.get("caller").projectId, ...c.req.valid("json"), created: stamp, updated: stamp };
    await getDb(c.env.DB).insert(dataGroups).values(row).catch(referenceTaken("data group"));
    return c.json(toDataGroup(row), 201);
  },
);

configurationRoutes.openapi(
  createRoute({
    method: "get",
    path: `${root}/data-groups`,
    ...access.project("config:read"),
    tags,
    summary: "List the project's data groups",
    description: "All of them, oldest first: a project's configuration is small, so this list is not paginated.",
    request: { params: ProjectParams },
    responses: { 200: jsonResponse(z.object({ items: z.array(DataGroup) }), "The data groups."), ...problems },
  }),
  async (c) => {
    const rows = await getDb(c.env.DB)
      .select()
      .from(dataGroups)
      .where(eq(dataGroups.projectId, c.get("caller").projectId))
      .orderBy(dataGroups.id);
    return c.json({ items: rows.map(toDataGroup) }, 200);
  },
);

const dataGroupWhere = (projectId: string, id: string) => and(eq(dataGroups.projectId, projectId), eq(dataGroups.id, id));

configurationRoutes.openapi(
  createRoute({
    method: "get",
    path: `${root}/data-groups/{data_group_id}`,
    ...access.project("config:read"),
    tags,
    summary: "Read a data group",
    request: { params: DataGroupParams },
    responses: { 200: jsonResponse(DataGroup, "The data group."), ...problems },
  }),
  async (c) => {
    const [row] = await getDb(c.env.DB)
      .select()
      .from(dataGroups)
      .where(dataGroupWhere(c.get("caller").projectId, c.req.valid("param").data_group_id))
      .limit(1);
    if (!row) throw notFound("Data group");
    return c.json(toDataGroup(row), 200);
  },
);

configurationRoutes.openapi(
  createRoute({
    method: "put",
    path: `${root}/data-groups/{data_group_id}`,
    ...access.project("config:write"),
    tags,
    summary: "Replace a data group",
    description: "Purposes naming the data group show the new name and description at once (they name it by id).",
    request: { params: DataGroupParams, body: jsonBody(DataGroupInput) },
    responses: { 200: jsonResponse(DataGroup, "The data group."), ...problems, ...conflictProblem },
  }),
  async (c) => {
    const [row] = await getDb(c.env.DB)
      .update(dataGroups)
      .set({ ...c.req.valid("json"), updated: now() })
      .where(dataGroupWhere(c.get("caller").projectId, c.req.valid("param").data_group_id))
      .returning()
      .catch(referenceTaken("data group"));
    if (!row) throw notFound("Data group");
    return c.json(toDataGroup(row), 200);
  },
);

configurationRoutes.openapi(
  createRoute({
    method: "delete",
    path: `${root}/data-groups/{data_group_id}`,
    ...access.project("config:write"),
    tags,
    summary: "Delete a data group",
    description:
      "A data group that a purpose still uses is refused with 409 `data_group_in_use`: remove it from the purposes " +
      "first, where the editor decides whether that change needs new consent.",
    request: { params: DataGroupParams },
    responses: { 204: { description: "Deleted." }, ...problems, ...conflictProblem },
  }),
  async (c) => {
    const { projectId } = c.get("caller");
    const id = c.req.valid("param").data_group_id;
    const db = getDb(c.env.DB);
    const [user] = await db
      .select({ id: purposes.id })
      .from(purposes)
      .where(livePurpose(projectId, sql`EXISTS (SELECT 1 FROM json_each(${purposes.content}, '$.dataGroups') WHERE value = ${id})`))
      .limit(1);
    if (user) throw conflict("data_group_in_use", `Purpose ${user.id} still uses this data group.`);
    const deleted = await db.delete(dataGroups).where(dataGroupWhere(projectId, id)).returning({ id: dataGroups.id });
    if (deleted.length === 0) throw notFound("Data group");
    return c.body(null, 204);
  },
);

/* Purposes */

const contentOf = ({ referenceId, name, description, legalGround, dataGroups, processors, recipients, controllers, consentMode }: z.infer<typeof PurposeInput>): PurposeContent => ({
  referenceId,
  name,
  description,
  legalGround,
  dataGroups,
  processors,
  recipients,
  controllers,
  consentMode,
});

configurationRoutes.openapi(
  createRoute({
    method: "post",
    path: `${root}/purposes`,
    ...access.project("config:write"),
    tags,
    summary: "Create a purpose",
    description:
      "Starts at version \"1\". At least one controller is required; a data group or party listed twice is refused " +
      "(400); every id must name a data group or party of this project (422 `unknown_reference`).",
    request: { params: ProjectParams, body: jsonBody(PurposeInput) },
    responses: { 201: jsonResponse(Purpose, "The purpose."), ...problems, ...conflictProblem, ...unknownReferenceProblem },
  }),
  async (c) => {
    const { projectId } = c.get("caller");
    const content = contentOf(c.req.valid("json"));
    const db = getDb(c.env.DB);
    await assertPurposeReferences(db, projectId, content);
    const stamp = now();
    const row = {
      id: newId("pur"),
      projectId,
      referenceId: content.referenceId,
      version: "1",
      content,
      created: stamp,
      updated: stamp,
      deleted: null,
    };
    await db
      .batch([
        db.insert(purposes).values(row),
        db.insert(purposeVersions).values({ purposeId: row.id, version: "1", content, created: stamp, updated: stamp }),
      ])
      .catch(referenceTaken("purpose"));
    return c.json(toPurpose(row), 201);
  },
);

configurationRoutes.openapi(
  createRoute({
    method: "get",
    path: `${root}/purposes`,
    ...access.project("config:read"),
    tags,
    summary: "List the project's purposes",
    description: "All live purposes at their current version, oldest first (not paginated: a configuration is small).",
    request: { params: ProjectParams },
    responses: { 200: jsonResponse(z.object({ items: z.array(Purpose) }), "The purposes."), ...problems },
  }),
  async (c) => {
    const rows = await getDb(c.env.DB).select().from(purposes).where(livePurpose(c.get("caller").projectId)).orderBy(purposes.id);
    return c.json({ items: rows.map(toPurpose) }, 200);
  },
);

async function findPurpose(d1: D1Database, projectId: string, purposeId: string) {
  const [row] = await getDb(d1).select().from(purposes).where(livePurpose(projectId, eq(purposes.id, purposeId))).limit(1);
  if (!row) throw notFound("Purpose");
  return row;
}

configurationRoutes.openapi(
  createRoute({
    method: "get",
    path: `${root}/purposes/{purpose_id}`,
    ...access.project("config:read"),
    tags,
    summary: "Read a purpose",
    request: { params: PurposeParams },
    responses: { 200: jsonResponse(Purpose, "The purpose at its current version."), ...problems },
  }),
  async (c) => c.json(toPurpose(await findPurpose(c.env.DB, c.get("caller").projectId, c.req.valid("param").purpose_id)), 200),
);

configurationRoutes.openapi(
  createRoute({
    method: "put",
    path: `${root}/purposes/{purpose_id}`,
    ...access.project("config:write"),
    tags,
    summary: "Replace a purpose; the editor says whether the change requires new consent",
    description:
      "`requireNewConsent: true` makes version n+1 and keeps version n as it was; `false` edits the current " +
      "version in place (for corrections that do not change what subjects agree to). Data groups and parties " +
      "removed here drop out of every identity's permission state at once. Two concurrent edits of one purpose: " +
      "one wins, the other gets 409 `concurrent_update`.",
    request: { params: PurposeParams, body: jsonBody(PurposeUpdate) },
    responses: { 200: jsonResponse(Purpose, "The purpose."), ...problems, ...conflictProblem, ...unknownReferenceProblem },
  }),
  async (c) => {
    const { projectId } = c.get("caller");
    const { requireNewConsent, ...input } = c.req.valid("json");
    const content = contentOf(input);
    const db = getDb(c.env.DB);
    const current = await findPurpose(c.env.DB, projectId, c.req.valid("param").purpose_id);
    await assertPurposeReferences(db, projectId, content);
    const stamp = now();
    const version = requireNewConsent ? String(Number(current.version) + 1) : current.version;
    // Guarded by the version read above, so a concurrent edit cannot be silently overwritten.
    const update = db
      .update(purposes)
      .set({ referenceId: content.referenceId, version, content, updated: stamp })
      .where(livePurpose(projectId, eq(purposes.id, current.id), eq(purposes.version, current.version)))
      .returning({ id: purposes.id });
    // Both statements only take effect if the guarded update above did (same purpose, version and stamp).
    const applied = sql`EXISTS (SELECT 1 FROM ${purposes} WHERE ${purposes.id} = ${current.id} AND ${purposes.version} = ${version} AND ${purposes.updated} = ${stamp})`;
    const keepVersion = requireNewConsent
      ? sql`INSERT INTO ${purposeVersions} (purpose_id, version, content, created, updated)
          SELECT ${current.id}, ${version}, ${JSON.stringify(content)}, ${stamp}, ${stamp} WHERE ${applied}`
      : db
          .update(purposeVersions)
          .set({ content, updated: stamp })
          .where(and(eq(purposeVersions.purposeId, current.id), eq(purposeVersions.version, version), applied));
    const [updated] = await atomically(c.env.DB, [update, keepVersion]).catch(referenceTaken("purpose"));
    if (updated.results.length === 0) throw conflict("concurrent_update", "The purpose was changed meanwhile; read it and try again.");
    return c.json(toPurpose({ ...current, referenceId: content.referenceId, version, content, updated: stamp }), 200);
  },
);

configurationRoutes.openapi(
  createRoute({
    method: "delete",
    path: `${root}/purposes/{purpose_id}`,
    ...access.project("config:write"),
    tags,
    summary: "Delete a purpose",
    description:
      "The purpose leaves the configuration and every permission state at once. Its versions stay readable under " +
      "`…/versions` and requests that named it keep their payload: proof of what was agreed to outlives the purpose. " +
      "Its referenceId becomes free for a new purpose.",
    request: { params: PurposeParams },
    responses: { 204: { description: "Deleted." }, ...problems },
  }),
  async (c) => {
    const { projectId } = c.get("caller");
    const current = await findPurpose(c.env.DB, projectId, c.req.valid("param").purpose_id);
    const stamp = now();
    // The live row releases its data groups and parties (so they can be deleted); each version keeps its content.
    const released: PurposeContent = { ...current.content, dataGroups: [], processors: [], recipients: [], controllers: [] };
    const deleted = await getDb(c.env.DB)
      .update(purposes)
      .set({ deleted: stamp, updated: stamp, content: released })
      .where(livePurpose(projectId, eq(purposes.id, current.id)))
      .returning({ id: purposes.id });
    if (deleted.length === 0) throw notFound("Purpose");
    return c.body(null, 204);
  },
);

/** Versions are read by purpose id within the project, deleted purposes included (they are the proof). */
async function purposeProject(d1: D1Database, projectId: string, purposeId: string) {
  const [row] = await getDb(d1)
    .select({ id: purposes.id })
    .from(purposes)
    .where(and(eq(purposes.projectId, projectId), eq(purposes.id, purposeId)))
    .limit(1);
  if (!row) throw notFound("Purpose");
}

configurationRoutes.openapi(
  createRoute({
    method: "get",
    path: `${root}/purposes/{purpose_id}/versions`,
    ...access.project("config:read"),
    tags,
    summary: "List every version of a purpose",
    description: "Oldest first. Also served for deleted purposes, so any permission can show what was agreed to.",
    request: { params: PurposeParams },
    responses: { 200: jsonResponse(z.object({ items: z.array(PurposeVersion) }), "The versions."), ...problems },
  }),
  async (c) => {
    const { projectId } = c.get("caller");
    const purposeId = c.req.valid("param").purpose_id;
    await purposeProject(c.env.DB, projectId, purposeId);
    const rows = await getDb(c.env.DB)
      .select()
      .from(purposeVersions)
      .where(eq(purposeVersions.purposeId, purposeId))
      .orderBy(sql`CAST(${purposeVersions.version} AS INTEGER)`);
    return c.json({ items: rows.map((row) => toPurposeVersion(projectId, row)) }, 200);
  },
);

configurationRoutes.openapi(
  createRoute({
    method: "get",
    path: `${root}/purposes/{purpose_id}/versions/{version}`,
    ...access.project("config:read"),
    tags,
    summary: "Read one version of a purpose",
    description: "Also served for deleted purposes.",
    request: { params: VersionParams },
    responses: { 200: jsonResponse(PurposeVersion, "The version."), ...problems },
  }),
  async (c) => {
    const { projectId } = c.get("caller");
    const { purpose_id: purposeId, version } = c.req.valid("param");
    await purposeProject(c.env.DB, projectId, purposeId);
    const [row] = await getDb(c.env.DB)
      .select()
      .from(purposeVersions)
      .where(and(eq(purposeVersions.purposeId, purposeId), eq(purposeVersions.version, version)))
      .limit(1);
    if (!row) throw notFound("Purpose version");
    return c.json(toPurposeVersion(projectId, row), 200);
  },
);

/* The earlier configuration interface: one document for a consent dialog. */

/**
 * Browsers may keep the document but must ask again each time (a new purpose version has to re-prompt at once);
 * the answer to a matching `If-None-Match` is an empty 304. `private`: it is read with a bearer token.
 */
const configurationCacheControl = "private, no-cache";

configurationRoutes.openapi(
  createRoute({
    method: "get",
    path: "/privacy/v1/configurations",
    ...access.client("consent-config:read"),
    tags,
    summary: "The whole current configuration, for a consent dialog",
    description:
      "The project (from the token) with its controller, policies and jurisdiction, and every live purpose at its " +
      "current version with its data groups and parties expanded (names, descriptions in every language, policies) " +
      "and its Consent Mode types. Purposes come oldest first. Tokens scoped to one identity may read it.\n\n" +
      "Answers carry an `ETag` and `Cache-Control: private, no-cache`: send the ETag back as `If-None-Match` to get " +
      "an empty 304 while nothing changed. The document is cached at the edge and the cache follows every change.",
    request: { headers: z.object({ "if-none-match": z.string().max(1000).optional() }) },
    responses: {
      200: jsonResponse(Configuration, "The configuration."),
      304: { description: "Not modified since the ETag sent as `If-None-Match`." },
      ...problems,
    },
  }),
  async (c) => {
    const { projectId } = c.get("caller");
    const db = getDb(c.env.DB);
    const [project] = await db.select({ version: projects.configVersion }).from(projects).where(eq(projects.id, projectId)).limit(1);
    const cached = project && (await cachedConfiguration(db, c.req.url, (p) => c.executionCtx.waitUntil(p), projectId, project.version));
    if (!cached) throw notFound("Project");
    const headers = { ETag: cached.etag, "Cache-Control": configurationCacheControl, Vary: "Authorization" };
    const presented = c.req.valid("header")["if-none-match"];
    if (presented && presented.split(",").some((tag) => tag.trim().replace(/^W\//, "") === cached.etag)) {
      return c.body(null, 304, headers);
    }
    return c.json(cached.configuration, 200, headers);
  },
);
