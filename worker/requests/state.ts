import type { z } from "@hono/zod-openapi";
import { and, eq, isNull, sql, type SQL } from "drizzle-orm";
import { purposes } from "../configuration/table";
import { eventInsert } from "../events/outbox";
import { identities } from "../identities/table";
import { builtOnce, type Db } from "../lib/db";
import { newId } from "../lib/ids";
import type { PermissionState, StatePurpose } from "./schemas";
import { permissionStates, requestPurposes } from "./table";

const ps = permissionStates;

/** The counting contribution that wins a purpose: latest `requested`, then the later write. One index seek. */
const winnerSeq = (projectId: string, identityId: string, purposeId: SQL) => sql`(
  SELECT w.seq FROM ${requestPurposes} w
  WHERE w.project_id = ${projectId} AND w.identity_id = ${identityId} AND w.purpose_id = ${purposeId} AND w.counts = 1
  ORDER BY w.requested_at DESC, w.seq DESC LIMIT 1)`;

/**
 * Statements that bring the materialised state of the given purposes in line with the stored requests, to put
 * in the same batch as the change: entries whose winner changed are rewritten, entries left without any counting
 * request are removed, and if anything changed one `permission_state.changed` event carries the changed entries
 * (`purposes`) and the purposes that lost their entry (`removedPurposeIds`). Everything is decided inside the
 * batch (a D1 transaction), so concurrent writes for one identity cannot interleave wrongly. Raw SQL: run with
 * `atomically`.
 */
export function syncState(db: Db, projectId: string, identityId: string, purposeIds: string[], stamp: string) {
  const changeId = newId("chg");
  const affected = JSON.stringify([...new Set(purposeIds)]);
  const orphaned = sql`s.purpose_id IN (SELECT value FROM json_each(${affected}))
    AND NOT EXISTS (SELECT 1 FROM ${requestPurposes} w WHERE w.project_id = s.project_id AND w.identity_id = s.identity_id
      AND w.purpose_id = s.purpose_id AND w.counts = 1)`;
  const mine = sql`s.project_id = ${projectId} AND s.identity_id = ${identityId}`;
  return [
    sql`
      INSERT INTO ${ps} (project_id, identity_id, purpose_id, status, version, request_id, request_type, requested,
        requested_at, data_groups, processors, recipients, updated, change_id)
      SELECT rp.project_id, rp.identity_id, rp.purpose_id, rp.status, rp.version, rp.request_id, rp.request_type,
        rp.requested, rp.requested_at, rp.data_groups, rp.processors, rp.recipients, ${stamp}, ${changeId}
      FROM json_each(${affected}) a
      JOIN ${requestPurposes} rp ON rp.seq = ${winnerSeq(projectId, identityId, sql`a.value`)}
      WHERE true
      ON CONFLICT (project_id, identity_id, purpose_id) DO UPDATE SET
        status = excluded.status, version = excluded.version, request_id = excluded.request_id,
        request_type = excluded.request_type, requested = excluded.requested, requested_at = excluded.requested_at,
        data_groups = excluded.data_groups, processors = excluded.processors, recipients = excluded.recipients,
        updated = excluded.updated, change_id = excluded.change_id
      WHERE ${ps}.request_id <> excluded.request_id`,
    eventInsert(
      db,
      projectId,
      "permission_state.changed",
      sql`json_object(
        'identityId', ${identityId},
        'purposes', json((SELECT json_group_array(json_object('purposeId', s.purpose_id, 'status', s.status,
            'version', s.version, 'requestId', s.request_id, 'requestType', s.request_type, 'requested', s.requested,
            'dataGroups', json(s.data_groups), 'processors', json(s.processors), 'recipients', json(s.recipients)))
          FROM ${ps} s WHERE ${mine} AND s.change_id = ${changeId})),
        'removedPurposeIds', json((SELECT json_group_array(s.purpose_id) FROM ${ps} s WHERE ${mine} AND ${orphaned})))`,
      { stamp, when: sql`EXISTS (SELECT 1 FROM ${ps} s WHERE ${mine} AND (s.change_id = ${changeId} OR (${orphaned})))` },
    ),
    sql`DELETE FROM ${ps} AS s WHERE ${mine} AND ${orphaned}`,
  ];
}

type StateRow = {
  identityId: string;
  entry: typeof permissionStates.$inferSelect | null;
  purpose: { referenceId: string; version: string; content: (typeof purposes.$inferSelect)["content"] } | null;
};

/**
 * The identity's state as one query (identity, its entries, and each entry's live purpose): its cost grows with
 * the number of purposes, never with the number of past requests. No rows means no such identity. `identity` is
 * its id, or SQL that selects it (the bootstrap names a visitor by key). Every column has its own name, so the
 * query can go in a D1 batch (which returns rows by column name).
 */
export const stateQuery = (db: Db, projectId: string, identity: string | SQL) =>
  db
    .select({
      identityId: identities.id,
      entry: permissionStates,
      purpose: {
        referenceId: purposes.referenceId,
        version: sql<string>`${purposes.version}`.as("purpose_version"),
        content: purposes.content,
      },
    })
    .from(identities)
    .leftJoin(ps, and(eq(ps.projectId, identities.projectId), eq(ps.identityId, identities.id)))
    .leftJoin(purposes, and(eq(purposes.projectId, ps.projectId), eq(purposes.id, ps.purposeId), isNull(purposes.deleted)))
    .where(and(eq(identities.projectId, projectId), eq(identities.id, identity)))
    .orderBy(ps.purposeId);

/** The state query of one identity by id, built once per isolate (the permission-state read). */
export const stateById = builtOnce((db) => stateQuery(db, sql.placeholder("projectId") as unknown as string, sql.placeholder("identityId") as unknown as string));

/**
 * Applies the read-time rules: entries of deleted purposes drop out, permissions given to an older version than
 * the purpose's current one are outdated and drop out (the subject has to be asked again), and data groups and
 * parties no longer on the purpose are filtered out. Objections stay whatever the version: an objection is
 * not agreement to a wording, so a reworded purpose does not lift it.
 */
export function toPermissionState(projectId: string, rows: StateRow[]): z.infer<typeof PermissionState> | undefined {
  if (rows.length === 0) return undefined;
  const entries: z.infer<typeof StatePurpose>[] = [];
  let updated: string | null = null;
  for (const { entry, purpose } of rows) {
    if (!entry || !purpose) continue;
    if (entry.requestType === "permission" && Number(entry.version) < Number(purpose.version)) continue;
    const { dataGroups, processors, recipients } = purpose.content;
    entries.push({
      purposeId: entry.purposeId,
      referenceId: purpose.referenceId,
      version: entry.version,
      status: entry.status,
      requestId: entry.requestId,
      requestType: entry.requestType as "permission" | "objection",
      requested: entry.requested,
      dataGroups: entry.dataGroups.filter((g) => dataGroups.includes(g.dataGroupId)),
      processors: entry.processors.filter((p) => processors.includes(p.partyId)),
      recipients: entry.recipients.filter((p) => recipients.includes(p.partyId)),
    });
    if (!updated || entry.updated > updated) updated = entry.updated;
  }
  return { projectId, identityId: rows[0].identityId, updated, purposes: entries };
}
