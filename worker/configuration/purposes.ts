import { access } from "../auth/scopes";
import { z } from "@hono/zod-openapi";
import { and, eq, sql } from "drizzle-orm";
import { atomically, getDb } from "../lib/db";
import { conflict, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { createRouter, defineRoute } from "../auth/router";
import { conflictProblem, jsonBody, jsonResponse, problems } from "../lib/schemas";
import { ProjectParams } from "../lib/params";
import { acceptedRevisions, createdResponse, IfMatch, nextRevision, notModified, preconditionFailed, preconditionProblem, refusal, tagged, taggedResponse } from "../lib/preconditions";
import { now } from "../lib/time";
import { assertPurposeReferences, livePurpose, toPurpose, toPurposeVersion } from "./queries";
import { Purpose, PurposeInput, PurposeUpdate, PurposeVersion } from "./schemas";
import { purposes, purposeVersions, type PurposeContent } from "./table";
import { referenceTaken, tags, unknownReferenceProblem } from "./route-parts";

export const purposeRoutes = createRouter();

const PurposeParams = ProjectParams.extend({ purpose_id: z.string() });
const VersionParams = PurposeParams.extend({ version: z.string() });

/* Purposes */

const contentOf = ({ referenceId, name, description, legalGround, dataGroups, processors, recipients, controllers, consentMode, exemption, sensitive, sensitiveCategories }: z.infer<typeof PurposeInput>): PurposeContent => ({
  referenceId,
  name,
  description,
  legalGround,
  dataGroups,
  processors,
  recipients,
  controllers,
  consentMode,
  exemption,
  sensitive,
  sensitiveCategories,
});

purposeRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/",
    operationId: "createPurpose",
    ...access.project("config:write"),
    tags,
    summary: "Create a purpose",
    description:
      "Starts at version \"1\". At least one controller is required; a data group or party listed twice is refused " +
      "(400); every id must name a data group or party of this project (422 `unknown_reference`).",
    request: { params: ProjectParams, body: jsonBody(PurposeInput) },
    responses: { 201: createdResponse(Purpose, "The purpose."), ...problems, ...conflictProblem, ...unknownReferenceProblem },
  }),
  async (c) => {
    const { projectId } = c.get("caller");
    const content = contentOf(c.req.valid("json"));
    const db = getDb(c.var.db);
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
      revision: 1,
    };
    await db
      .batch([
        db.insert(purposes).values(row),
        db.insert(purposeVersions).values({ purposeId: row.id, version: "1", content, created: stamp, updated: stamp }),
      ])
      .catch(referenceTaken("purpose"));
    tagged(c, row.revision);
    c.header("Location", `/privacy/v2/projects/${projectId}/configurations/purposes/${row.id}`);
    return c.json(toPurpose(row), 201);
  },
);

purposeRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/",
    operationId: "listPurposes",
    ...access.project("config:read"),
    tags,
    summary: "List the project's purposes",
    description: "All live purposes at their current version, oldest first (not paginated: a configuration is small).",
    request: { params: ProjectParams },
    responses: { 200: jsonResponse(z.object({ items: z.array(Purpose) }), "The purposes."), ...problems },
  }),
  async (c) => {
    const rows = await getDb(c.var.db).select().from(purposes).where(livePurpose(c.get("caller").projectId)).orderBy(purposes.id);
    return c.json({ items: rows.map(toPurpose) }, 200);
  },
);

async function findPurpose(d1: D1Database, projectId: string, purposeId: string) {
  const [row] = await getDb(d1).select().from(purposes).where(livePurpose(projectId, eq(purposes.id, purposeId))).limit(1);
  if (!row) throw notFound("Purpose");
  return row;
}

/** The purpose read before a write, refused with 412 at once when `If-Match` names another revision. */
async function purposeToChange(d1: D1Database, projectId: string, purposeId: string, accepted: number[] | undefined) {
  const current = await findPurpose(d1, projectId, purposeId);
  if (accepted !== undefined && !accepted.includes(current.revision)) throw preconditionFailed();
  return current;
}

purposeRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/{purpose_id}",
    operationId: "getPurpose",
    ...access.project("config:read"),
    tags,
    summary: "Read a purpose",
    request: { params: PurposeParams },
    responses: { 200: taggedResponse(Purpose, "The purpose at its current version."), ...notModified, ...problems },
  }),
  async (c) => {
    const row = await findPurpose(c.var.db, c.get("caller").projectId, c.req.valid("param").purpose_id);
    return tagged(c, row.revision) ?? c.json(toPurpose(row), 200);
  },
);

