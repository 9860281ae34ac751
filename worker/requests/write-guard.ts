import { sql, type SQL } from "drizzle-orm";
import { commit, type Committer } from "../events/commit";
import { webhooks } from "../events/table";
import { identities } from "../identities/table";
import { compiled, type Bindable } from "../lib/compiled";
import { getDb, type Statement } from "../lib/db";
import { ApiError, conflict } from "../lib/errors";
import { latestReceipt } from "../proof/log";
import { projects } from "../projects/table";
import { lookup, type Lookup, type Names } from "./prepare";
import { requests } from "./table";

/**
 * The write guard: how a write of one identity's requests commits in one D1 round trip. A write needs the
 * configuration it validates against and the identity's latest receipt hash (the next receipt names it) before it can
 * sign; reading them first costs a round trip. Instead the isolate keeps what earlier writes read and wrote, and the
 * write batch checks it inside its transaction: the project's `config_version` (bumped by triggers on every change
 * to projects, purposes, their versions, data groups and parties), the identity still in the project, and the
 * receipt hash. If any differs nothing is written, and the batch's last statement returns the current values, so
 * the retry needs no separate read either. Writes of one identity run one after another in the isolate.
 *
 * The write path (worker/requests/record.ts) calls `guardedWrite` with what it writes; its statements carry
 * `stillHolds`. Every batch of the write path goes through `commit` (worker/events/commit.ts), which hands the events it wrote
 * to delivery.
 */

/** What a write assumed: a `Lookup`, and whether it came from the database just now (else from the isolate's copy). */
export type Assumed = Lookup & { fresh: boolean };

/** What the write batch reports in its last statement, whether or not the write applied. */
export type Outcome = {
  applied: number;
  /** The request's status now (null: no such request). */
  current: string | null;
  version: number | null;
  identity: number;
  receipt: string | null;
  webhooks: number;
};

/** The identity a write extends the receipt chain of, and the configuration its body names. */
export type Target = { projectId: string; identityId: string; names: Names };

/** One attempt at a write: its statements, the request they leave in `status` at `stamp`, and what the write returns. */
export type Attempt<T> = {
  statements: (Statement | D1PreparedStatement)[];
  requestId: string;
  status: string;
  stamp: string;
  result: T;
};

export type Plan<T, A extends boolean> = {
  /** Whether the write names the receipt chain (it signs a receipt): then it assumes, and the guard checks, a `Lookup`. */
  assumes: A;
  /** Builds the statements from what is assumed (undefined when it assumes nothing). May refuse (an `ApiError`). */
  attempt(found: A extends true ? Assumed : Assumed | undefined): Promise<Attempt<T>>;
  /** Called when an attempt did not apply, before it is tried again: throws when trying again is pointless. */
  refused?(after: Outcome): void;
};

/** Attempts at a write whose assumptions other writes keep invalidating (the same identity written concurrently). */
const maxAttempts = 4;

/**
 * Runs a write: one identity's writes one at a time, each from what the isolate knows (else one read), retried
 * with what its batch reported when that no longer held. Only what was just read may refuse a request: a refusal
 * from the isolate's copy is checked again against a fresh read.
 */
export function guardedWrite<T, A extends boolean>(committer: Committer, target: Target, plan: Plan<T, A>): Promise<T> {
  const { db } = committer;
  const { projectId, identityId } = target;
  return oneAtATime(projectId, identityId, async () => {
    let found = plan.assumes ? await assumedLookup(db, target) : undefined;
    for (let attempt = 1; ; attempt++) {
      let planned: Attempt<T>;
      try {
        planned = await (plan as Plan<T, boolean>).attempt(found);
      } catch (error) {
        if (!(error instanceof ApiError) || !found || found.fresh) throw error;
        found = await freshLookup(db, target);
        continue;
      }
      const { statements, requestId, status, stamp } = planned;
      const after = await commit(committer, projectId, [...statements, outcome(db, { projectId, identityId, requestId, status, stamp })], (results) => {
        const reported = results.at(-1)!.results[0] as Outcome;
        return { applied: Boolean(reported.applied), webhooks: Boolean(reported.webhooks), reported };
      });
      const next = found && learn(target, found, after.reported);
      if (after.applied) return planned.result;
      plan.refused?.(after.reported);
      if (attempt === maxAttempts) throw conflict("concurrent_update", "The identity was written concurrently too often; try again.");
      found = next ?? (await freshLookup(db, target));
    }
  });
}

/**
 * The condition under which what the write assumed (the project's `configVersion`, the identity's
 * `previousReceiptHash`, the identity itself) still holds, evaluated inside its batch.
 */
export const stillHolds = (
  projectId: Bindable<string>,
  identityId: Bindable<string>,
  found: { configVersion: Bindable<number>; previousReceiptHash: Bindable<string | null> },
): SQL => sql`${configVersion(projectId)} = ${found.configVersion}
  AND EXISTS (SELECT 1 FROM ${identities} WHERE ${identities.projectId} = ${projectId} AND ${identities.id} = ${identityId})
  AND ${latestReceipt(projectId, identityId)} IS ${found.previousReceiptHash}`;

