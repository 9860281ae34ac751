// Faults on the real bindings: a D1 error in the middle of the cron (a trigger aborts the outbox's fan-out, as
// test/api/atomicity.test.ts injects faults) and a queue producer that refuses messages. Each must leave a clear log
// line, an `ops.alert` to the operator, and no lost record: once the fault is gone every event reaches its webhook.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Env } from "../../worker/env";
import { fetchWithSettings } from "./hub-helpers";
import { origin } from "./helpers";
import { alertsAt, arrivals, erasingTenant, loggedLine, minute, opsWebhook, runCron, runCronFailing } from "./ops-helpers";

afterEach(() => {
  vi.restoreAllMocks();
});

/** Runs the cron (time moving on a minute per run) until the operator was told the outbox backlog is resolved. */
async function cronUntilResolved(key: string, from: number, settings: Partial<Env>) {
  let at = from;
  await vi.waitFor(
    async () => {
      at += minute;
      await runCron(at, settings);
      expect((await alertsAt(key)).map((e) => `${e.data.rule} ${e.data.status}`)).toContain("outbox_backlog resolved");
    },
    { timeout: 20_000, interval: 50 },
  );
}

describe("fault injection", () => {
  it("a D1 error mid-cron: a log line, an outbox_backlog alert, and every event delivered once D1 recovers", async () => {
    const errors = vi.spyOn(console, "error");
    const ops = opsWebhook();
    const tenant = await erasingTenant("ok");
    await env.DB.prepare(
      "CREATE TRIGGER fault_fan_out BEFORE INSERT ON deliveries BEGIN SELECT RAISE(ABORT, 'injected failure'); END",
    ).run();
    const written = [await tenant.erase(), await tenant.erase(), await tenant.erase()];
    // The requests' own hand-off met the fault too: their events wait in the outbox.
    await loggedLine(errors, "dispatch_failed", "injected failure");

    const at = Date.now() + 20 * minute;
    const failure = await runCronFailing(at, ops.settings);
    expect(failure).toBeInstanceOf(AggregateError);
    await loggedLine(errors, "scheduled_job_failed", "injected failure");
    const [alert] = await alertsAt(ops.key);
    expect(alert).toMatchObject({ type: "ops.alert", data: { rule: "outbox_backlog", status: "firing", threshold: 900 } });
    expect(alert.data.value).toBeGreaterThanOrEqual(20 * 60);
    expect(await arrivals(tenant.key)).toEqual([]);

    await env.DB.prepare("DROP TRIGGER fault_fan_out").run();
    await cronUntilResolved(ops.key, at, ops.settings);
    await vi.waitFor(async () => expect(await arrivals(tenant.key)).toHaveLength(3), { timeout: 20_000, interval: 100 });
    const delivered = (await arrivals(tenant.key)).map((a) => (JSON.parse(a.body) as { data: { requestId: string } }).data.requestId);
    expect(delivered.sort()).toEqual([...written].sort());
  });

  it("a queue that refuses messages: a log line, an outbox_backlog alert, and every event delivered once it takes them", async () => {
    const errors = vi.spyOn(console, "error");
    const ops = opsWebhook();
    // The real producer binding in front of a queue that refuses every message, as Queues does over its limits.
    const refusal = () => Promise.reject(new Error("Queue send failed: the queue is over its backlog limit"));
    const refusing = { send: refusal, sendBatch: refusal } as unknown as Queue<{ deliveryId: string }>;
    const tenant = await erasingTenant("ok");
    const erase = async () => {
      const identity = await fetchWithSettings({ WEBHOOK_QUEUE: refusing }, request("POST", `/privacy/v2/projects/${tenant.projectId}/identities`, tenant.token, {}));
      const erasure = await fetchWithSettings(
        { WEBHOOK_QUEUE: refusing },
        request("POST", `/privacy/v2/projects/${tenant.projectId}/erasures`, tenant.token, { identityId: (identity.body as { identityId: string }).identityId }),
      );
      expect(erasure.status).toBe(201);
      return (erasure.body as { requestId: string }).requestId;
    };
    const written = [await erase(), await erase()];
    await loggedLine(errors, "dispatch_failed", "over its backlog limit");

    const at = Date.now() + 20 * minute;
    expect(await runCronFailing(at, { ...ops.settings, WEBHOOK_QUEUE: refusing })).toBeInstanceOf(AggregateError);
    await loggedLine(errors, "scheduled_job_failed", "over its backlog limit");
    const [alert] = await alertsAt(ops.key);
    expect(alert).toMatchObject({ data: { rule: "outbox_backlog", status: "firing" } });
    // Fanned out, refused by the queue, released: pending and unclaimed, for the next hand-off.
    const pending = await env.DB.prepare("SELECT count(*) AS n FROM deliveries WHERE project_id = ? AND status = 'pending' AND queued IS NULL")
      .bind(tenant.projectId)
      .first<{ n: number }>();
    expect(pending!.n).toBe(2);
    expect(await arrivals(tenant.key)).toEqual([]);

    await cronUntilResolved(ops.key, at, ops.settings);
    await vi.waitFor(async () => expect(await arrivals(tenant.key)).toHaveLength(2), { timeout: 20_000, interval: 100 });
    const delivered = (await arrivals(tenant.key)).map((a) => (JSON.parse(a.body) as { data: { requestId: string } }).data.requestId);
    expect(delivered.sort()).toEqual([...written].sort());
  });
});

const request = (method: string, path: string, token: string, body: unknown) =>
  new Request(origin + path, { method, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify(body) });
