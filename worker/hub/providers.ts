import type { Env } from "../env";
import type { smsMessages } from "./table";

export type OutboxMessage = typeof smsMessages.$inferSelect;

/** What one hand-off achieved: the provider took the message, there is nowhere to send it, or it failed (retry). */
export type HandOffResult = { outcome: "sent" } | { outcome: "outbox_only" } | { outcome: "failed"; error: string };

/**
 * A way to send SMS. A hand-off may be repeated after a failure whose answer was lost, so providers pass the
 * outbox id along for the far side to deduplicate on.
 */
export interface SmsProvider {
  handOff(env: Env, message: OutboxMessage): Promise<HandOffResult>;
}

const upstreamTimeoutMs = 10_000;

/**
 * The built-in provider. With `SMS_HUB_UPSTREAM_URL` set it POSTs each message to that gateway with the bearer
 * `SMS_HUB_UPSTREAM_SECRET` and an `Idempotency-Key`; any 2xx is acceptance. Without it (local development)
 * the outbox is the end of the line.
 */
export const smsHub: SmsProvider = {
  async handOff(env, message) {
    const url = env.SMS_HUB_UPSTREAM_URL;
    if (!url) return { outcome: "outbox_only" };
    if (!env.SMS_HUB_UPSTREAM_SECRET) return { outcome: "failed", error: "SMS_HUB_UPSTREAM_SECRET is not set." };
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: {
          authorization: `Bearer ${env.SMS_HUB_UPSTREAM_SECRET}`,
          "content-type": "application/json",
          "idempotency-key": message.id,
        },
        body: JSON.stringify({
          id: message.id,
          receiver: message.receiver,
          sender: message.sender,
          message: message.text,
          dcs: message.encoding,
          segments: message.segments,
        }),
        signal: AbortSignal.timeout(upstreamTimeoutMs),
      });
      await response.body?.cancel();
      return response.ok ? { outcome: "sent" } : { outcome: "failed", error: `The upstream gateway answered ${response.status}.` };
    } catch (error) {
      return { outcome: "failed", error: `The upstream gateway could not be reached: ${(error as Error).message}` };
    }
  },
};

/** Providers by the name clients give in `provider` (a Map, so names like "constructor" find nothing). */
export const providers = new Map<string, SmsProvider>([["sms_hub", smsHub]]);
