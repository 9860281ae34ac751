import type { Env } from "../env";
import type { Committer } from "../events/commit";
import { getDb } from "../lib/db";
import { newId } from "../lib/ids";
import type { Dcs } from "./encoding";
import type { HandOffResult } from "./providers/types";
import { callbackUrl, loadRoutes, type SmsRoute } from "./sms-routes";
import { applyChange, recordRouteHealth, type Change } from "./status";
import { smsMessages, smsTrail, type OutboxMessage } from "./table";

/** How long an attempt in flight owns its message before the retry pass may take it over. */
export const leaseMs = 2 * 60_000;
/** Retry delay after the nth failed hand-off: 1, 2, 4 … minutes, at most an hour, and never past the validity end. */
const backoffMs = (failures: number) => Math.min(2 ** (failures - 1), 60) * 60_000;

export const iso = (ms: number) => new Date(ms).toISOString();

/** `secret`: the text is a one-time code, removed once a provider has the message (see `withoutSpentSecret`). */
export type NewSms = { receiver: string; sender: string; text: string; dcs: Dcs; segments: number; provider: string; secret?: boolean };

/**
 * Writes the messages to the outbox (one D1 batch, with each one's first trail entry) and hands them on at once.
 * Every row is stored before any hand-off, so a crash in between leaves it pending and the retry pass sends it once
 * its lease ends. `provider` must name a configured route (see `loadRoutes`).
 */
export async function sendThroughOutbox(
  committer: Committer,
  caller: { projectId: string; clientId: string },
  messages: NewSms[],
): Promise<void> {
  const routes = loadRoutes(committer.env);
  const db = getDb(committer.db);
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
    providerRef: null,
    errorCode: null,
    expires: iso(nowMs + (routes.get(m.provider)?.validityMs ?? 0)),
    revision: 1,
    textPurged: null,
    secret: m.secret ?? false,
    attempts: 0,
    nextAttempt: iso(nowMs + leaseMs),
    lastError: null,
    created: iso(nowMs),
    updated: iso(nowMs),
  }));
  // Two statements per message: D1 binds at most 100 parameters per statement.
  const inserts = rows.flatMap((row) => [
    db.insert(smsMessages).values(row),
    db.insert(smsTrail).values({ messageId: row.id, seq: 1, at: row.created, status: "pending", route: row.provider, detail: "Written to the outbox." }),
  ]);
  await db.batch(inserts as [(typeof inserts)[0], ...typeof inserts]);
  await handOff(committer, routes, rows);
}

async function attempt(env: Env, route: SmsRoute | undefined, row: OutboxMessage): Promise<HandOffResult> {
  if (!route) return { outcome: "failed", permanent: false, errorCode: null, error: `The route ${row.provider} is not configured.` };
  if (route.credentials === null) {
    // Nothing is lost while the operator fixes the configuration: the message waits (until it expires).
    return { outcome: "failed", permanent: false, errorCode: null, error: route.problem ?? "Not configured." };
  }
  try {
    return await route.adapter.handOff({
      message: row,
      credentials: route.credentials,
      options: route.options,
      baseUrl: route.baseUrl,
      callbackUrl: await callbackUrl(env, route),
      validForMs: Date.parse(row.expires) - Date.now(),
    });
  } catch (error) {
    return { outcome: "failed", permanent: false, errorCode: null, error: (error as Error).message };
  }
}

/** What a hand-off's result does to the message. */
function settle(row: OutboxMessage, result: HandOffResult, nowMs: number): Change {
  const attempts = row.attempts + 1;
  switch (result.outcome) {
    case "accepted":
      return {
        status: "accepted",
        detail: `${row.provider} accepted the message.`,
        errorCode: null,
        set: { attempts, providerRef: result.providerRef, nextAttempt: null, lastError: null },
      };
    case "outbox_only":
      return { status: "outbox_only", detail: "No upstream is configured: the outbox is the end of the line.", set: { nextAttempt: null } };
    case "failed":
      if (result.permanent) {
        return { status: "failed", detail: result.error, errorCode: result.errorCode, set: { attempts, nextAttempt: null, lastError: result.error } };
      }
      return {
        status: "retrying",
        detail: result.error,
        errorCode: result.errorCode,
        set: { attempts, nextAttempt: iso(Math.min(nowMs + backoffMs(attempts), Date.parse(row.expires))), lastError: result.error },
      };
  }
}

/**
 * A secret text (a one-time code) goes with the change that ends its hand-offs: the provider has it, or will never
 * get it. Where no provider is configured (outbox only) it stays for the purge (worker/hub/cron.ts).
 */
function withoutSpentSecret(row: OutboxMessage, change: Change, at: string): Change {
  if (!row.secret || row.textPurged || (change.status !== "accepted" && change.status !== "failed")) return change;
  return { ...change, detail: `${change.detail.replace(/\.$/, "")}; text removed: one-time code.`, set: { ...change.set, text: "", textPurged: at } };
}

/**
 * Hands messages to their routes' providers and records each outcome (one batch per message, so a delivery report
 * that raced ahead of the answer wins and this outcome is dropped), then each route's health. Returns how many
 * changed status (each emitted an event).
 */
export async function handOff(committer: Committer, routes: Map<string, SmsRoute>, rows: OutboxMessage[]): Promise<number> {
  const results = await Promise.all(rows.map((row) => attempt(committer.env, routes.get(row.provider), row)));
  const nowMs = Date.now();
  const at = iso(nowMs);
  const changes = rows.map((row, i) => withoutSpentSecret(row, settle(row, results[i], nowMs), at));
  const applied = await Promise.all(rows.map((row, i) => applyChange(committer, row, changes[i], at)));
  const health = new Map<string, { successes: number; transientFailures: number; lastError: string | null }>();
  rows.forEach((row, i) => {
    const result = results[i];
    if (result.outcome === "outbox_only") return;
    const entry = health.get(row.provider) ?? { successes: 0, transientFailures: 0, lastError: null };
    if (result.outcome === "accepted") entry.successes++;
    else {
      if (!result.permanent) entry.transientFailures++;
      entry.lastError = result.error;
    }
    health.set(row.provider, entry);
  });
  await Promise.all([...health].map(([route, outcome]) => recordRouteHealth(committer.db, route, outcome, at)));
  return rows.filter((row, i) => applied[i] && changes[i].status !== row.status).length;
}
