import { and, asc, eq, inArray, lte } from "drizzle-orm";
import type { Env } from "../env";
import { getDb } from "../lib/db";
import { newId } from "../lib/ids";
import type { Dcs } from "./encoding";
import { providers, type HandOffResult, type OutboxMessage } from "./providers";
import { smsMessages } from "./table";

/** How long an attempt in flight owns its message before the retry pass may take it over. */
const leaseMs = 2 * 60_000;
/** Retry delay after the nth failed hand-off: 1, 2, 4 … minutes, at most an hour; retried until it succeeds. */
const backoffMs = (failures: number) => Math.min(2 ** (failures - 1), 60) * 60_000;
const claimBatch = 50;
const maxBatchesPerPass = 5;

const iso = (ms: number) => new Date(ms).toISOString();
const unsettled = ["pending", "retrying"] as const;

export type NewSms = { receiver: string; sender: string; text: string; dcs: Dcs; segments: number; provider: string };

/**
 * Writes the messages to the outbox (one D1 batch) and hands them on at once. Every row is stored before any
 * hand-off, so a crash in between leaves it pending and the retry pass sends it once its lease ends.
 */
export async function sendThroughOutbox(
  env: Env,
  caller: { projectId: string; clientId: string },
  messages: NewSms[],
): Promise<void> {
  const db = getDb(env.DB);
  const nowMs = Date.now();
  const rows: OutboxMessage[] = messages.map((m) => ({
    id: newId("sms"),
    projectId: caller.projectId,
    clientId: caller.clientId,
    receiver: m.receiver,
    sender: m.sender,
    text: m.text,
    encoding: m.dcs,
    segments: m.segments,
    provider: m.provider,
    status: "pending",
    attempts: 0,
    nextAttempt: iso(nowMs + leaseMs),
    lastError: null,
    created: iso(nowMs),
    updated: iso(nowMs),
  }));
  // One statement per row: D1 binds at most 100 parameters per statement.
  const inserts = rows.map((row) => db.insert(smsMessages).values(row));
  await db.batch(inserts as [(typeof inserts)[0], ...typeof inserts]);
  await handOff(env, rows);
}

/** Hands messages to their providers and records each outcome (one D1 batch). */
async function handOff(env: Env, rows: OutboxMessage[]): Promise<void> {
  const results = await Promise.all(
    rows.map(async (row): Promise<HandOffResult> => {
      const provider = providers.get(row.provider);
      if (!provider) return { outcome: "failed", error: `Unknown provider ${row.provider}.` };
      try {
        return await provider.handOff(env, row);
      } catch (error) {
        return { outcome: "failed", error: (error as Error).message };
      }
    }),
  );
  const db = getDb(env.DB);
  const nowMs = Date.now();
  const updates = rows.map((row, i) =>
    db.update(smsMessages).set(settle(row, results[i], nowMs)).where(eq(smsMessages.id, row.id)),
  );
  if (updates.length > 0) await db.batch(updates as [(typeof updates)[0], ...typeof updates]);
}

function settle(row: OutboxMessage, result: HandOffResult, nowMs: number): Partial<OutboxMessage> {
  const updated = iso(nowMs);
  switch (result.outcome) {
    case "sent":
      return { status: "sent", attempts: row.attempts + 1, nextAttempt: null, lastError: null, updated };
    case "outbox_only":
      return { status: "outbox_only", nextAttempt: null, updated };
    case "failed": {
      const attempts = row.attempts + 1;
      return { status: "retrying", attempts, nextAttempt: iso(nowMs + backoffMs(attempts)), lastError: result.error, updated };
    }
  }
}

/**
 * The cron pass: takes messages whose retry is due (or whose attempt in flight outlived its lease) and hands them
 * on again. Claiming is one UPDATE that moves `next_attempt` to the end of a new lease, so overlapping passes
 * never take the same message. `asOf` is the pass's clock (tests move it forward instead of waiting).
 */
export async function retrySmsHandOffs(env: Env, asOf: number = Date.now()): Promise<number> {
  const db = getDb(env.DB);
  let handled = 0;
  for (let batch = 0; batch < maxBatchesPerPass; batch++) {
    const due = and(inArray(smsMessages.status, unsettled), lte(smsMessages.nextAttempt, iso(asOf)));
    const ids = db.select({ id: smsMessages.id }).from(smsMessages).where(due).orderBy(asc(smsMessages.nextAttempt)).limit(claimBatch);
    const claimed = await db
      .update(smsMessages)
      .set({ nextAttempt: iso(asOf + leaseMs) })
      .where(and(due, inArray(smsMessages.id, ids)))
      .returning();
    if (claimed.length === 0) break;
    await handOff(env, claimed);
    handled += claimed.length;
    if (claimed.length < claimBatch) break;
  }
  return handled;
}
