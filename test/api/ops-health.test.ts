// The operator's counters (GET /admin/v1/health), computed from D1 as things happen, and /readyz over the same
// dependencies: every database, KV, the queue producer, the operator's webhook settings.
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { app } from "../../worker/app";
import { call, expectProblem, problemOf, webhookReceiver } from "./helpers";
import { fetchWithSettings, registeredTenant } from "./hub-helpers";
import { callWithSettings } from "./hub-helpers";
import { erasingTenant, health, minute, opsWebhook } from "./ops-helpers";

const rules = ["outbox_backlog", "dead_letters", "failed_seals", "sms_failures", "webhook_failure_rate", "tcf_lists_failing"];

describe("GET /admin/v1/health", () => {
  it("answers every counter with its rule and threshold, to the operator only", async () => {
    expectProblem(await call("GET", "/admin/v1/health"), 401, "unauthorized");
    const fresh = await health();
    expect(fresh.counters).toEqual({
      outboxBacklogAgeSeconds: 0,
      deadLetters: 0,
      unsealedLogAgeSeconds: 0,
      smsFailures: 0,
      webhookFailureRate: null,
      tcfListFailingSeconds: 0,
    });
    expect(fresh.databases.map((d) => d.database)).toEqual(["DB", "DB_SHARD_1"]);
    expect(fresh.alerts.map((a) => a.rule)).toEqual(rules);
    expect(fresh.alerts.map((a) => [a.rule, a.threshold, a.firing])).toEqual([
      ["outbox_backlog", 900, false],
      ["dead_letters", 1, false],
      ["failed_seals", 600, false],
      ["sms_failures", 10, false],
      ["webhook_failure_rate", 0.5, false],
      ["tcf_lists_failing", 1, false],
    ]);
  });

  it("counts dead letters, failed webhook attempts and failed SMS as they happen", async () => {
    const failing = await erasingTenant("always-500");
    // WEBHOOK_MAX_ATTEMPTS is 3 in the api tests: seven events make 21 failed attempts, past the rate's minimum of 20.
    for (let i = 0; i < 7; i++) await failing.erase();
    await vi.waitFor(async () => expect((await health()).counters.deadLetters).toBe(7), { timeout: 20_000, interval: 100 });
    const { projectId, token } = await registeredTenant();
    const gateway = { SMS_HUB_UPSTREAM_URL: `http://sms-gateway.test/answer-400/${projectId}`, SMS_HUB_UPSTREAM_SECRET: "s" };
    const sms = { genericSMSMessagePayload: { receiver: "+46701234567", sender: "DemoShop", message: "Your code is 123456" } };
    expect((await callWithSettings(gateway, "POST", "/v1/sms", { token, body: sms })).status).toBe(200);

    const now = await health();
    expect(now.counters).toMatchObject({ deadLetters: 7, webhookFailureRate: 1, smsFailures: 1 });
    expect(now.alerts.filter((a) => a.firing).map((a) => a.rule)).toEqual(["dead_letters", "webhook_failure_rate"]);
    expect(now.databases.find((d) => d.database === "DB")!.counters.deadLetters).toBe(7);
  });

  it("measures the outbox backlog and the unsealed log by their oldest item, in every database", async () => {
    const { erase, projectId } = await erasingTenant("ok");
    await erase();
    // Twenty minutes ago: the event not fanned out, the log entries not sealed (the cron has not run in this file).
    const ago = new Date(Date.now() - 20 * minute).toISOString();
    await env.DB.prepare("UPDATE log_entries SET created = ? WHERE project_id = ?").bind(ago, projectId).run();
    await env.DB_SHARD_1.prepare("INSERT INTO events (id, project_id, type, data, created) VALUES ('evt_stuck', 'prj_sharded_test', 'identity.deleted', '{}', ?)")
      .bind(ago)
      .run();
    const { counters, databases, alerts } = await health();
    expect(counters.outboxBacklogAgeSeconds).toBeGreaterThanOrEqual(1200);
    expect(counters.unsealedLogAgeSeconds).toBeGreaterThanOrEqual(1200);
    expect(databases.find((d) => d.database === "DB_SHARD_1")!.counters.outboxBacklogAgeSeconds).toBeGreaterThanOrEqual(1200);
    expect(databases.find((d) => d.database === "DB_SHARD_1")!.counters.unsealedLogAgeSeconds).toBe(0);
    expect(alerts.filter((a) => a.firing).map((a) => a.rule)).toContain("outbox_backlog");
    expect(alerts.filter((a) => a.firing).map((a) => a.rule)).toContain("failed_seals");
    await env.DB_SHARD_1.prepare("DELETE FROM events WHERE id = 'evt_stuck'").run();
  });

  it("takes each threshold from its ALERT_* variable", async () => {
    const request = new Request("http://assent.test/admin/v1/health", { headers: { authorization: "Bearer test-admin-token" } });
    const reply = await fetchWithSettings({ ALERT_DEAD_LETTERS: "50", ALERT_WEBHOOK_FAILURE_RATE: "0.25" }, request);
    const { alerts } = reply.body as Awaited<ReturnType<typeof health>>;
    expect(alerts.find((a) => a.rule === "dead_letters")!.threshold).toBe(50);
    expect(alerts.find((a) => a.rule === "webhook_failure_rate")!.threshold).toBe(0.25);
    // Not a number: the default, never an alert that cannot fire.
    const fallback = await fetchWithSettings({ ALERT_DEAD_LETTERS: "many" }, request.clone());
    expect((fallback.body as Awaited<ReturnType<typeof health>>).alerts.find((a) => a.rule === "dead_letters")!.threshold).toBe(1);
  });
});

