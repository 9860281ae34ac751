import { and, asc, eq, gt, gte, sql } from "drizzle-orm";
import { compiled } from "../lib/compiled";
import type { Db } from "../lib/db";
import { stateQuery, toPermissionState } from "./state";
import { z } from "@hono/zod-openapi";
import type { AccessRecord, ErasureRecord, ObjectionRecord, PermissionRecord } from "./schemas";
import { requests, type Family, type RequestRow, type Status } from "./table";

/** Purposes a stored request names, whatever its family: objects with a version (permissions, objections) or ids (scopes). */
const StoredPurposes = z.object({
  purposes: z.array(z.union([z.string(), z.looseObject({ purposeId: z.string(), version: z.string().optional() })])).optional(),
});

/** The purposes a stored request names, each as an object (a scope's ids become `{ purposeId }`). */
export const storedPurposes = (request: RequestRow["request"]) =>
  (StoredPurposes.safeParse(request ?? {}).data?.purposes ?? []).map((entry) => (typeof entry === "string" ? { purposeId: entry } : entry));

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

/** The columns a page selects, in the order of `StoredRequest`. */
const storedColumns = {
  id: requests.id,
  projectId: requests.projectId,
  family: requests.family,
  identityId: requests.identityId,
  status: requests.status,
  requested: requests.requested,
  requestedAt: requests.requestedAt,
  meta: requests.meta,
  request: requests.request,
  created: requests.created,
  updated: requests.updated,
  receipt: requests.receipt,
};

/** A `requests` row as D1 returns it raw (`storedColumns` in order), JSON columns still text. */
type StoredRequest = [
  id: string,
  projectId: string,
  family: Family,
  identityId: string,
  status: Status,
  requested: string,
  requestedAt: number,
  meta: string | null,
  request: string | null,
  created: string,
  updated: string,
  receipt: string | null,
];

type ListValues = "projectId" | "family" | "status" | "identityId" | "updatedSince" | "afterId" | "afterUpdated" | "limit";

/** Which filters a page uses: each combination is its own statement, compiled once per isolate when first asked for. */
type ListShape = { status: boolean; identityId: boolean; byUpdate: boolean; after: boolean };

const listStatements = new Map<string, ReturnType<typeof compiled<ListValues>>>();

const listStatement = (shape: ListShape) => {
  const key = `${+shape.status}${+shape.identityId}${+shape.byUpdate}${+shape.after}`;
  let statement = listStatements.get(key);
  if (!statement) {
    statement = compiled<ListValues>((p, db) =>
      db
        .select(storedColumns)
        .from(requests)
        .where(
          and(
            eq(requests.projectId, p.projectId),
            eq(requests.family, p.family),
            shape.status ? eq(requests.status, p.status) : undefined,
            shape.identityId ? eq(requests.identityId, p.identityId) : undefined,
            shape.byUpdate ? gte(requests.updated, p.updatedSince) : undefined,
            shape.after ? (shape.byUpdate ? sql`(${requests.updated}, ${requests.id}) > (${p.afterUpdated}, ${p.afterId})` : gt(requests.id, p.afterId)) : undefined,
          ),
        )
        .orderBy(...(shape.byUpdate ? [asc(requests.updated), asc(requests.id)] : [asc(requests.id)]))
        .limit(p.limit),
    );
    listStatements.set(key, statement);
  }
  return statement;
};

/**
 * Maps a stored row by hand, as drizzle would (JSON columns parsed): drizzle's row mapping was a third of a list
 * page's JavaScript. Rows come as arrays (`raw`), mapped by position.
 */
const fromStored = ([id, projectId, family, identityId, status, requested, requestedAt, meta, request, created, updated, receipt]: StoredRequest): RequestRow => ({
  id,
  projectId,
  family,
  identityId,
  status,
  requested,
  requestedAt,
  meta: meta === null ? null : JSON.parse(meta),
  request: request === null ? null : JSON.parse(request),
  created,
  updated,
  receipt,
});

type ListOptions = { status?: Status; identityId?: string; updatedSince?: string; after?: Cursor; limit: number };

/**
 * One page of a family's requests, as a statement. Every filter combination has an index whose order is the page
 * order (requests_family/status/identity_idx by id, requests_updated_idx by update), so a page is a seek plus
 * `limit` rows whatever the table's size; a status within one identity is checked on the identity's rows of the
 * family as the page reads them (no index of its own: docs/performance-history.md#the-writes-storage-work).
 */
export function listStatementOf(d1: D1Database, projectId: string, family: Family, options: ListOptions) {
  const { status, identityId, updatedSince, after, limit } = options;
  const shape = { status: Boolean(status), identityId: identityId !== undefined, byUpdate: updatedSince !== undefined, after: Boolean(after) };
  return listStatement(shape)(d1, {
    projectId,
    family,
    status: status ?? null,
    identityId: identityId ?? null,
    updatedSince: updatedSince ?? null,
    afterId: after?.id ?? null,
    afterUpdated: after?.updated ?? null,
    limit,
  });
}

/** One page of a family's requests (see listStatementOf). */
export async function listQuery(d1: D1Database, projectId: string, family: Family, options: ListOptions): Promise<RequestRow[]> {
  const rows = await listStatementOf(d1, projectId, family, options).raw<StoredRequest>();
  return rows.map(fromStored);
}
