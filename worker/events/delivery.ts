import { and, eq, inArray } from "drizzle-orm";
import type { Env } from "../env";
import { databaseNameOf, envOn } from "../lib/databases";
import { getDb } from "../lib/db";
import { newId } from "../lib/ids";
import { now } from "../lib/time";
import { decryptSecret, signatureHeader } from "./secrets";
import { loopbackAllowed, webhookUrlProblem } from "../../shared/ssrf";
import { deliveries, deliveryAttempts, events, webhooks } from "./table";
import { logger } from "../lib/logger";

/** `projectId` names the database holding the delivery; messages sent before it existed lack it (then `DB`). */
export type DeliveryMessage = { deliveryId: string; projectId?: string };

const envOfMessage = (env: Env, message: DeliveryMessage) =>
  message.projectId === undefined ? env : envOn(env, databaseNameOf(env, message.projectId));

/** The deliveries' queue and its dead-letter queue (keep in step with wrangler.toml). */
export const deliveryQueue = "assent-webhooks";
export const deadLetterQueue = "assent-webhooks-dead";

/** Queues accepts delays up to 12 hours. */
const maxDelaySeconds = 12 * 60 * 60;

export function deliverySettings(env: Env) {
  const number = (value: string | undefined, fallback: number) => {
    const parsed = Number(value);
    return value !== undefined && value !== "" && Number.isFinite(parsed) && parsed >= 0 ? parsed : fallback;
  };
  return {
    maxAttempts: Math.max(1, Math.floor(number(env.WEBHOOK_MAX_ATTEMPTS, 8))),
    retryBaseSeconds: number(env.WEBHOOK_RETRY_BASE_SECONDS, 30),
    timeoutMs: Math.max(1, number(env.WEBHOOK_TIMEOUT_MS, 10_000)),
  };
}

/** Exponential backoff: the wait after failed attempt n is base × 4^(n−1) seconds, at most 12 hours. */
export function retryDelaySeconds(failedAttempt: number, baseSeconds: number): number {
  return Math.min(maxDelaySeconds, Math.round(baseSeconds * 4 ** (failedAttempt - 1)));
}

/** The body every subscriber receives. */
export function eventPayload(event: typeof events.$inferSelect) {
  return { id: event.id, type: event.type, projectId: event.projectId, created: event.created, data: event.data };
}

/** The secrets that sign right now: the current one, and the previous one during its grace period. */
export async function signingSecrets(env: Env, hook: typeof webhooks.$inferSelect, at = now()): Promise<string[]> {
  const secrets = [await decryptSecret(env, hook.id, hook.secret)];
  if (hook.previousSecret && hook.previousSecretExpires && hook.previousSecretExpires > at) {
    secrets.push(await decryptSecret(env, hook.id, hook.previousSecret));
  }
  return secrets;
}

type Outcome = { statusCode: number | null; error: string | null; permanent: boolean };

/**
 * One signed POST of an event (Standard Webhooks headers) to a URL the SSRF guard allows: within the delivery
 * timeout, without following redirects (a redirect could lead past the guard; it counts as a failed attempt).
 * Project webhooks (below) and the operator's webhook (worker/ops/notify.ts) both send through it.
 */
export async function postSigned(env: Env, url: string, secrets: () => Promise<string[]>, id: string, payload: unknown): Promise<Outcome> {
  const refusal = webhookUrlProblem(url, loopbackAllowed(env));
  if (refusal) return { statusCode: null, error: `Refused by the SSRF guard: ${refusal}`, permanent: true };
  const { timeoutMs } = deliverySettings(env);
  const body = JSON.stringify(payload);
  const timestamp = Math.floor(Date.now() / 1000);
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "Assent-Webhooks/1",
        "webhook-id": id,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": await signatureHeader(await secrets(), id, timestamp, body),
      },
      body,
      redirect: "manual",
      signal,
    });
    await response.body?.cancel();
    const ok = response.status >= 200 && response.status < 300;
    return { statusCode: response.status, error: ok ? null : `HTTP ${response.status}`, permanent: false };
  } catch (error) {
    const reason = signal.aborted ? `No response within ${timeoutMs} ms` : `Network error: ${(error as Error).message}`;
    return { statusCode: null, error: reason, permanent: false };
  }
}

