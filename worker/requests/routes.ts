import { access } from "../auth/scopes";
import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { unknownReferenceProblem } from "../configuration/route-parts";
import type { AppEnv } from "../env";
import { base64url, fromBase64url, sha256Hex } from "../lib/crypto";
import { badRequest, notFound } from "../lib/errors";
import { createRouter, defineRoute } from "../auth/router";
import { conflictProblem, jsonBody, jsonResponse, problems } from "../lib/schemas";
import { createdResponse } from "../lib/preconditions";
import { accessRules, erasureRules, objectionRules, permissionRules, type CommonInput, type FamilyRules, type FamilyTraits } from "./families";
import { listQuery, toRecord, type Cursor } from "./queries";
import { findRequest, moveRequest, recordRequest, writerOf } from "./record";
import { ListQuery, PermissionState } from "./schemas";
import type { Status } from "./table";
import { stateById, toPermissionState } from "./state";
import { parseTimestamp } from "./timestamps";
import { ProjectParams } from "../lib/params";

export const requestRoutes = createRouter();

const RequestParams = ProjectParams.extend({ request_id: z.string() });

const lifecycleText =
  "Statuses: `received` → `in_progress` → `completed` or `rejected` (`received` may also go straight to " +
  "`completed` or `rejected`); DELETE makes it `withdrawn`. Any other move is 409 `invalid_transition`; " +
  "setting the status it already has changes nothing (200).";

const encodeCursor = (cursor: Cursor) => base64url(new TextEncoder().encode(JSON.stringify(cursor)));
function decodeCursor(text: string): Cursor {
  try {
    const value = JSON.parse(new TextDecoder().decode(fromBase64url(text)));
    if (typeof value?.id === "string" && (value.updated === undefined || typeof value.updated === "string")) return value;
  } catch {
    // fall through to the problem below
  }
  throw badRequest("invalid_cursor", "The cursor is not one this list returned.");
}

const tags = ["Privacy requests"];

/** A family's name in operationIds: "erasure request" → ErasureRequest (createErasureRequest, listErasureRequests…). */
const operationName = (spec: FamilyTraits) => spec.title.replace(/(^| )(\w)/g, (_, _space, letter: string) => letter.toUpperCase());

/** The scope recording each family of request needs: consent records are the widget's business, the rest a backend's. */
const recordScopes = { permission: "consents:write", objection: "consents:write", erasure: "requests:write", access: "requests:write" } as const;

const Receipt = z
  .object({ requestId: z.string(), receipt: z.string(), receiptHash: z.string() })
  .openapi("RequestReceipt");

/**
 * POST and PUT take the family's own body type; their definitions are built here and registered where the
 * family is known (below), so each handler sees its body typed, validated once.
 */
const postRoute = <S extends z.ZodType<CommonInput>, U extends z.ZodType>(spec: FamilyRules<S, U>) =>
  defineRoute({
    method: "post",
    path: `/${spec.segment}`,
    operationId: `create${operationName(spec)}`,
    ...access.project(recordScopes[spec.family], { in: "body", name: "identityId" }),
    tags,
    summary: `Record a ${spec.title}`,
    description:
      spec.recordText +
      " The identity and every purpose, data group and party named must exist in this project (422 " +
      "`unknown_reference`, each listed in `errors`); listing one twice is 400. Emits `" +
      `${spec.family}.created\` (and \`permission_state.changed\` when the state changes) in the same write. ` +
      "The response's `receipt` is the signed receipt of this write (docs/proof.md#signed-receipts).",
    request: { params: ProjectParams, body: jsonBody(spec.input) },
    responses: { 201: createdResponse(spec.record, `The stored ${spec.title}.`, false), ...problems, ...unknownReferenceProblem },
  });

const putRoute = <S extends z.ZodType<CommonInput>, U extends z.ZodType>(spec: FamilyRules<S, U>) =>
  defineRoute({
    method: "put",
    path: `/${spec.segment}/{request_id}`,
    operationId: `update${operationName(spec)}Status`,
    ...access.project("requests:manage"),
    tags,
    summary: `Move a ${spec.title} to a new status`,
    description:
      `${lifecycleText} The recorded payload never changes. Emits \`${spec.family}.updated\`.` +
      (spec.shapesState
        ? " Reaching or leaving `completed` recomputes the permission state of the purposes it names, in the same write."
        : "") +
      " Only backend clients move statuses.",
    request: { params: RequestParams, body: jsonBody(spec.statusUpdate) },
    responses: { 200: jsonResponse(spec.record, `The ${spec.title}.`), ...problems, ...conflictProblem },
  });

for (const spec of [permissionRules, objectionRules, erasureRules, accessRules]) familyRoutes(spec);

requestRoutes.openapi(postRoute(permissionRules), async (c) => created(c, await recordRequest(writerOf(c), permissionRules, c.req.valid("json"))));
requestRoutes.openapi(postRoute(objectionRules), async (c) => created(c, await recordRequest(writerOf(c), objectionRules, c.req.valid("json"))));
requestRoutes.openapi(postRoute(erasureRules), async (c) => created(c, await recordRequest(writerOf(c), erasureRules, c.req.valid("json"))));
requestRoutes.openapi(postRoute(accessRules), async (c) => created(c, await recordRequest(writerOf(c), accessRules, c.req.valid("json"))));

