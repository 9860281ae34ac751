import type { Env } from "../env";
import { atomically, type Statement } from "../lib/db";
import { dispatchSoon, noteWebhookPresence } from "./outbox";

/**
 * What commits a batch: the bindings, the database it writes (in a request the call's D1 session on the project's
 * database, `c.var.db`) and, in a request, its `waitUntil` for the work after the response. The cron passes none:
 * its own dispatch job hands what it wrote to delivery.
 */
export type Committer = { env: Env; db: D1Database; waitUntil?(promise: Promise<unknown>): void };

/** A request's committer, from its context. */
export const committerOf = (c: { env: Env; var: { db: D1Database }; executionCtx: { waitUntil(promise: Promise<unknown>): void } }): Committer => ({
  env: c.env,
  db: c.var.db,
  waitUntil: (promise) => c.executionCtx.waitUntil(promise),
});

/**
 * Runs one atomic batch that may write events (`eventInsert`), and the one place its events are handed to delivery:
 * `read` says from the batch's results whether it applied and, when the batch found out, whether the project has
 * webhooks; once it applied, the events go to delivery after the response.
 */
export async function commit<R extends { applied: boolean; webhooks?: boolean }>(
  committer: Committer,
  projectId: string,
  statements: (Statement | D1PreparedStatement)[],
  read: (results: D1Result[]) => R,
): Promise<R> {
  const found = read(await atomically(committer.db, statements));
  if (found.webhooks !== undefined) noteWebhookPresence(projectId, found.webhooks);
  const { waitUntil } = committer;
  if (found.applied && waitUntil) dispatchSoon({ env: committer.env, db: committer.db, waitUntil }, projectId);
  return found;
}
