import { and, asc, eq, gt, inArray, isNull, lt, lte, or } from "drizzle-orm";
import type { Env } from "../env";
import { dispatchPending } from "../events/outbox";
import { getDb } from "../lib/db";
import { handOff, iso, leaseMs } from "./outbox";
import { loadRoutes } from "./sms-routes";
import { applyChange } from "./status";
import { finalStatuses, smsMessages, smsRouteHealth, waitingStatuses } from "./table";

const claimBatch = 50;
const maxBatchesPerPass = 5;
export const defaultTextRetentionDays = 30;
const secretTextRetentionDays = 1;

/**
 * The cron's SMS pass, at the pass's clock `asOf` (the runtime's scheduled time; tests move it forward instead of
 * waiting): ends the messages whose validity is over, moves the waiting messages of routes that keep failing to their
 * fallback, hands due messages on again, then delivers the `sms.status_changed` events this produced.
 */
export async function retrySmsHandOffs(env: Env, asOf: number = Date.now()): Promise<number> {
  const routes = loadRoutes(env);
  let changed = await expireMessages(env, asOf);
  await failOver(env, routes, asOf);
  let handled = 0;
  const db = getDb(env.DB);
  for (let batch = 0; batch < maxBatchesPerPass; batch++) {
    // Claiming is one UPDATE that moves `next_attempt` to the end of a new lease, so overlapping passes never take
    // the same message.
    const due = and(inArray(smsMessages.status, waitingStatuses), lte(smsMessages.nextAttempt, iso(asOf)), gt(smsMessages.expires, iso(asOf)));
    const ids = db.select({ id: smsMessages.id }).from(smsMessages).where(due).orderBy(asc(smsMessages.nextAttempt)).limit(claimBatch);
    const claimed = await db
      .update(smsMessages)
      .set({ nextAttempt: iso(asOf + leaseMs) })
      .where(and(due, inArray(smsMessages.id, ids)))
      .returning();
    if (claimed.length === 0) break;
    changed += await handOff({ env, db: env.DB }, routes, claimed);
    handled += claimed.length;
    if (claimed.length < claimBatch) break;
  }
  if (changed > 0) await dispatchPending(env, env.DB);
  return handled;
}

/** Waiting messages past their validity end (and not in flight) become `expired`. */
async function expireMessages(env: Env, asOf: number): Promise<number> {
  const rows = await getDb(env.DB)
    .select()
    .from(smsMessages)
    .where(and(inArray(smsMessages.status, waitingStatuses), lte(smsMessages.expires, iso(asOf)), lte(smsMessages.nextAttempt, iso(asOf))))
    .limit(claimBatch * maxBatchesPerPass);
  const at = iso(asOf);
  const applied = await Promise.all(
    rows.map((row) =>
      applyChange({ env, db: env.DB }, row, {
        status: "expired",
        detail: `The validity period ended after ${row.attempts} failed hand-off(s); no more retries.`,
        set: { nextAttempt: null },
      }, at),
    ),
  );
  return applied.filter(Boolean).length;
}

/**
 * Routes whose consecutive transient failures reached their `failoverAfter` hand their retrying messages to their
 * fallback route, due at once, unless the fallback is failing too (so two failing routes never pass messages back and
 * forth); each move is a trail entry. Messages in flight (pending) stay until they settle.
 */
async function failOver(env: Env, routes: ReturnType<typeof loadRoutes>, asOf: number): Promise<void> {
  const db = getDb(env.DB);
  const health = await db.select().from(smsRouteHealth);
  const failing = (name: string) => {
    const route = routes.get(name);
    const failures = health.find((h) => h.route === name)?.consecutiveFailures ?? 0;
    return route !== undefined && failures >= route.failoverAfter;
  };
  const at = iso(asOf);
  for (const { route: name, consecutiveFailures } of health) {
    const route = routes.get(name);
    const fallback = route?.fallback;
    if (!route || !fallback || !failing(name) || failing(fallback)) continue;
    const waiting = await db
      .select()
      .from(smsMessages)
      .where(and(eq(smsMessages.provider, name), eq(smsMessages.status, "retrying"), gt(smsMessages.expires, at)))
      .limit(claimBatch * maxBatchesPerPass);
    await Promise.all(
      waiting.map((row) =>
        applyChange({ env, db: env.DB }, row, {
          status: "retrying",
          detail: `Rerouted from ${name} to ${fallback}: ${name} failed ${consecutiveFailures} times in a row.`,
          set: { provider: fallback, nextAttempt: at },
        }, at),
      ),
    );
  }
}

/**
 * Retention (docs/hub.md#sms-routes-and-providers): the text of a settled message is blanked `SMS_TEXT_RETENTION_DAYS`
 * (default 30) after it settled, a secret one (a one-time code no provider took) a day after; the row and its trail
 * stay as the record of what was sent, when and to whom.
 */
export async function purgeSmsTexts(env: Env, asOf: number = Date.now()): Promise<number> {
  const days = Number(env.SMS_TEXT_RETENTION_DAYS ?? defaultTextRetentionDays);
  const retentionDays = Number.isFinite(days) && days >= 0 ? days : defaultTextRetentionDays;
  const cutoff = iso(asOf - retentionDays * 86_400_000);
  const secretCutoff = iso(asOf - Math.min(retentionDays, secretTextRetentionDays) * 86_400_000);
  const db = getDb(env.DB);
  const settledBefore = or(lt(smsMessages.updated, cutoff), and(eq(smsMessages.secret, true), lt(smsMessages.updated, secretCutoff)));
  const old = and(inArray(smsMessages.status, finalStatuses), isNull(smsMessages.textPurged), settledBefore);
  const ids = db.select({ id: smsMessages.id }).from(smsMessages).where(old).limit(500);
  const purged = await db
    .update(smsMessages)
    .set({ text: "", textPurged: iso(asOf) })
    .where(and(old, inArray(smsMessages.id, ids)))
    .returning({ id: smsMessages.id });
  return purged.length;
}