const moveTo = (c: Context<AppEnv>, spec: FamilyTraits, requestId: string, to: Status) => moveRequest(writerOf(c), spec, requestId, to);
requestRoutes.openapi(putRoute(permissionRules), async (c) =>
  c.json(await moveTo(c, permissionRules, c.req.valid("param").request_id, permissionRules.statusOf(c.req.valid("json"))), 200),
);
requestRoutes.openapi(putRoute(objectionRules), async (c) =>
  c.json(await moveTo(c, objectionRules, c.req.valid("param").request_id, objectionRules.statusOf(c.req.valid("json"))), 200),
);
requestRoutes.openapi(putRoute(erasureRules), async (c) =>
  c.json(await moveTo(c, erasureRules, c.req.valid("param").request_id, erasureRules.statusOf(c.req.valid("json"))), 200),
);
requestRoutes.openapi(putRoute(accessRules), async (c) =>
  c.json(await moveTo(c, accessRules, c.req.valid("param").request_id, accessRules.statusOf(c.req.valid("json"))), 200),
);

/** A 201 with the stored record. */
function created<R extends { requestId: string }>(c: Context<AppEnv>, record: R) {
  c.header("Location", `${c.req.path}/${record.requestId}`);
  return c.json(record, 201);
}

/** Reads, lists and withdrawals of one family: the same for every body type. */
function familyRoutes(spec: FamilyTraits) {
  const base = `/${spec.segment}`;

  requestRoutes.openapi(
    defineRoute({
      method: "get",
      path: base,
      operationId: `list${operationName(spec)}s`,
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
      const rows = await listQuery(c.var.db, c.get("caller").projectId, spec.family, {
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
    defineRoute({
      method: "get",
      path: `${base}/{request_id}`,
      operationId: `get${operationName(spec)}`,
      ...access.project("requests:read"),
      tags,
      summary: `Read a ${spec.title} and its payload`,
      request: { params: RequestParams },
      responses: { 200: jsonResponse(spec.record, `The ${spec.title}.`), ...problems },
    }),
    async (c) => c.json(toRecord(await findRequest(c.var.db, c.get("caller").projectId, spec, c.req.valid("param").request_id)), 200),
  );

  requestRoutes.openapi(
    defineRoute({
      method: "get",
      path: `${base}/{request_id}/receipt`,
      operationId: `get${operationName(spec)}Receipt`,
      ...access.project("requests:read"),
      tags,
      summary: `The signed receipt of a ${spec.title}'s latest write`,
      description:
        "A compact JWS (ES256, `typ` assent-receipt+jwt, `kid` from `/.well-known/jwks.json`) over the canonical record " +
        "of the request's latest write (creation or status change); `receiptHash` is its SHA-256, which the project's " +
        "log holds (inclusion proof: `GET …/log/proofs/inclusion?receiptHash=`). See docs/proof.md#tamper-evident-log.",
      request: { params: RequestParams },
      responses: { 200: jsonResponse(Receipt, "The receipt."), ...problems },
    }),
    async (c) => {
      const row = await findRequest(c.var.db, c.get("caller").projectId, spec, c.req.valid("param").request_id);
      if (!row.receipt) throw notFound(`A receipt of this ${spec.title} (it was recorded with receipts off)`);
      return c.json({ requestId: row.id, receipt: row.receipt, receiptHash: await sha256Hex(row.receipt) }, 200);
    },
  );

  const withdraw = (path: string, operationId: string, summary: string) =>
    requestRoutes.openapi(
      defineRoute({
        method: "delete",
        path,
        operationId,
        ...access.project("requests:manage"),
        tags,
        summary,
        description:
          "The record stays, with status `withdrawn`, and stops counting: the permission state of the purposes it " +
          "named is recomputed from the remaining history in the same write. Withdrawing a withdrawn request " +
          "changes nothing (200). Emits `" +
          `${spec.family}.withdrawn\`. ` +
          spec.withdrawText,
        request: { params: RequestParams },
        responses: { 200: jsonResponse(spec.record, `The withdrawn ${spec.title}.`), ...problems, ...conflictProblem },
      }),
      async (c) => c.json(await moveTo(c, spec, c.req.valid("param").request_id, "withdrawn"), 200),
    );
  withdraw(`${base}/{request_id}`, `withdraw${operationName(spec)}`, `Withdraw a ${spec.title}`);
  for (const path of spec.extraWithdrawPaths) {
    withdraw(path, `withdraw${operationName(spec)}AtPublishedPath`, `Withdraw an ${spec.title} (the path as published)`);
  }
}


requestRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/identities/{identityId}/permission-state",
    operationId: "getPermissionState",
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
    const state = toPermissionState(projectId, await stateById(c.var.db, { projectId, identityId: c.req.valid("param").identityId }));
    if (!state) throw notFound("Identity");
    return c.json(state, 200);
  },
);