purposeRoutes.openapi(
  defineRoute({
    method: "put",
    path: "/{purpose_id}",
    operationId: "updatePurpose",
    ...access.project("config:write"),
    tags,
    summary: "Replace a purpose; the editor says whether the change requires new consent",
    description:
      "`requireNewConsent: true` makes version n+1 and keeps version n as it was; `false` edits the current " +
      "version in place (for corrections that do not change what subjects agree to). Data groups and parties " +
      "removed here drop out of every identity's permission state at once. Two concurrent edits of one purpose: " +
      "one wins, the other gets 409 `concurrent_update` (412 `precondition_failed` when it sent `If-Match`).",
    request: { params: PurposeParams, headers: IfMatch, body: jsonBody(PurposeUpdate) },
    responses: { 200: taggedResponse(Purpose, "The purpose."), ...problems, ...conflictProblem, ...unknownReferenceProblem, ...preconditionProblem },
  }),
  async (c) => {
    const { projectId } = c.get("caller");
    const { requireNewConsent, ...input } = c.req.valid("json");
    const content = contentOf(input);
    const db = getDb(c.var.db);
    const accepted = acceptedRevisions(c);
    const current = await purposeToChange(c.var.db, projectId, c.req.valid("param").purpose_id, accepted);
    await assertPurposeReferences(db, projectId, content);
    const stamp = now();
    const version = requireNewConsent ? String(Number(current.version) + 1) : current.version;
    // Guarded by the revision read above (the one If-Match named, if any), so a concurrent edit cannot be silently overwritten.
    const revision = current.revision + 1;
    const update = db
      .update(purposes)
      .set({ referenceId: content.referenceId, version, content, updated: stamp, revision })
      .where(livePurpose(projectId, eq(purposes.id, current.id), eq(purposes.revision, current.revision)))
      .returning({ id: purposes.id });
    // Both statements only take effect if the guarded update above did (same purpose at the next revision).
    const applied = sql`EXISTS (SELECT 1 FROM ${purposes} WHERE ${purposes.id} = ${current.id} AND ${purposes.revision} = ${revision} AND ${purposes.updated} = ${stamp})`;
    const keepVersion = requireNewConsent
      ? sql`INSERT INTO ${purposeVersions} (purpose_id, version, content, created, updated)
          SELECT ${current.id}, ${version}, ${JSON.stringify(content)}, ${stamp}, ${stamp} WHERE ${applied}`
      : db
          .update(purposeVersions)
          .set({ content, updated: stamp })
          .where(and(eq(purposeVersions.purposeId, current.id), eq(purposeVersions.version, version), applied));
    const [updated] = await atomically(c.var.db, [update, keepVersion]).catch(referenceTaken("purpose"));
    if (updated.results.length === 0) {
      throw accepted === undefined ? conflict("concurrent_update", "The purpose was changed meanwhile; read it and try again.") : preconditionFailed();
    }
    tagged(c, revision);
    return c.json(toPurpose({ ...current, referenceId: content.referenceId, version, content, updated: stamp, revision }), 200);
  },
);

purposeRoutes.openapi(
  defineRoute({
    method: "delete",
    path: "/{purpose_id}",
    operationId: "deletePurpose",
    ...access.project("config:write"),
    tags,
    summary: "Delete a purpose",
    description:
      "The purpose leaves the configuration and every permission state at once. Its versions stay readable under " +
      "`…/versions` and requests that named it keep their payload: proof of what was agreed to outlives the purpose. " +
      "Its referenceId becomes free for a new purpose.",
    request: { params: PurposeParams, headers: IfMatch },
    responses: { 204: { description: "Deleted." }, ...problems, ...preconditionProblem },
  }),
  async (c) => {
    const { projectId } = c.get("caller");
    const accepted = acceptedRevisions(c);
    const current = await purposeToChange(c.var.db, projectId, c.req.valid("param").purpose_id, accepted);
    const stamp = now();
    // The live row releases its data groups and parties (so they can be deleted); each version keeps its content.
    const released: PurposeContent = { ...current.content, dataGroups: [], processors: [], recipients: [], controllers: [] };
    const deleted = await getDb(c.var.db)
      .update(purposes)
      .set({ deleted: stamp, updated: stamp, content: released, revision: nextRevision(purposes.revision) })
      .where(livePurpose(projectId, eq(purposes.id, current.id), ...(accepted ? [eq(purposes.revision, current.revision)] : [])))
      .returning({ id: purposes.id });
    if (deleted.length === 0) throw await refusal(accepted, () => findPurpose(c.var.db, projectId, current.id).catch(() => undefined), "Purpose");
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

purposeRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/{purpose_id}/versions",
    operationId: "listPurposeVersions",
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
    await purposeProject(c.var.db, projectId, purposeId);
    const rows = await getDb(c.var.db)
      .select()
      .from(purposeVersions)
      .where(eq(purposeVersions.purposeId, purposeId))
      .orderBy(sql`CAST(${purposeVersions.version} AS INTEGER)`);
    return c.json({ items: rows.map((row) => toPurposeVersion(projectId, row)) }, 200);
  },
);

purposeRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/{purpose_id}/versions/{version}",
    operationId: "getPurposeVersion",
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
    await purposeProject(c.var.db, projectId, purposeId);
    const [row] = await getDb(c.var.db)
      .select()
      .from(purposeVersions)
      .where(and(eq(purposeVersions.purposeId, purposeId), eq(purposeVersions.version, version)))
      .limit(1);
    if (!row) throw notFound("Purpose version");
    return c.json(toPurposeVersion(projectId, row), 200);
  },
);