/** After a read of the identity's receipt chain elsewhere (the bootstrap's): its next write need not read it. */
export const learnReceipt = (projectId: string, identityId: string, hash: string | null) =>
  keep(receiptHashes, identityKey(projectId, identityId), hash);

// What the isolate knows: configurations by what they name, receipt hashes by identity.

const entriesPerCache = 10_000;
const configs = new Map<string, Omit<Lookup, "identityExists" | "previousReceiptHash">>();
const receiptHashes = new Map<string, string | null>();

const configKey = (projectId: string, names: Names) => `${projectId}\n${names.purposeIds.join(",")}\n${names.dataGroupIds.join(",")}`;
const identityKey = (projectId: string, identityId: string) => `${projectId}\n${identityId}`;

function keep<V>(cache: Map<string, V>, key: string, value: V) {
  if (cache.size >= entriesPerCache) cache.clear();
  cache.set(key, value);
}

/** Reads the configuration and the identity's receipt chain (one round trip), and keeps them for the next write. */
async function freshLookup(d1: D1Database, { projectId, identityId, names }: Target): Promise<Assumed> {
  const { identityExists, previousReceiptHash, ...config } = await lookup(getDb(d1), projectId, identityId, names);
  keep(configs, configKey(projectId, names), config);
  keep(receiptHashes, identityKey(projectId, identityId), previousReceiptHash);
  return { identityExists, previousReceiptHash, ...config, fresh: true };
}

/**
 * Whatever this isolate or the database knows: the isolate's copy when it knows the configuration (an identity it
 * has not seen is assumed to exist and to have no receipt yet, a first consent, which the guard checks like the
 * rest), else one read.
 */
function assumedLookup(d1: D1Database, target: Target): Promise<Assumed> {
  const { projectId, identityId, names } = target;
  const config = configs.get(configKey(projectId, names));
  if (!config) return freshLookup(d1, target);
  const receipt = receiptHashes.get(identityKey(projectId, identityId));
  return Promise.resolve({ ...config, identityExists: true, previousReceiptHash: receipt ?? null, fresh: false });
}

/**
 * After a write batch: keeps the identity's receipt hash as it now stands, and returns what the next attempt may
 * assume when this one did not apply (undefined when the configuration changed and has to be read again).
 */
function learn({ projectId, identityId, names }: Target, found: Assumed, after: Outcome): Assumed | undefined {
  keep(receiptHashes, identityKey(projectId, identityId), after.receipt);
  if (after.version !== found.configVersion) {
    configs.delete(configKey(projectId, names));
    return undefined;
  }
  return { ...found, identityExists: Boolean(after.identity), previousReceiptHash: after.receipt, fresh: true };
}

const configVersion = (projectId: Bindable<string>) => sql`(SELECT ${projects.configVersion} FROM ${projects} WHERE ${projects.id} = ${projectId})`;

/**
 * The batch's last statement: whether the request row `requestId` now has status `status` (as of `stamp`), and the
 * current values. Compiled once per isolate.
 */
const outcome = compiled<"projectId" | "identityId" | "requestId" | "status" | "stamp">((p) => sql`SELECT
  EXISTS (SELECT 1 FROM ${requests} WHERE ${requests.id} = ${p.requestId} AND ${requests.status} = ${p.status} AND ${requests.updated} = ${p.stamp}) AS applied,
  (SELECT ${requests.status} FROM ${requests} WHERE ${requests.id} = ${p.requestId}) AS current,
  ${configVersion(p.projectId)} AS version,
  EXISTS (SELECT 1 FROM ${identities} WHERE ${identities.projectId} = ${p.projectId} AND ${identities.id} = ${p.identityId}) AS identity,
  ${latestReceipt(p.projectId, p.identityId)} AS receipt,
  EXISTS (SELECT 1 FROM ${webhooks} WHERE ${webhooks.projectId} = ${p.projectId}) AS webhooks`);

/** The last queued write of each identity: when it starts running, and when it has settled. */
const writing = new Map<string, { started: Promise<void>; settled: Promise<void> }>();

/**
 * How long a write waits for the one before it once that one runs: a request cut off midway may never settle, and
 * must not block. Counted from the start of the one before, not from joining the queue, so a burst whose queue takes
 * longer than this to drain still runs one write at a time.
 */
const maxQueueWaitMs = 2_000;

/**
 * Runs the writes of one identity one after another within this isolate. Each write must name the receipt before
 * it, so concurrent writes of one identity would invalidate each other's guard and retry in rounds (n writes, n²/2
 * batches); queued, each learns the hash the previous one wrote and applies at its first attempt. Writes from other
 * isolates, and one that stopped waiting, are still caught by the guard.
 */
export function oneAtATime<T>(projectId: string, identityId: string, task: () => Promise<T>): Promise<T> {
  const key = identityKey(projectId, identityId);
  const before = writing.get(key);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const ready = before
    ? before.started
        .then(() => Promise.race([before.settled, new Promise<void>((resolve) => (timer = setTimeout(resolve, maxQueueWaitMs)))]))
        .finally(() => clearTimeout(timer))
    : Promise.resolve();
  const run = ready.then(task, task);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  const entry = { started: ready, settled };
  writing.set(key, entry);
  void settled.then(() => {
    if (writing.get(key) === entry) writing.delete(key);
  });
  return run;
}
