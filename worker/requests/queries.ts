import { and, asc, eq, gt, gte, sql } from "drizzle-orm";
import type { Db } from "../lib/db";
import { stateQuery, toPermissionState } from "./state";
import type { z } from "@hono/zod-openapi";
import type { AccessRecord, ErasureRecord, ObjectionRecord, PermissionRecord, Status } from "./schemas";
import { requests, type Family } from "./table";

type RequestRow = typeof requests.$inferSelect;

/** A stored request as the API shows it; a permission calls its status `permissionStatus`. */
export function toRecord(row: RequestRow) {
  const base = {
    requestId: row.id,
    projectId: row.projectId,
    identityId: row.identityId,
    requested: row.requested,
    meta: row.meta ?? {},
    request: row.request ?? null,
  };
  const times = { created: row.created, updated: row.updated, ...(row.receipt ? { receipt: row.receipt } : {}) };
  return row.family === "permission"
    ? { ...base, request: row.request ?? {}, permissionStatus: row.status, ...times }
    : { ...base, status: row.status, ...times };
}

const plural: Record<Family, "permissions" | "objections" | "erasures" | "accesses"> = {
  permission: "permissions",
  objection: "objections",
  erasure: "erasures",
  access: "accesses",
};

/**
 * Everything the privacy core holds about one identity, for the Art. 15 export: every request of the four
 * families (oldest `requested` first) and the permission state; undefined if no such identity.
 */
export async function identityPrivacyData(db: Db, projectId: string, identityId: string) {
  // Two parallel reads rather than one batch: drizzle's D1 batch cannot map the state query's joined columns.
  const [stateRows, requestRows] = await Promise.all([
    stateQuery(db, projectId, identityId),
    db
      .select()
      .from(requests)
      .where(and(eq(requests.identityId, identityId), eq(requests.projectId, projectId)))
      .orderBy(requests.requestedAt, requests.id),
  ]);
  const permissionState = toPermissionState(projectId, stateRows);
  if (!permissionState) return undefined;
  const byFamily = { permissions: [], objections: [], erasures: [], accesses: [] } as Record<
    (typeof plural)[Family],
    ReturnType<typeof toRecord>[]
  >;
  for (const row of requestRows) byFamily[plural[row.family]].push(toRecord(row));
  // Stored statuses are always one of `statuses`: the column is only written through the validated routes.
  return {
    permissions: byFamily.permissions as z.infer<typeof PermissionRecord>[],
    objections: byFamily.objections as z.infer<typeof ObjectionRecord>[],
    erasures: byFamily.erasures as z.infer<typeof ErasureRecord>[],
    accesses: byFamily.accesses as z.infer<typeof AccessRecord>[],
    permissionState,
  };
}

/** Where a list page ends: the last item's id, and its `updated` when the walk is in update order. */
export type Cursor = { id: string; updated?: string };

/**
 * One page of a family's requests. Every filter combination has an index whose order is the page order
 * (requests_family/status/identity/identity_status_idx by id, requests_updated_idx by update), so a page
 * is a seek plus `limit` rows whatever the table's size.
 */
export function listQuery(
  db: Db,
  projectId: string,
  family: Family,
  options: { status?: Status; identityId?: string; updatedSince?: string; after?: Cursor; limit: number },
) {
  const { status, identityId, updatedSince, after, limit } = options;
  const byUpdate = updatedSince !== undefined;
  const where = [
    eq(requests.projectId, projectId),
    eq(requests.family, family),
    status && eq(requests.status, status),
    identityId !== undefined ? eq(requests.identityId, identityId) : undefined,
    byUpdate ? gte(requests.updated, updatedSince) : undefined,
    after && (byUpdate ? sql`(${requests.updated}, ${requests.id}) > (${after.updated}, ${after.id})` : gt(requests.id, after.id)),
  ];
  return db
    .select()
    .from(requests)
    .where(and(...where))
    .orderBy(...(byUpdate ? [asc(requests.updated), asc(requests.id)] : [asc(requests.id)]))
    .limit(limit);
}
