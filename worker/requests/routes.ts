import { access } from "../auth/scopes";
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { and, eq, sql, type SQL } from "drizzle-orm";
import { unknownReferenceProblem } from "../configuration/routes";
import { unknownReferences } from "../configuration/queries";
import type { AppEnv } from "../env";
import { dispatchSoon, eventInsert, initialDispatched, type EventType } from "../events/outbox";
import { events } from "../events/table";
import { atomically, getDb, isConstraintError, type Statement } from "../lib/db";
import { ApiError, badRequest, conflict, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { conflictProblem, createRouter, jsonBody, jsonResponse, problems } from "../lib/router";
import { now } from "../lib/time";

import { familySpecs, type FamilySpec } from "./families";
import { listQuery, toRecord, type Cursor } from "./queries";
import { ListQuery, PermissionState, PermissionStatusUpdate, StatusUpdate, type Status } from "./schemas";
import { stateQuery, syncState, toPermissionState } from "./state";
import { requestPurposes, requests } from "./table";
import { parseTimestamp } from "./timestamps";

export const requestRoutes = createRouter();

const root = "/privacy/v2/projects/{project_id}";
const ProjectParams = z.object({ project_id: z.string() });
const RequestParams = ProjectParams.extend({ request_id: z.string() });

/** Rows per multi-row insert of contributions: 13 bound values each, and D1 allows 100 per statement. */
const contributionsPerInsert = 7;

/** The scope recording each family of request needs: consent records are the widget's business, the rest a backend's. */
const recordScopes = { permission: "consents:write", objection: "consents:write", erasure: "requests:write", access: "requests:write" } as const;

const lifecycleText =
  "Statuses: `received` → `in_progress` → `completed` or `rejected` (`received` may also go straight to " +
  "`completed` or `rejected`); DELETE makes it `withdrawn`. Any other move is 409 `invalid_transition`; " +
  "setting the status it already has changes nothing (200).";

/** An outbox row that only appears if `applied` holds when the batch reaches it. */
const eventIf = (applied: SQL, projectId: string, type: EventType, data: unknown, stamp: string) =>
  sql`INSERT INTO ${events} (id, project_id, type, data, created, dispatched)
    SELECT ${newId("evt")}, ${projectId}, ${type}, ${JSON.stringify(data)}, ${stamp},
      ${initialDispatched(projectId, type, stamp)} WHERE ${applied}`;

/** Purposes a stored permission or objection names (its contributions), read from its recorded payload. */
const purposeIdsOf = (row: typeof requests.$inferSelect) =>
  ((row.request?.purposes as { purposeId: string }[] | undefined) ?? []).map((p) => p.purposeId);

const encodeCursor = (cursor: Cursor) => btoa(JSON.stringify(cursor)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
function decodeCursor(text: string): Cursor {
  try {
    const value = JSON.parse(atob(text.replace(/-/g, "+").replace(/_/g, "/")));
    if (typeof value?.id === "string" && (value.updated === undefined || typeof value.updated === "string")) return value;
  } catch {
    // fall through to the problem below
  }
  throw badRequest("invalid_cursor", "The cursor is not one this list returned.");
}

async function findRequest(c: Context<AppEnv>, spec: FamilySpec, requestId: string) {
  const [row] = await getDb(c.env.DB)
    .select()
    .from(requests)
    .where(and(eq(requests.projectId, c.get("caller").projectId), eq(requests.family, spec.family), eq(requests.id, requestId)))
    .limit(1);
  if (!row) throw notFound(`The ${spec.title}`);
  return row;
}

/** PUT and DELETE: one guarded status move with its event and, when counting changes, the state in the same batch. */
async function moveStatus(c: Context<AppEnv>, spec: FamilySpec, requestId: string, to: Status) {
  const db = getDb(c.env.DB);
  const row = await findRequest(c, spec, requestId);
  const from = row.status as Status;
  if (from === to) return toRecord(row);
  if (!spec.transitions[from].includes(to)) {
    throw new ApiError(409, "invalid_transition", `A ${spec.title} cannot move from ${from} to ${to}.`, {
      members: { from, to, allowed: spec.transitions[from] },
    });
  }
  const stamp = now();
  const record = toRecord({ ...row, status: to, updated: stamp });
  // Everything after the first statement depends on it having applied (no concurrent move got there first).
  const applied = sql`EXISTS (SELECT 1 FROM ${requests} WHERE id = ${row.id} AND status = ${to} AND updated = ${stamp})`;
  const statements: Statement[] = [
    db
      .update(requests)
      .set({ status: to, updated: stamp })
      .where(and(eq(requests.id, row.id), eq(requests.status, from)))
      .returning({ id: requests.id }),
    eventIf(applied, row.projectId, `${spec.family}.${to === "withdrawn" ? "withdrawn" : "updated"}`, record, stamp),
  ];
  const counts = to === "completed";
  if ((from === "completed") !== counts && (spec.family === "permission" || spec.family === "objection")) {
    statements.push(
      db.update(requestPurposes).set({ counts: counts ? 1 : 0 }).where(and(eq(requestPurposes.requestId, row.id), applied)),
      ...syncState(row.projectId, row.identityId, purposeIdsOf(row), stamp),
    );
  }
  const [moved] = await atomically(c.env.DB, statements);
  if (moved.results.length === 0) throw conflict("concurrent_update", `The ${spec.title} changed meanwhile; read it and try again.`);
  dispatchSoon(c, row.projectId);
  return record;
}

for (const spec of familySpecs) {
  const base = `${root}/${spec.segment}`;
  const tags = ["Privacy requests"];
  const statusBody = spec.family === "permission" ? PermissionStatusUpdate : StatusUpdate;

  requestRoutes.openapi(
    createRoute({
      method: "post",
      path: base,
      ...access.project(recordScopes[spec.family], { in: "body", name: "identityId" }),
      tags,
      summary: `Record a ${spec.title}`,
      description:
        (spec.family === "permission"
          ? "Stores the subject's decision per purpose, data group and party. A `completed` permission (the default) " +
            "updates the permission state in the same atomic write: per purpose the latest `requested` wins (ties: " +
            "the later write)."
          : spec.family === "objection"
            ? "Stores an objection (default status `received`). Once `completed` it denies every purpose it names in " +
              "the permission state (`requestType: objection`) unless a later `requested` permission overrides it."
            : `Stores a ${spec.title} with status \`received\`; without \`request\` it covers all of the identity's data.`) +
        " The identity and every purpose, data group and party named must exist in this project (422 " +
        "`unknown_reference`, each listed in `errors`); listing one twice is 400. Emits `" +
        `${spec.family}.created\` (and \`permission_state.changed\` when the state changes) in the same write.`,
      request: { params: ProjectParams, body: jsonBody(spec.input) },
      responses: { 201: jsonResponse(spec.record, `The stored ${spec.title}.`), ...problems, ...unknownReferenceProblem },
    }),
    async (c) => {
      const input = c.req.valid("json") as Parameters<FamilySpec["initialStatus"]>[0];
      const { projectId, clientId } = c.get("caller");
      const db = getDb(c.env.DB);
      const prepared = await spec.prepare(db, projectId, input);
      const stamp = now();
      const requested = input.requested ?? stamp;
      const requestedAt = parseTimestamp(requested)!;
      const status = spec.initialStatus(input);
      const row = {
        id: newId(spec.idPrefix),
        projectId,
        family: spec.family,
        identityId: input.identityId,
        status,
        requested,
        requestedAt,
        meta: { requestedBy: input.meta?.requestedBy ?? clientId, ...(input.meta?.context ? { context: input.meta.context } : {}) },
        request: prepared.request,
        created: stamp,
        updated: stamp,
      };
      const record = toRecord(row);
      const counts = status === "completed" ? 1 : 0;
      const contributions = prepared.contributions.map((entry) => ({
        ...entry,
        projectId,
        identityId: row.identityId,
        requestId: row.id,
        requestType: spec.family,
        counts,
        requested,
        requestedAt,
      }));
      const statements: Statement[] = [db.insert(requests).values(row)];
      for (let i = 0; i < contributions.length; i += contributionsPerInsert) {
        statements.push(db.insert(requestPurposes).values(contributions.slice(i, i + contributionsPerInsert)));
      }
      statements.push(eventInsert(db, projectId, `${spec.family}.created`, record));
      if (counts && contributions.length) {
        statements.push(...syncState(projectId, row.identityId, contributions.map((entry) => entry.purposeId), stamp));
      }
      try {
        await atomically(c.env.DB, statements);
      } catch (error) {
        // The identity was deleted between the check and the write.
        if (isConstraintError(error, "FOREIGN KEY")) {
          throw unknownReferences([{ path: "identityId", message: `No identity ${row.identityId} in this project.`, code: "unknown_reference" }]);
        }
        throw error;
      }
      dispatchSoon(c, projectId);
      return c.json(record, 201);
    },
  );

  requestRoutes.openapi(
    createRoute({
      method: "get",
      path: base,
      ...access.project("requests:read"),
      tags,
      summary: `List ${spec.segment}, filtered`,
      description:
        "For polling and for resynchronising when notifications fail. Filters `status` and `identityId` combine. " +
        "Keyset-paginated: pass `nextCursor` back as `cursor` until it is null; every item appears exactly once " +
        "and a page costs the same however many requests exist. Without `updatedSince` items come in creation order; " +
        "with it, in order of last update (at or after the given instant), so one walk sees every change since then.",
      request: { params: ProjectParams, query: ListQuery },
      responses: {
        200: jsonResponse(z.object({ items: z.array(spec.record), nextCursor: z.string().nullable() }), "A page."),
        ...problems,
      },
    }),
    async (c) => {
      const { status, identityId, updatedSince, limit, cursor } = c.req.valid("query");
      const after = cursor === undefined ? undefined : decodeCursor(cursor);
      const byUpdate = updatedSince !== undefined;
      if (after && (after.updated !== undefined) !== byUpdate) {
        throw badRequest("invalid_cursor", "The cursor belongs to a walk with a different `updatedSince` setting.");
      }
      const rows = await listQuery(getDb(c.env.DB), c.get("caller").projectId, spec.family, {
        status,
        identityId,
        updatedSince: byUpdate ? new Date(parseTimestamp(updatedSince)!).toISOString() : undefined,
        after,
        limit: limit + 1,
      });
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      const nextCursor =
        rows.length > limit && last ? encodeCursor(byUpdate ? { updated: last.updated, id: last.id } : { id: last.id }) : null;
      return c.json({ items: page.map(toRecord), nextCursor }, 200);
    },
  );

  requestRoutes.openapi(
    createRoute({
      method: "get",
      path: `${base}/{request_id}`,
      ...access.project("requests:read"),
      tags,
      summary: `Read a ${spec.title} and its payload`,
      request: { params: RequestParams },
      responses: { 200: jsonResponse(spec.record, `The ${spec.title}.`), ...problems },
    }),
    async (c) => c.json(toRecord(await findRequest(c, spec, c.req.valid("param").request_id)), 200),
  );

  requestRoutes.openapi(
    createRoute({
      method: "put",
      path: `${base}/{request_id}`,
      ...access.project("requests:manage"),
      tags,
      summary: `Move a ${spec.title} to a new status`,
      description:
        `${lifecycleText} The recorded payload never changes. Emits \`${spec.family}.updated\`.` +
        (spec.family === "permission" || spec.family === "objection"
          ? " Reaching or leaving `completed` recomputes the permission state of the purposes it names, in the same write."
          : ""),
      request: { params: RequestParams, body: jsonBody(statusBody) },
      responses: { 200: jsonResponse(spec.record, `The ${spec.title}.`), ...problems, ...conflictProblem },
    }),
    async (c) => {
      const body = c.req.valid("json") as { status?: Status; permissionStatus?: Status };
      const to = (body.permissionStatus ?? body.status)!;
      return c.json(await moveStatus(c, spec, c.req.valid("param").request_id, to), 200);
    },
  );

  const withdraw = (path: string, summary: string) =>
    requestRoutes.openapi(
      createRoute({
        method: "delete",
        path,
        ...access.project("requests:manage"),
        tags,
        summary,
        description:
          "The record stays, with status `withdrawn`, and stops counting: the permission state of the purposes it " +
          "named is recomputed from the remaining history in the same write. Withdrawing a withdrawn request " +
          "changes nothing (200). Emits `" +
          `${spec.family}.withdrawn\`. ` +
          (spec.family === "permission" || spec.family === "objection"
            ? "Possible from `received`, `in_progress` and `completed`."
            : "Possible from `received` and `in_progress` (a completed erasure or access cannot be undone)."),
        request: { params: RequestParams },
        responses: { 200: jsonResponse(spec.record, `The withdrawn ${spec.title}.`), ...problems, ...conflictProblem },
      }),
      async (c) => c.json(await moveStatus(c, spec, c.req.valid("param").request_id, "withdrawn"), 200),
    );
  withdraw(`${base}/{request_id}`, `Withdraw a ${spec.title}`);
  if (spec.family === "access") withdraw(`${root}/v/{request_id}`, "Withdraw an access request (the path as published)");
}

requestRoutes.openapi(
  createRoute({
    method: "get",
    path: `${root}/identities/{identityId}/permission-state`,
    ...access.project("identities:read", { in: "path", name: "identityId" }),
    tags: ["Privacy requests"],
    summary: "Read an identity's permission state",
    description:
      "Per purpose, the completed permission or objection with the latest `requested` (ties: the later write); " +
      "withdrawn requests do not count. Left out at read: deleted purposes, permissions given to a version older " +
      "than the purpose's current one (ask again), and data groups and parties no longer on the purpose. " +
      "Materialised on write, so reading it costs the same after 10 or 10,000 requests.",
    request: { params: ProjectParams.extend({ identityId: z.string() }) },
    responses: { 200: jsonResponse(PermissionState, "The permission state."), ...problems },
  }),
  async (c) => {
    const { projectId } = c.get("caller");
    const state = toPermissionState(projectId, await stateQuery(getDb(c.env.DB), projectId, c.req.valid("param").identityId));
    if (!state) throw notFound("Identity");
    return c.json(state, 200);
  },
);