const post = (env: Env, hook: typeof webhooks.$inferSelect, event: typeof events.$inferSelect) =>
  postSigned(env, hook.url, () => signingSecrets(env, hook), event.id, eventPayload(event));

/**
 * One attempt of one delivery. Returns the delay before the next attempt, or undefined when the
 * delivery is settled (succeeded, dead, gone, or already settled by a duplicate message).
 */
export async function attemptDelivery(env: Env, deliveryId: string): Promise<number | undefined> {
  const db = getDb(env.DB);
  const row = await db
    .select({ delivery: deliveries, hook: webhooks })
    .from(deliveries)
    .innerJoin(webhooks, eq(webhooks.id, deliveries.webhookId))
    .where(eq(deliveries.id, deliveryId))
    .get();
  if (!row || row.delivery.status === "succeeded" || row.delivery.status === "dead") return undefined;
  const { delivery, hook } = row;
  const event = await db.select().from(events).where(eq(events.id, delivery.eventId)).get();

  const started = now();
  const clock = Date.now();
  const outcome: Outcome = event
    ? await post(env, hook, event)
    : { statusCode: null, error: "The event no longer exists.", permanent: true };
  const latencyMs = Date.now() - clock;

  const attempt = delivery.attempts + 1;
  const { maxAttempts, retryBaseSeconds } = deliverySettings(env);
  const succeeded = outcome.error === null;
  const retryIn = succeeded || outcome.permanent || attempt >= maxAttempts ? undefined : retryDelaySeconds(attempt, retryBaseSeconds);
  const finished = now();
  await db.batch([
    db.insert(deliveryAttempts).values({
      id: newId("dla"),
      projectId: delivery.projectId,
      deliveryId,
      attempt,
      started,
      statusCode: outcome.statusCode,
      latencyMs,
      error: outcome.error,
    }),
    db
      .update(deliveries)
      .set({
        status: succeeded ? "succeeded" : retryIn === undefined ? "dead" : "failed",
        attempts: attempt,
        lastStatusCode: outcome.statusCode,
        lastLatencyMs: latencyMs,
        lastError: outcome.error,
        nextAttempt: retryIn === undefined ? null : new Date(Date.parse(finished) + retryIn * 1000).toISOString(),
        updated: finished,
      })
      .where(and(eq(deliveries.id, deliveryId), inArray(deliveries.status, ["pending", "failed"]))),
  ]);
  return retryIn;
}

/** Queue consumer: attempts run side by side, so one slow endpoint does not hold up the rest of the batch. */
export async function consumeDeliveries(batch: MessageBatch<DeliveryMessage>, env: Env): Promise<void> {
  await Promise.all(
    batch.messages.map(async (message) => {
      try {
        const retryIn = await attemptDelivery(envOfMessage(env, message.body), message.body.deliveryId);
        if (retryIn === undefined) message.ack();
        else message.retry({ delaySeconds: retryIn });
      } catch (error) {
        // Our own storage failed, not the endpoint: the queue retries with its own delay, then dead-letters.
        logger.error("delivery_failed_internally", { deliveryId: message.body.deliveryId }, error);
        message.retry();
      }
    }),
  );
}

/** Dead-letter consumer: messages the queue gave up on (internal failures) leave their delivery `dead`, visible in the log. */
export async function buryDeliveries(batch: MessageBatch<DeliveryMessage>, env: Env): Promise<void> {
  const stamp = now();
  const byDatabase = new Map<D1Database, string[]>();
  for (const { body } of batch.messages) {
    const d1 = envOfMessage(env, body).DB;
    byDatabase.set(d1, [...(byDatabase.get(d1) ?? []), body.deliveryId]);
  }
  for (const [d1, ids] of byDatabase) {
    await getDb(d1)
      .update(deliveries)
      .set({ status: "dead", nextAttempt: null, lastError: "Abandoned after the queue's retries ran out.", updated: stamp })
      .where(and(inArray(deliveries.id, ids), inArray(deliveries.status, ["pending", "failed"])));
  }
  batch.ackAll();
}
