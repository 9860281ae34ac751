import type { z } from "@hono/zod-openapi";
import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Context } from "hono";
import { issuerOf } from "../auth/tokens";
import type { AppEnv, Caller } from "../env";
import { eventInsert } from "../events/outbox";
import { aliases, identities } from "../identities/table";
import { getDb, type Statement } from "../lib/db";
import { ApiError, conflict, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { now } from "../lib/time";
import { recordErasure } from "../proof/ledger";
import { logAppend, logErase, recordHash } from "../proof/log";
import { receiptsOn } from "../proof/receipts";
import { receiptOf } from "./receipts";
import type { CommonInput, FamilyRules, FamilyTraits } from "./families";
import { checkExemptions, withExempt } from "./prepare";
import { storedPurposes, toRecord } from "./queries";
import { statedExemptions } from "./schemas";
import { applied, creation, eventAndLog } from "./statements";
import { syncState } from "./state";
import { permissionStates, requestPurposes, requests, type RequestRow, type Status } from "./table";
import { parseTimestamp } from "./timestamps";
import { readSignals, type Signals } from "../../shared/signals/signals";
import { witnessedMeta, witnessRequested, witnessRuleOf } from "./witness";
import { commit, committerOf, type Committer } from "../events/commit";
import { guardedWrite, stillHolds } from "./write-guard";

/**
 * The write path: the one module that records a privacy request, moves its status and deletes an identity. Each
 * write is one D1 batch holding the change, the permission state it shapes, its outbox event, its log entry and
 * (with receipts on) its signed receipt; nothing of it exists unless all of it does. The write guard
 * (worker/requests/write-guard.ts) runs the batches through `commit` (worker/events/commit.ts), which hands their events to delivery.
 */

/** Who writes: the caller, what signs and commits for it, and the browser signals its request carried. */
export type Writer = Committer & { issuer: string; caller: Caller; signals: Signals };

/** The writer of an API call: its caller (or the one given, e.g. the bootstrap's visitor). */
export const writerOf = (c: Context<AppEnv>, caller: Caller = c.get("caller")): Writer => ({
  ...committerOf(c),
  issuer: issuerOf(c.env),
  caller,
  signals: readSignals(c.env, c.req.raw.headers),
});

/**
 * POST: records a new request of any family, in one round trip when the isolate knows the configuration:
 * validation runs against what the isolate knows, and the write only applies if that still holds (the write guard).
 */
export async function recordRequest<S extends z.ZodType<CommonInput>, U extends z.ZodType>(
  writer: Writer,
  rules: FamilyRules<S, U>,
  input: z.output<S>,
) {
  const { caller } = writer;
  const { projectId } = caller;
  const { identityId } = input;
  const rule = witnessRuleOf(caller);
  const stamp = now();
  const requested = input.requested ?? stamp;
  const imported = witnessRequested(rule, requested, Date.parse(stamp));
  const status = (rule.choosesStatus ? rules.askedStatus(input) : undefined) ?? rules.defaultStatus;
  const id = newId(rules.idPrefix);
  const row: RequestRow = {
    id,
    projectId,
    family: rules.family,
    identityId,
    status,
    requested,
    requestedAt: parseTimestamp(requested)!,
    meta: witnessedMeta(caller, input.meta, imported, writer.signals),
    request: null,
    created: stamp,
    updated: stamp,
    receipt: null,
  };
  const exempt = statedExemptions(input.meta);
  return guardedWrite(writer, { projectId, identityId, names: withExempt(rules.names(input), exempt) }, {
    assumes: true,
    async attempt(found) {
      checkExemptions(found, exempt);
      const prepared = rules.prepare(found, input);
      const written: RequestRow = { ...row, request: prepared.request };
      const receipt = await receiptOf(writer, written, "created", stamp, found, rules.requestIsScope);
      written.receipt = receipt?.jws ?? null;
      const record = toRecord(written);
      const statements = await creation(writer.db, rules, written, record, prepared, found, receipt?.hash);
      return { statements, requestId: id, status, stamp, result: record };
    },
  });
}

export async function findRequest(d1: D1Database, projectId: string, traits: FamilyTraits, requestId: string) {
  const [row] = await getDb(d1)
    .select()
    .from(requests)
    .where(and(eq(requests.projectId, projectId), eq(requests.family, traits.family), eq(requests.id, requestId)))
    .limit(1);
  if (!row) throw notFound(`The ${traits.title}`);
  return row;
}

/**
 * PUT and DELETE: one guarded status move with its event, receipt and log entry and, when counting changes, the
 * state. Two round trips: the request is read (its status and payload decide the move), then the move is written,
 * guarded like a POST's write when it signs a receipt.
 */
export async function moveRequest(writer: Writer, traits: FamilyTraits, requestId: string, to: Status) {
  const { caller, env } = writer;
  const db = getDb(writer.db);
  const row = await findRequest(writer.db, caller.projectId, traits, requestId);
  const from = row.status;
  if (from === to) return toRecord(row);
  if (!traits.transitions[from].includes(to)) {
    throw new ApiError(409, "invalid_transition", `A ${traits.title} cannot move from ${from} to ${to}.`, {
      members: { from, to, allowed: traits.transitions[from] },
    });
  }
  const { projectId, identityId } = row;
  const stamp = now();
  const purposeIds = storedPurposes(row.request).map((entry) => entry.purposeId);
  const change = to === "withdrawn" ? "withdrawn" : "updated";
  const names = withExempt({ purposeIds, dataGroupIds: [] }, statedExemptions(row.meta));
  return guardedWrite(writer, { projectId, identityId, names }, {
    assumes: receiptsOn(env),
    async attempt(found) {
      const moved: RequestRow = { ...row, status: to, updated: stamp };
      const receipt = found ? await receiptOf(writer, moved, change, stamp, found, traits.requestIsScope) : undefined;
      moved.receipt = receipt?.jws ?? row.receipt;
      const record = toRecord(moved);
      const [event, log] = await eventAndLog(writer.db, `${traits.family}.${change}`, record, {
        kind: `${traits.family}.${change}`,
        projectId,
        requestId: row.id,
        identityId,
        status: to,
        recordHash: await recordHash(row),
        receiptHash: receipt?.hash,
        at: stamp,
      });
      // Everything after the first statement depends on it having applied (no concurrent move got there first).
      const statements: (Statement | D1PreparedStatement)[] = [
        db
          .update(requests)
          .set({ status: to, updated: stamp, receipt: moved.receipt })
          .where(and(eq(requests.id, row.id), eq(requests.status, from), found ? stillHolds(projectId, identityId, found) : undefined)),
        event,
        log,
      ];
      const counts = to === "completed";
      if ((from === "completed") !== counts && traits.shapesState) {
        statements.push(
          db.update(requestPurposes).set({ counts: counts ? 1 : 0 }).where(and(eq(requestPurposes.requestId, row.id), applied(row.id, to, stamp))),
          ...syncState(writer.db, projectId, identityId, purposeIds, stamp),
        );
      }
      return { statements, requestId: row.id, status: to, stamp, result: record };
    },
    refused(after) {
      if (after.current !== from) throw conflict("concurrent_update", `The ${traits.title} changed meanwhile; read it and try again.`);
    },
  });
}

/**
 * DELETE identity: aliases, every request and the permission state go, with an `identity.deleted` event and a log
 * entry; the identity's log entries keep their hashes (so sealed trees still verify) and lose their payload. The
 * erasure ledger (outside D1) records it first, so it can be re-applied after a restore.
 * Returns false when there is no such identity.
 */
export async function eraseIdentity(writer: Writer, identityId: string, onlyIf?: SQL): Promise<boolean> {
  const { projectId } = writer.caller;
  const db = getDb(writer.db);
  const stamp = now();
  const subject = await recordErasure(writer.env, projectId, identityId, stamp);
  // `onlyIf` (an If-Match revision check) guards every statement, so a refused precondition erases nothing.
  const identityScope = and(eq(identities.projectId, projectId), eq(identities.id, identityId), onlyIf);
  const exists = sql`EXISTS (SELECT 1 FROM ${identities} WHERE ${identityScope})`;
  const guard = onlyIf && exists;
  const erased = await commit(
    writer,
    projectId,
    [
      eventInsert(db, projectId, "identity.deleted", { projectId, identityId }, { stamp, when: exists }),
      logErase(projectId, identityId, subject, guard),
      await logAppend({ kind: "identity.deleted", projectId, subject, at: stamp }, exists),
      db.delete(permissionStates).where(and(eq(permissionStates.projectId, projectId), eq(permissionStates.identityId, identityId), guard)),
      db.delete(requests).where(and(eq(requests.projectId, projectId), eq(requests.identityId, identityId), guard)),
      db.delete(aliases).where(and(eq(aliases.projectId, projectId), eq(aliases.identityId, identityId), guard)),
      db.delete(identities).where(identityScope).returning({ id: identities.id }),
    ],
    (results) => ({ applied: (results.at(-1)?.results.length ?? 0) > 0 }),
  );
  return erased.applied;
}
