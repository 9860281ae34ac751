import { eq, sql, type SQL } from "drizzle-orm";
import { webhooks } from "../events/table";
import { identities } from "../identities/table";
import { compiled, type Bindable } from "../lib/compiled";
import type { Db } from "../lib/db";
import { logEntries } from "../proof/table";
import { projects } from "../projects/table";
import { lookup, type Lookup, type Names } from "./prepare";
import { requests } from "./table";

/**
 * One D1 round trip per write. A write needs the configuration it validates against and the identity's latest
 * receipt hash (the next receipt names it) before it can sign; reading them first costs a round trip. Instead the
 * isolate keeps what earlier writes read and wrote, and the write batch checks it inside its transaction: the
 * project's `config_version` (bumped by triggers on every change to projects, purposes, their versions, data groups
 * and parties), the identity still in the project, and the receipt hash. If any differs nothing is written, and the
 * batch's last statement returns the current values, so the retry needs no separate read either.
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
export async function freshLookup(db: Db, projectId: string, identityId: string, names: Names): Promise<Assumed> {
  const { identityExists, previousReceiptHash, ...config } = await lookup(db, projectId, identityId, names);
  keep(configs, configKey(projectId, names), config);
  keep(receiptHashes, identityKey(projectId, identityId), previousReceiptHash);
  return { identityExists, previousReceiptHash, ...config, fresh: true };
}

/**
 * What this isolate knows, if it knows the configuration: an identity it has not seen is assumed to exist and to
 * have no receipt yet (a first consent), which the guard checks like the rest.
 */
function knownLookup(projectId: string, identityId: string, names: Names): Assumed | undefined {
  const config = configs.get(configKey(projectId, names));
  if (!config) return undefined;
  const receipt = receiptHashes.get(identityKey(projectId, identityId));
  return { ...config, identityExists: true, previousReceiptHash: receipt ?? null, fresh: false };
}

/** Whatever this isolate or the database knows: the isolate's copy, else one read. */
export const assumedLookup = (db: Db, projectId: string, identityId: string, names: Names) =>
  Promise.resolve(knownLookup(projectId, identityId, names) ?? freshLookup(db, projectId, identityId, names));

/** The identity's latest receipt hash (one seek on the partial index of entries with a receipt). */
const latestReceipt = (projectId: Bindable<string>, identityId: Bindable<string> | SQL) => sql`(SELECT ${logEntries.receiptHash} FROM ${logEntries}
  WHERE ${logEntries.projectId} = ${projectId} AND ${logEntries.identityId} = ${identityId} AND ${logEntries.receiptHash} IS NOT NULL
  ORDER BY ${logEntries.seq} DESC LIMIT 1)`;

const configVersion = (projectId: Bindable<string>) => sql`(SELECT ${projects.configVersion} FROM ${projects} WHERE ${projects.id} = ${projectId})`;

/**
 * The identity's latest receipt hash as a query for a read batch (the bootstrap's): `learnReceipt` keeps what it
 * returns, so the visitor's next write knows its chain without a read.
 */
export const receiptQuery = (db: Db, projectId: string, identity: string | SQL) =>
  db.select({ hash: sql<string | null>`${latestReceipt(projectId, identity)}` }).from(projects).where(eq(projects.id, projectId));

export const learnReceipt = (projectId: string, identityId: string, hash: string | null) =>
  keep(receiptHashes, identityKey(projectId, identityId), hash);

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

/**
 * The batch's last statement: whether the request row `requestId` now has status `status` (as of `stamp`), and the
 * current values. Compiled once per isolate.
 */
export const outcome = compiled<"projectId" | "identityId" | "requestId" | "status" | "stamp">((p) => sql`SELECT
  EXISTS (SELECT 1 FROM ${requests} WHERE ${requests.id} = ${p.requestId} AND ${requests.status} = ${p.status} AND ${requests.updated} = ${p.stamp}) AS applied,
  (SELECT ${requests.status} FROM ${requests} WHERE ${requests.id} = ${p.requestId}) AS current,
  ${configVersion(p.projectId)} AS version,
  EXISTS (SELECT 1 FROM ${identities} WHERE ${identities.projectId} = ${p.projectId} AND ${identities.id} = ${p.identityId}) AS identity,
  ${latestReceipt(p.projectId, p.identityId)} AS receipt,
  EXISTS (SELECT 1 FROM ${webhooks} WHERE ${webhooks.projectId} = ${p.projectId}) AS webhooks`);

/**
 * After a write batch: keeps the identity's receipt hash as it now stands, and returns what the next attempt may
 * assume when this one did not apply (undefined when the configuration changed and has to be read again).
 */
export function learn(projectId: string, identityId: string, names: Names, found: Assumed, after: Outcome): Assumed | undefined {
  keep(receiptHashes, identityKey(projectId, identityId), after.receipt);
  if (after.version !== found.configVersion) {
    configs.delete(configKey(projectId, names));
    return undefined;
  }
  return { ...found, identityExists: Boolean(after.identity), previousReceiptHash: after.receipt, fresh: true };
}

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