describe("GET /readyz", () => {
  it("checks every database, KV and the queue producer, and names them without values", async () => {
    const reply = await call("GET", "/readyz");
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      status: "ready",
      service: "assent",
      checks: { databases: { DB: "ok", DB_SHARD_1: "ok" }, kv: "ok", queue: "ok", opsWebhook: "not_configured" },
    });
  });

  it("is not ready while a database lacks this release's migrations", async () => {
    const latest = await env.DB_SHARD_1.prepare("SELECT id, name, applied_at FROM d1_migrations ORDER BY id DESC LIMIT 1").first<{ id: number; name: string; applied_at: string }>();
    await env.DB_SHARD_1.prepare("DELETE FROM d1_migrations WHERE id = ?").bind(latest!.id).run();
    try {
      const reply = await call("GET", "/readyz");
      expectProblem(reply, 503, "not_ready");
      expect(problemOf(reply).failing).toEqual(["DB_SHARD_1"]);
      expect(JSON.stringify(reply.body)).not.toContain("test-");
    } finally {
      await env.DB_SHARD_1.prepare("INSERT INTO d1_migrations (id, name, applied_at) VALUES (?, ?, ?)").bind(latest!.id, latest!.name, latest!.applied_at).run();
    }
    expect((await call("GET", "/readyz")).status).toBe(200);
  });

  it("checks the operator's webhook settings: a URL the SSRF guard refuses, or one without its secret", async () => {
    const readyz = (settings: Record<string, string>) => app.request("http://assent.test/readyz", {}, { ...env, ...settings });
    const { settings } = opsWebhook();
    const ready = await readyz(settings as Record<string, string>);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { checks: { opsWebhook: string } }).checks.opsWebhook).toBe("ok");
    for (const [settings, missing] of [
      [{ OPS_WEBHOOK_URL: "https://10.0.0.1/hook", OPS_WEBHOOK_SECRET: "whsec_c2VjcmV0" }, "OPS_WEBHOOK_URL"],
      [{ OPS_WEBHOOK_URL: `${webhookReceiver}/ok/x` }, "OPS_WEBHOOK_SECRET"],
    ] as const) {
      const reply = await readyz(settings);
      expect(reply.status).toBe(503);
      const body = (await reply.json()) as { code: string; missing: string[] };
      expect(body).toMatchObject({ code: "not_configured", missing: [missing] });
      expect(JSON.stringify(body)).not.toContain("10.0.0.1");
    }
  });
});
