import { z } from "@hono/zod-openapi";
import { and, eq, sql, type SQL } from "drizzle-orm";
import type { Caller, Env } from "../env";
import { eventInsert, noteWebhookPresence } from "../events/outbox";
import { aliases, identities } from "../identities/table";
import { canonicalJson } from "../lib/canonical";
import { sha256Hex } from "../lib/crypto";
import { atomically, getDb, type Statement } from "../lib/db";
import { ApiError, conflict, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { now } from "../lib/time";
import { recordErasure } from "../proof/ledger";
import { logAppend, logErase, recordHash } from "../proof/log";
import { receiptsOn, signReceipt, type ReceiptPurpose } from "../proof/receipts";
import type { CommonInput, FamilyRules, FamilyTraits } from "./families";
import type { Lookup, Prepared } from "./prepare";
import { toRecord } from "./queries";
import type { Status } from "./schemas";
import { assumedLookup, freshLookup, learn, oneAtATime, outcome, stillHolds, type Outcome } from "./snapshot";
import { applied, creation, eventAndLog, immutable } from "./statements";
import { syncState } from "./state";
import { permissionStates, requestPurposes, requests } from "./table";
import { parseTimestamp } from "./timestamps";
import { witnessedMeta, witnessRequested, witnessRuleOf } from "./witness";

/**
 * The write path: the one module that records a privacy request, moves its status and deletes an identity. Each
 * write is one D1 batch holding the change, the permission state it shapes, its outbox event, its log entry and
 * (with receipts on) its signed receipt; nothing of it exists unless all of it does.
 */

/** Who writes, and where: `db` is the project's database (the call's D1 session on it, `c.var.db`). */
export type Writer = { env: Env; db: D1Database; issuer: string; caller: Caller };
type RequestRow = typeof requests.$inferSelect;

/** Purposes a stored request names, whatever its family: objects with a version (permissions, objections) or ids (scopes). */
const StoredPurposes = z.object({
  purposes: z.array(z.union([z.string(), z.looseObject({ purposeId: z.string(), version: z.string().optional() })])).optional(),
});

const namedPurposes = (request: RequestRow["request"]) =>
  (StoredPurposes.safeParse(request ?? {}).data?.purposes ?? []).map((entry) =>
    typeof entry === "string" ? { purposeId: entry } : entry,
  );

/** A stored request's `meta`, as far as a receipt reads it. */
const WithContext = z.looseObject({ context: z.record(z.string(), z.unknown()).optional() });

/**
 * SHA-256 of a purpose version's canonical content, per content object the isolate read: a version edited in place
 * (requireNewConsent: false) bumps the project's config version, so it is read again as a new object.
 */
const contentHashes = new WeakMap<object, Promise<string>>();
function contentHash(content: object) {
  let hash = contentHashes.get(content);
  if (!hash) {
    hash = sha256Hex(canonicalJson(content));
    contentHashes.set(content, hash);
  }
  return hash;
}

/** Signs the receipt of one write of `row` (docs/proof.md#signed-receipts), or nothing when receipts are off. */
async function receiptOf(
  writer: Writer,
  traits: FamilyTraits,
  found: Lookup,
  row: RequestRow,
  event: "created" | "updated" | "withdrawn",
  stamp: string,
) {
  if (!receiptsOn(writer.env)) return undefined;
  const purposes: ReceiptPurpose[] = await Promise.all(
    namedPurposes(row.request).map(async (entry) => {
      const version = entry.version ?? found.purposes.get(entry.purposeId)?.version ?? "";
      const content = found.versions.get(`${entry.purposeId}@${version}`);
      return {
        ...entry,
        version,
        contentSha256: content ? await contentHash(content) : null,
        legalGround: content?.legalGround ?? null,
      };
    }),
  );
  const receiptId = newId("rct");
  const context = WithContext.safeParse(row.meta ?? {}).data?.context;
  return signReceipt(writer.env, {
    iss: writer.issuer,
    iat: Math.floor(Date.parse(stamp) / 1000),
    jti: receiptId,
    sub: row.identityId,
    receiptId,
    event,
    projectId: row.projectId,
    controller: found.project?.controller ?? null,
    jurisdiction: found.project?.jurisdiction ?? null,
    identityId: row.identityId,
    requestId: row.id,
    family: row.family,
    status: row.status,
    purposes,
    scope: traits.requestIsScope ? row.request : null,
    requested: row.requested,
    received: row.created,
    issued: stamp,
    requestedBy: row.meta?.requestedBy ?? null,
    collectionMethod: context?.collectionMethod ?? null,
    application: context?.application ?? null,
    language: context?.language ?? found.project?.defaultLanguage ?? null,
    previousReceiptHash: found.previousReceiptHash,
  });
}

/** Attempts at a write whose assumptions other writes keep invalidating (the same identity written concurrently). */
const maxAttempts = 4;

const concurrentWrites = () => conflict("concurrent_update", "The identity was written concurrently too often; try again.");

/** Runs a write batch ending in `outcome`; returns what it reports, and passes webhook presence on to dispatch. */
async function write(d1: D1Database, projectId: string, statements: (Statement | D1PreparedStatement)[], last: D1PreparedStatement): Promise<Outcome> {
  const results = await atomically(d1, [...statements, last]);
  const after = results.at(-1)!.results[0] as Outcome;
  noteWebhookPresence(projectId, Boolean(after.webhooks));
  return after;
}

/**
 * POST: records a new request of any family, in one round trip when the isolate knows the configuration (see
 * worker/requests/snapshot.ts): validation runs against what the isolate knows, and the write only applies if that
 * still holds; if not, the batch reports the current values and the write is tried again with them.
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
  const db = getDb(writer.db);
  const names = rules.names(input);
  const status = (rule.choosesStatus ? rules.askedStatus(input) : undefined) ?? rules.defaultStatus;
  const requestedAt = parseTimestamp(requested)!;
  const id = newId(rules.idPrefix);
  const meta = witnessedMeta(caller, input.meta, imported);
  return oneAtATime(projectId, identityId, async () => {
    let found = await assumedLookup(db, projectId, identityId, names);
    for (let attempt = 1; ; attempt++) {
      let prepared: Prepared;
      try {
        prepared = rules.prepare(found, input);
      } catch (error) {
        // Only what was just read may refuse a request: the isolate's copy may be out of date.
        if (found.fresh) throw error;
        found = await freshLookup(db, projectId, identityId, names);
        continue;
      }
      const row: RequestRow = {
        id,
        projectId,
        family: rules.family,
        identityId,
        status,
        requested,
        requestedAt,
        meta,
        request: prepared.request,
        created: stamp,
        updated: stamp,
        receipt: null,
      };
      const receipt = await receiptOf(writer, rules, found, row, "created", stamp);
      row.receipt = receipt?.jws ?? null;
      const record = toRecord(row);
      const statements = await creation(writer.db, rules, row, record, prepared, found, receipt?.hash);
      const after = await write(writer.db, projectId, statements, outcome(writer.db, { projectId, identityId, requestId: id, status, stamp }));
      const next = learn(projectId, identityId, names, found, after);
      if (after.applied) return record;
      if (attempt === maxAttempts) throw concurrentWrites();
      found = next ?? (await freshLookup(db, projectId, identityId, names));
    }
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
  const purposeIds = namedPurposes(row.request).map((entry) => entry.purposeId);
  const names = { purposeIds, dataGroupIds: [] };
  const change = to === "withdrawn" ? "withdrawn" : "updated";
  return oneAtATime(projectId, identityId, async () => {
    let found = receiptsOn(env) ? await assumedLookup(db, projectId, identityId, names) : undefined;
    for (let attempt = 1; ; attempt++) {
      const moved: RequestRow = { ...row, status: to, updated: stamp };
      const receipt = found ? await receiptOf(writer, traits, found, moved, change, stamp) : undefined;
      moved.receipt = receipt?.jws ?? row.receipt;
      const record = toRecord(moved);
      const [event, log] = await eventAndLog(writer.db, `${traits.family}.${change}`, record, {
        kind: `${traits.family}.${change}`,
        projectId,
        requestId: row.id,
        identityId,
        status: to,
        recordHash: await recordHash(immutable(row)),
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
      const after = await write(writer.db, projectId, statements, outcome(writer.db, { projectId, identityId, requestId: row.id, status: to, stamp }));
      const next = found && learn(projectId, identityId, names, found, after);
      if (after.applied) return record;
      if (after.current !== from) throw conflict("concurrent_update", `The ${traits.title} changed meanwhile; read it and try again.`);
      if (attempt === maxAttempts) throw concurrentWrites();
      found = next ?? (await freshLookup(db, projectId, identityId, names));
    }
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
  const results = await atomically(writer.db, [
    eventInsert(db, projectId, "identity.deleted", { projectId, identityId }, { stamp, when: exists }),
    logErase(projectId, identityId, subject, guard),
    await logAppend({ kind: "identity.deleted", projectId, subject, at: stamp }, exists),
    db.delete(permissionStates).where(and(eq(permissionStates.projectId, projectId), eq(permissionStates.identityId, identityId), guard)),
    db.delete(requests).where(and(eq(requests.projectId, projectId), eq(requests.identityId, identityId), guard)),
    db.delete(aliases).where(and(eq(aliases.projectId, projectId), eq(aliases.identityId, identityId), guard)),
    db.delete(identities).where(identityScope).returning({ id: identities.id }),
  ]);
  return (results.at(-1)?.results.length ?? 0) > 0;
}
