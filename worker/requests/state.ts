import type { z } from "@hono/zod-openapi";
import { and, eq, isNull, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { purposes } from "../configuration/table";
import { eventInsert } from "../events/outbox";
import { identities } from "../identities/table";
import { compiled, type Bindable, type Placeholders } from "../lib/compiled";
import type { Db } from "../lib/db";
import { newId } from "../lib/ids";
import type { PermissionState, StatePurpose } from "./schemas";
import { permissionStates, requestPurposes, type Family } from "./table";

const ps = permissionStates;

/** The counting contribution that wins a purpose: latest `requested`, then the later write. One index seek. */
const winnerSeq = (projectId: SQLWrapper, identityId: SQLWrapper, purposeId: SQL) => sql`(
  SELECT w.seq FROM ${requestPurposes} w
  WHERE w.project_id = ${projectId} AND w.identity_id = ${identityId} AND w.purpose_id = ${purposeId} AND w.counts = 1
  ORDER BY w.requested_at DESC, w.seq DESC LIMIT 1)`;

type SyncValues = "projectId" | "identityId" | "affected" | "stamp" | "changeId" | "eventId";

/** The state entries of the affected purposes that lost every counting request. */
const orphaned = (p: Placeholders<SyncValues>) => sql`s.purpose_id IN (SELECT value FROM json_each(${p.affected}))
    AND NOT EXISTS (SELECT 1 FROM ${requestPurposes} w WHERE w.project_id = s.project_id AND w.identity_id = s.identity_id
      AND w.purpose_id = s.purpose_id AND w.counts = 1)`;
const mine = (p: Placeholders<SyncValues>) => sql`s.project_id = ${p.projectId} AND s.identity_id = ${p.identityId}`;

const rewriteWinners = compiled<SyncValues>(
  (p) => sql`
      INSERT INTO ${ps} (project_id, identity_id, purpose_id, status, version, request_id, request_type, requested,
        requested_at, data_groups, processors, recipients, updated, change_id)
      SELECT rp.project_id, rp.identity_id, rp.purpose_id, rp.status, rp.version, rp.request_id, rp.request_type,
        rp.requested, rp.requested_at, rp.data_groups, rp.processors, rp.recipients, ${p.stamp}, ${p.changeId}
      FROM json_each(${p.affected}) a
      JOIN ${requestPurposes} rp ON rp.seq = ${winnerSeq(p.projectId, p.identityId, sql`a.value`)}
      WHERE true
      ON CONFLICT (project_id, identity_id, purpose_id) DO UPDATE SET
        status = excluded.status, version = excluded.version, request_id = excluded.request_id,
        request_type = excluded.request_type, requested = excluded.requested, requested_at = excluded.requested_at,
        data_groups = excluded.data_groups, processors = excluded.processors, recipients = excluded.recipients,
        updated = excluded.updated, change_id = excluded.change_id
      WHERE ${ps}.request_id <> excluded.request_id`,
);

const stateChanged = compiled<SyncValues>((p, db) =>
  eventInsert(
    db,
    p.projectId,
    "permission_state.changed",
    sql`json_object(
        'identityId', ${p.identityId},
        'purposes', json((SELECT json_group_array(json_object('purposeId', s.purpose_id, 'status', s.status,
            'version', s.version, 'requestId', s.request_id, 'requestType', s.request_type, 'requested', s.requested,
            'dataGroups', json(s.data_groups), 'processors', json(s.processors), 'recipients', json(s.recipients)))
          FROM ${ps} s WHERE ${mine(p)} AND s.change_id = ${p.changeId})),
        'removedPurposeIds', json((SELECT json_group_array(s.purpose_id) FROM ${ps} s WHERE ${mine(p)} AND ${orphaned(p)})))`,
    {
      id: p.eventId,
      stamp: p.stamp,
      when: sql`EXISTS (SELECT 1 FROM ${ps} s WHERE ${mine(p)} AND (s.change_id = ${p.changeId} OR (${orphaned(p)})))`,
    },
  ),
);

const dropOrphans = compiled<SyncValues>((p) => sql`DELETE FROM ${ps} AS s WHERE ${mine(p)} AND ${orphaned(p)}`);

/**
 * Statements that bring the materialised state of the given purposes in line with the stored requests, to put
 * in the same batch as the change: entries whose winner changed are rewritten, entries left without any counting
 * request are removed, and if anything changed one `permission_state.changed` event carries the changed entries
 * (`purposes`) and the purposes that lost their entry (`removedPurposeIds`). Everything is decided inside the
 * batch (a D1 transaction), so concurrent writes for one identity cannot interleave wrongly. Compiled once per
 * isolate (worker/lib/compiled.ts): a write only binds its values.
 */
export function syncState(d1: D1Database, projectId: string, identityId: string, purposeIds: string[], stamp: string) {
  const values = {
    projectId,
    identityId,
    affected: JSON.stringify([...new Set(purposeIds)]),
    stamp,
    changeId: newId("chg"),
    eventId: newId("evt"),
  };
  return [rewriteWinners(d1, values), stateChanged(d1, values), dropOrphans(d1, values)];
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
export const stateQuery = (db: Db, projectId: Bindable<string>, identity: Bindable<string> | SQL) =>
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

const stateByIdQuery = compiled<"projectId" | "identityId">((p, db) => stateQuery(db, p.projectId, p.identityId));

/** A row of the state query as D1 returns it (every column by its own name), mapped as drizzle would map it. */
function stateRow(row: Record<string, unknown>): StateRow {
  const text = (name: string) => row[name] as string;
  const entry: StateRow["entry"] =
    row.purpose_id === null
      ? null
      : {
          projectId: text("project_id"),
          identityId: text("identity_id"),
          purposeId: text("purpose_id"),
          status: text("status") as "approved" | "denied",
          version: text("version"),
          requestId: text("request_id"),
          requestType: text("request_type") as Family,
          requested: text("requested"),
          requestedAt: row.requested_at as number,
          dataGroups: JSON.parse(text("data_groups")),
          processors: JSON.parse(text("processors")),
          recipients: JSON.parse(text("recipients")),
          updated: text("updated"),
          changeId: row.change_id as string | null,
        };
  const purpose = row.reference_id === null ? null : { referenceId: text("reference_id"), version: text("purpose_version"), content: JSON.parse(text("content")) };
  return { identityId: text("id"), entry, purpose };
}

/**
 * The state query of one identity by id (the permission-state read), compiled once per isolate, its rows mapped by
 * hand: drizzle's row mapping was most of this read's JavaScript (docs/performance-history.md#the-first-cpu-profile).
 */
export async function stateById(d1: D1Database, values: { projectId: string; identityId: string }): Promise<StateRow[]> {
  const { results } = await stateByIdQuery(d1, values).all<Record<string, unknown>>();
  return results.map(stateRow);
}

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
