// The cron's alert check: one signed `ops.alert` to the operator's webhook when a counter crosses its threshold, none
// while it stays across, one `resolved` when it goes back; state kept in D1, so once per crossing, not per minute.
import { afterEach, describe, expect, it, vi } from "vitest";
import { Webhook } from "standardwebhooks";
import { alertsAt, arrivals, erasingTenant, health, hour, loggedLine, opsWebhook, runCron, runCronFailing } from "./ops-helpers";

afterEach(() => {
  vi.restoreAllMocks();
});

/** One dead delivery (WEBHOOK_MAX_ATTEMPTS is 3 in the api tests), which crosses dead_letters' default threshold of 1. */
async function oneDeadLetter() {
  const { erase } = await erasingTenant("always-500");
  await erase();
  await vi.waitFor(async () => expect((await health()).counters.deadLetters).toBeGreaterThan(0), { timeout: 20_000, interval: 100 });
}

describe("the alert check", () => {
  it("sends one signed ops.alert per crossing and one resolved when the counter goes back", async () => {
    const ops = opsWebhook();
    const start = Date.now();
    await runCron(start, ops.settings);
    expect(await arrivals(ops.key)).toEqual([]);

    await oneDeadLetter();
    await runCron(start + 60_000, ops.settings);
    await runCron(start + 120_000, ops.settings);
    const [firing, ...rest] = await arrivals(ops.key);
    expect(rest).toEqual([]);
    // Standard Webhooks, verified by its reference library with the operator's secret.
    expect(new Webhook(ops.secret).verify(firing.body, firing.headers)).toMatchObject({
      type: "ops.alert",
      data: { rule: "dead_letters", status: "firing", counter: "deadLetters", value: 1, threshold: 1, unit: "deliveries" },
    });
    const state = (await health()).alerts.find((a) => a.rule === "dead_letters")!.state;
    expect(state).toMatchObject({ status: "firing" });
    expect(state!.notified).not.toBeNull();

    // Dead letters count over the last 24 hours: a day later the counter is back under its threshold.
    await runCron(start + 25 * hour, ops.settings);
    await runCron(start + 25 * hour + 60_000, ops.settings);
    const events = await alertsAt(ops.key);
    expect(events.map((e) => [e.type, e.data.rule, e.data.status])).toEqual([
      ["ops.alert", "dead_letters", "firing"],
      ["ops.alert", "dead_letters", "resolved"],
    ]);
    expect(new Set(events.map((e) => e.id)).size).toBe(2);
    expect((await arrivals(ops.key))[1].headers["webhook-id"]).toBe(events[1].id);
  });

  it("sends a notification the operator's endpoint refused again the next minute, with the same webhook-id", async () => {
    // This file's dead letter is still within 24 hours of the real clock: the rule fires again.
    const errors = vi.spyOn(console, "error");
    const ops = opsWebhook("fail-1");
    const start = Date.now();
    expect(await runCronFailing(start, ops.settings)).toBeInstanceOf(Error);
    await loggedLine(errors, "ops_alert_not_sent", "dead_letters", "HTTP 500");
    await runCron(start + 60_000, ops.settings);
    await runCron(start + 120_000, ops.settings);
    const sent = await arrivals(ops.key);
    expect(sent).toHaveLength(2);
    expect(sent[0].headers["webhook-id"]).toBe(sent[1].headers["webhook-id"]);
  });

  it("sends nothing to a URL the SSRF guard refuses, and says so in a log line", async () => {
    const errors = vi.spyOn(console, "error");
    const ops = opsWebhook();
    const refused = { ...ops.settings, OPS_WEBHOOK_URL: `https://10.0.0.1/ok/${ops.key}` };
    await expect(runCron(Date.now() + 26 * hour, refused)).rejects.toThrow();
    await loggedLine(errors, "ops_alert_not_sent", "not a public address");
    expect(await arrivals(ops.key)).toEqual([]);
  });
});
