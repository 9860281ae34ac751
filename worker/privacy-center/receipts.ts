import { z } from "@hono/zod-openapi";
import { and, asc, eq, inArray } from "drizzle-orm";
import { access } from "../auth/scopes";
import { sha256Hex } from "../lib/crypto";
import { getDb } from "../lib/db";
import { notFound } from "../lib/errors";
import { ProjectParams } from "../lib/params";
import { createRouter, defineRoute } from "../auth/router";
import { jsonResponse, problems, Timestamp } from "../lib/schemas";
import { identities } from "../identities/table";
import { requests } from "../requests/table";

/**
 * An identity's decisions (permissions and objections) with their signed receipts, for the subject to see and
 * check against `/.well-known/jwks.json`: the privacy center's "your choices". Mounted at the project's `/identities`.
 */
export const Receipted = z
  .object({
    requestId: z.string(),
    family: z.enum(["permission", "objection"]),
    status: z.string(),
    requested: Timestamp,
    updated: Timestamp,
    request: z.record(z.string(), z.unknown()).nullable(),
    receipt: z.string().nullable(),
    receiptHash: z.string().nullable(),
  })
  .openapi("ReceiptedDecision");

export async function identityReceipts(d1: D1Database, projectId: string, identityId: string) {
  const rows = await getDb(d1)
    .select()
    .from(requests)
    .where(and(eq(requests.projectId, projectId), eq(requests.identityId, identityId), inArray(requests.family, ["permission", "objection"])))
    .orderBy(asc(requests.id));
  return Promise.all(
    rows.map(async (row) => ({
      requestId: row.id,
      family: row.family as "permission" | "objection",
      status: row.status,
      requested: row.requested,
      updated: row.updated,
      request: row.request ?? null,
      receipt: row.receipt,
      receiptHash: row.receipt ? await sha256Hex(row.receipt) : null,
    })),
  );
}

export const receiptRoutes = createRouter();

receiptRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/{identityId}/decisions",
    operationId: "listIdentityDecisions",
    tags: ["Privacy requests"],
    ...access.project("identities:read", { in: "path", name: "identityId" }),
    summary: "An identity's permissions and objections with their signed receipts",
    description:
      "Oldest first. Each `receipt` is the compact JWS of the request's latest write; verify it with the keys at " +
      "`/.well-known/jwks.json` (docs/proof.md#signed-receipts). A visitor's own token may read its own identity's.",
    request: { params: ProjectParams.extend({ identityId: z.string() }) },
    responses: { 200: jsonResponse(z.object({ items: z.array(Receipted) }), "The decisions."), ...problems },
  }),
  async (c) => {
    const { project_id: projectId, identityId } = c.req.valid("param");
    const [found] = await getDb(c.var.db)
      .select({ id: identities.id })
      .from(identities)
      .where(and(eq(identities.projectId, projectId), eq(identities.id, identityId)))
      .limit(1);
    if (!found) throw notFound("Identity");
    return c.json({ items: await identityReceipts(c.var.db, projectId, identityId) }, 200);
  },
);
