import { expect, vi } from "vitest";
import type { Env } from "../../worker/env";
import { base64 } from "../../worker/lib/crypto";
import { runCron as runCronToEnd } from "./cron";
import { admin, newTenant, ok, webhookReceiver } from "./helpers";

export const minute = 60_000;
export const hour = 60 * minute;

/** The operator's webhook at the stand-in endpoint (`scenario` as in test/api/webhooks-receiver.js), with its secret. */
export function opsWebhook(scenario = "ok") {
  const key = crypto.randomUUID();
  const secret = `whsec_${base64(crypto.getRandomValues(new Uint8Array(32)))}`;
  const settings: Partial<Env> = { OPS_WEBHOOK_URL: `${webhookReceiver}/${scenario}/${key}`, OPS_WEBHOOK_SECRET: secret };
  return { key, secret, settings };
}

export type Arrival = { url: string; headers: Record<string, string>; body: string };

/** What the stand-in endpoint received for a key. */
export const arrivals = async (key: string): Promise<Arrival[]> => (await fetch(`${webhookReceiver}/__log/${key}`)).json();

/** The `ops.alert` events that arrived for a key, parsed. */
export const alertsAt = async (key: string) =>
  (await arrivals(key)).map((a) => JSON.parse(a.body) as { id: string; type: string; data: { rule: string; status: string; value: number | null; threshold: number } });

/** The cron run to its end (trigger, then the queue consumer on its runs), at `scheduledTime`, with some settings changed. */
export const runCron = (scheduledTime: number, settings: Partial<Env> = {}) => runCronToEnd(scheduledTime, settings);

/** Runs the cron, which may fail (a fault is armed); resolves to the failure or undefined. */
export const runCronFailing = (scheduledTime: number, settings: Partial<Env> = {}) =>
  runCron(scheduledTime, settings).then(
    () => undefined,
    (error: unknown) => error,
  );

/** The operator's health answer. */
export const health = async () => ok(await admin("GET", "/health"));

/** A project whose webhook at the stand-in endpoint (`scenario`) takes `erasure.created`; `erase` files one erasure. */
export async function erasingTenant(scenario: string) {
  const tenant = await newTenant();
  const key = crypto.randomUUID();
  ok(await tenant.api("POST", "/webhooks", { url: `${webhookReceiver}/${scenario}/${key}`, events: ["erasure.created"] }), 201);
  const erase = async () => {
    const identityId = ok(await tenant.api("POST", "/identities", {}), 201).identityId as string;
    return ok(await tenant.api("POST", "/erasures", { identityId }), 201).requestId as string;
  };
  return { ...tenant, key, erase };
}

/** Waits until the console.error spy saw a line containing every part (structured lines as their JSON). */
export const loggedLine = (spy: { mock: { calls: unknown[][] } }, ...parts: string[]) =>
  vi.waitFor(() => {
    const lines = spy.mock.calls.map((args) =>
      args
        .map((a) => (a instanceof Error ? `${a.message} ${a instanceof AggregateError ? a.errors.map(String).join(" ") : ""}` : typeof a === "string" ? a : JSON.stringify(a)))
        .join(" "),
    );
    expect(lines.some((line) => parts.every((part) => line.includes(part))), lines.join("\n")).toBe(true);
  });
