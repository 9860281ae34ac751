import { sql } from "drizzle-orm";
import { eventInsert, type EventType } from "../events/outbox";
import { compiled, type Bindable } from "../lib/compiled";
import { newId } from "../lib/ids";
import { logInsert, logValues, recordHash, type LogValues } from "../proof/log";
import type { LogPayload } from "../proof/table";
import type { FamilyTraits } from "./families";
import type { Prepared } from "./prepare";
import { statedExemptions } from "./schemas";
import { syncState } from "./state";
import { requestPurposes, requests, type RequestRow } from "./table";
import { stillHolds, type Assumed } from "./write-guard";

/**
 * The statements of the hot writes (worker/requests/record.ts), compiled once per isolate (worker/lib/compiled.ts):
 * a write binds its values only.
 */

/** Whether the batch's first statement applied: the request has the status and update stamp this write gave it. */
export const applied = (requestId: Bindable<string>, status: Bindable<string>, stamp: Bindable<string>) =>
  sql`EXISTS (SELECT 1 FROM ${requests} WHERE id = ${requestId} AND status = ${status} AND updated = ${stamp})`;

type Applied = "requestId" | "status" | "stamp";

const insertRequest = compiled<keyof RequestRow | "configVersion" | "previousReceiptHash">(
  (p) => sql`INSERT INTO ${requests} (id, project_id, family, identity_id, status, requested, requested_at, meta, request,
      created, updated, receipt)
    SELECT ${p.id}, ${p.projectId}, ${p.family}, ${p.identityId}, ${p.status}, ${p.requested}, ${p.requestedAt}, ${p.meta},
      ${p.request}, ${p.created}, ${p.updated}, ${p.receipt}
    WHERE ${stillHolds(p.projectId, p.identityId, p)}`,
);

const insertContributions = compiled<Applied | "projectId" | "identityId" | "family" | "counts" | "requested" | "requestedAt" | "contributions">(
  (p) => sql`INSERT INTO ${requestPurposes} (project_id, identity_id, purpose_id, request_id, request_type, counts, status,
      version, requested, requested_at, data_groups, processors, recipients)
    SELECT ${p.projectId}, ${p.identityId}, c.value ->> '$.purposeId', ${p.requestId}, ${p.family}, ${p.counts}, c.value ->> '$.status',
      c.value ->> '$.version', ${p.requested}, ${p.requestedAt}, c.value ->> '$.dataGroups', c.value ->> '$.processors',
      c.value ->> '$.recipients'
    FROM json_each(${p.contributions}) c WHERE ${applied(p.requestId, p.status, p.stamp)}`,
);

const requestEvent = compiled<Applied | "id" | "projectId" | "type" | "data">((p, db) =>
  eventInsert(db, p.projectId, p.type, sql`${p.data}`, { id: p.id, stamp: p.stamp, when: applied(p.requestId, p.status, p.stamp) }),
);

const requestLogEntry = compiled<Applied | keyof LogValues>((p) => logInsert(p, applied(p.requestId, p.status, p.stamp)));

/** The event and log entry of a write of `record` that left it in `status` at `stamp`, both guarded by it having applied. */
export async function eventAndLog(d1: D1Database, type: EventType, record: object, log: LogPayload & { requestId: string; status: string }) {
  const guard = { requestId: log.requestId, status: log.status, stamp: log.at };
  return [
    requestEvent(d1, { ...guard, id: newId("evt"), projectId: log.projectId, type, data: JSON.stringify(record) }),
    requestLogEntry(d1, { ...guard, ...(await logValues(log)) }),
  ];
}

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

/** The statements recording `row`: guarded by what was assumed, and everything after the request by the request. */
export async function creation(d1: D1Database, rules: FamilyTraits, row: RequestRow, record: object, prepared: Prepared, found: Assumed, receiptHash?: string) {
  const { projectId, identityId, status, requested, requestedAt, updated: stamp } = row;
  const counts = status === "completed" ? 1 : 0;
  const exempt = statedExemptions(row.meta);
  const statements = [
    insertRequest(d1, {
      ...row,
      meta: json(row.meta),
      request: json(row.request),
      configVersion: found.configVersion,
      previousReceiptHash: found.previousReceiptHash,
    }),
  ];
  if (prepared.contributions.length) {
    statements.push(
      insertContributions(d1, {
        projectId,
        identityId,
        requestId: row.id,
        family: rules.family,
        counts,
        status,
        stamp,
        requested,
        requestedAt,
        contributions: JSON.stringify(prepared.contributions),
      }),
    );
  }
  const [event, log] = await eventAndLog(d1, `${rules.family}.created`, record, {
    kind: `${rules.family}.created`,
    projectId,
    requestId: row.id,
    identityId,
    status,
    recordHash: await recordHash(row),
    receiptHash,
    ...(exempt.length ? { exemptions: exempt } : {}),
    at: stamp,
  });
  statements.push(event);
  if (counts && prepared.contributions.length) {
    statements.push(...syncState(d1, projectId, identityId, prepared.contributions.map((entry) => entry.purposeId), stamp));
  }
  statements.push(log);
  return statements;
}
