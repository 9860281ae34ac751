import { access } from "../auth/scopes";
import { z } from "@hono/zod-openapi";
import { and, eq, isNull, sql } from "drizzle-orm";
import { purposes } from "../configuration/table";
import { getDb, isConstraintError } from "../lib/db";
import { conflict, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { createRouter, defineRoute } from "../auth/router";
import { conflictProblem, jsonBody, jsonResponse, problems } from "../lib/schemas";
import { acceptedRevisions, createdResponse, IfMatch, nextRevision, notModified, preconditionProblem, refusal, revisionMatches, tagged, taggedResponse } from "../lib/preconditions";
import { now } from "../lib/time";
import { toParty } from "./queries";
import { Party, PartyInput } from "./schemas";
import { parties } from "./table";
import { ProjectParams } from "../lib/params";

export const partyRoutes = createRouter();

const tags = ["Parties"];
const PartyParams = ProjectParams.extend({ party_id: z.string() });

const partyWhere = (projectId: string, id: string) => and(eq(parties.projectId, projectId), eq(parties.id, id));

async function findParty(d1: D1Database, projectId: string, id: string) {
  const [row] = await getDb(d1).select().from(parties).where(partyWhere(projectId, id)).limit(1);
  return row;
}

const referenceTaken = (error: unknown): never => {
  if (isConstraintError(error, "UNIQUE")) throw conflict("reference_id_taken", "Another party of this project has this referenceId.");
  throw error;
};

partyRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/configurations/parties",
    operationId: "createParty",
    ...access.project("config:write"),
    tags,
    summary: "Create a party",
    request: { params: ProjectParams, body: jsonBody(PartyInput) },
    responses: { 201: createdResponse(Party, "The party."), ...problems, ...conflictProblem },
  }),
  async (c) => {
    const input = c.req.valid("json");
    const stamp = now();
    const row = { id: newId("pty"), projectId: c.get("caller").projectId, ...input, created: stamp, updated: stamp, revision: 1 };
    await getDb(c.var.db).insert(parties).values(row).catch(referenceTaken);
    tagged(c, row.revision);
    c.header("Location", `/privacy/v2/projects/${row.projectId}/parties/${row.id}`);
    return c.json(toParty(row), 201);
  },
);

partyRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/configurations/parties",
    operationId: "listParties",
    ...access.project("config:read"),
    tags,
    summary: "List the project's parties",
    request: { params: ProjectParams },
    responses: { 200: jsonResponse(z.object({ items: z.array(Party) }), "The parties, oldest first."), ...problems },
  }),
  async (c) => {
    const rows = await getDb(c.var.db)
      .select()
      .from(parties)
      .where(eq(parties.projectId, c.get("caller").projectId))
      .orderBy(parties.id);
    return c.json({ items: rows.map(toParty) }, 200);
  },
);

partyRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/parties/{party_id}",
    operationId: "getParty",
    ...access.project("config:read"),
    tags,
    summary: "Read a party",
    request: { params: PartyParams },
    responses: { 200: taggedResponse(Party, "The party."), ...notModified, ...problems },
  }),
  async (c) => {
    const row = await findParty(c.var.db, c.get("caller").projectId, c.req.valid("param").party_id);
    if (!row) throw notFound("Party");
    return tagged(c, row.revision) ?? c.json(toParty(row), 200);
  },
);

partyRoutes.openapi(
  defineRoute({
    method: "put",
    path: "/parties/{party_id}",
    operationId: "updateParty",
    ...access.project("config:write"),
    tags,
    summary: "Replace a party",
    request: { params: PartyParams, headers: IfMatch, body: jsonBody(PartyInput) },
    responses: { 200: taggedResponse(Party, "The party."), ...problems, ...conflictProblem, ...preconditionProblem },
  }),
  async (c) => {
    const { projectId } = c.get("caller");
    const id = c.req.valid("param").party_id;
    const accepted = acceptedRevisions(c);
    const [row] = await getDb(c.var.db)
      .update(parties)
      .set({ ...c.req.valid("json"), updated: now(), revision: nextRevision(parties.revision) })
      .where(and(partyWhere(projectId, id), revisionMatches(parties.revision, accepted)))
      .returning()
      .catch(referenceTaken);
    if (!row) throw await refusal(accepted, () => findParty(c.var.db, projectId, id), "Party");
    tagged(c, row.revision);
    return c.json(toParty(row), 200);
  },
);

partyRoutes.openapi(
  defineRoute({
    method: "delete",
    path: "/parties/{party_id}",
    operationId: "deleteParty",
    ...access.project("config:write"),
    tags,
    summary: "Delete a party",
    description:
      "A party that a purpose still names is refused with 409 `party_in_use`: remove it from the purposes first, " +
      "where the editor decides whether that change needs new consent.",
    request: { params: PartyParams, headers: IfMatch },
    responses: { 204: { description: "Deleted." }, ...problems, ...conflictProblem, ...preconditionProblem },
  }),
  async (c) => {
    const { projectId } = c.get("caller");
    const partyId = c.req.valid("param").party_id;
    const db = getDb(c.var.db);
    const [user] = await db
      .select({ id: purposes.id })
      .from(purposes)
      .where(
        and(
          eq(purposes.projectId, projectId),
          isNull(purposes.deleted),
          sql`EXISTS (SELECT 1 FROM json_each(${purposes.content}, '$.controllers') WHERE value = ${partyId}
            UNION ALL SELECT 1 FROM json_each(${purposes.content}, '$.processors') WHERE value = ${partyId}
            UNION ALL SELECT 1 FROM json_each(${purposes.content}, '$.recipients') WHERE value = ${partyId})`,
        ),
      )
      .limit(1);
    if (user) throw conflict("party_in_use", `Purpose ${user.id} still names this party.`);
    const accepted = acceptedRevisions(c);
    const deleted = await db
      .delete(parties)
      .where(and(partyWhere(projectId, partyId), revisionMatches(parties.revision, accepted)))
      .returning({ id: parties.id });
    if (deleted.length === 0) throw await refusal(accepted, () => findParty(c.var.db, projectId, partyId), "Party");
    return c.body(null, 204);
  },
);
