import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Env } from "../../worker/env";
import { runCron } from "./cron";
import { admin } from "./helpers";
import { callWithSettings, genericSms, messageWithTrail, outboxOf, providerLog, registeredTenant, smsSettings, uniqueAccount } from "./hub-helpers";

// Expiry, non-retryable errors, failover and text retention, run through the Worker's scheduled handler and its
// queue consumer, at a scheduled time moved forward instead of waiting.

async function cron(settings: Partial<Env>, at: number) {
  await runCron(at, settings);
}

const hour = 3_600_000;

describe("an end to every message", () => {
  it("retries a transient failure with backoff, then expires it when the route's validity ends, with an event", async () => {
    const tenant = await registeredTenant();
    const account = `u${uniqueAccount(tenant.projectId)}`;
    const settings = smsSettings({ elks: { adapter: "46elks", validityHours: 0.5 } }, { elks: { username: account, password: "good-password" } });
    const hook = await tenant.api("POST", "/webhooks", { url: "https://hooks.customer.example/ok/expiry", events: ["sms.status_changed"] });
    expect(hook.status).toBe(201);
    const sent = await callWithSettings(settings, "POST", "/v1/sms", { token: tenant.token, body: genericSms({ provider: "elks", receiver: "+46700000500" }) });
    expect(sent.status).toBe(200);
    let [row] = await outboxOf(tenant.projectId);
    expect(row).toMatchObject({ status: "retrying", attempts: 1 });
    const created = Date.parse(row.created);
    expect(Date.parse(row.expires) - created).toBe(hour / 2);

    // Each due pass tries again (backoff 1, 2, 4 … min) while the validity lasts.
    let at = created;
    for (let i = 0; i < 3; i++) {
      at = Date.parse(row.nextAttempt);
      await cron(settings, at);
      [row] = await outboxOf(tenant.projectId);
    }
    expect(row).toMatchObject({ status: "retrying", attempts: 4 });
    expect(await providerLog(account)).toHaveLength(4);

    // Past the validity end: expired, no further hand-off, ever.
    await cron(settings, created + hour);
    [row] = await outboxOf(tenant.projectId);
    expect(row).toMatchObject({ status: "expired", nextAttempt: null });
    await cron(settings, created + 48 * hour);
    expect(await providerLog(account)).toHaveLength(4);
    const trail = (await messageWithTrail(row.id)).trail.map((t: { status: string }) => t.status);
    expect(trail).toEqual(["pending", "retrying", "retrying", "retrying", "retrying", "expired"]);
    // The expiry's event was written for the webhook (delivered by the queue like every event).
    const events = await env.DB.prepare("SELECT data FROM events WHERE project_id = ? AND type = 'sms.status_changed' ORDER BY created")
      .bind(tenant.projectId)
      .all<{ data: string }>();
    expect(events.results.map((e) => JSON.parse(e.data).status)).toEqual(["retrying", "expired"]);
  });

  it("settles a message at once when the provider's error cannot succeed on retry", async () => {
    const tenant = await registeredTenant();
    const account = `AC${uniqueAccount(tenant.projectId)}`;
    const settings = smsSettings({ twilio: { adapter: "twilio" } }, { twilio: { accountSid: account, authToken: "good-token" } });
    await callWithSettings(settings, "POST", "/v1/sms", { token: tenant.token, body: genericSms({ provider: "twilio", receiver: "+46700000400" }) });
    const [row] = await outboxOf(tenant.projectId);
    expect(row).toMatchObject({ status: "failed", errorCode: "21211", nextAttempt: null, attempts: 1 });
    await cron(settings, Date.now() + 2 * hour);
    expect(await providerLog(account)).toHaveLength(1);
  });
});

describe("failover", () => {
  it("moves a failing route's waiting messages to its fallback, recorded in the trail", async () => {
    const tenant = await registeredTenant();
    const base = uniqueAccount(tenant.projectId);
    // The Sinch fake is in an outage for service plans named down…; 46elks works. Route health is per route name,
    // shared by the tests of this file, so these routes have names of their own.
    const failing = smsSettings(
      { primary: { adapter: "sinch", fallback: "backup", failoverAfter: 2 }, backup: { adapter: "46elks" } },
      { primary: { servicePlanId: `down${base}`, apiToken: "good-token" }, backup: { username: `u${base}`, password: "good-password" } },
    );
    for (const receiver of ["+46701234567", "+46701234568"]) {
      const reply = await callWithSettings(failing, "POST", "/v1/sms", { token: tenant.token, body: genericSms({ provider: "primary", receiver }) });
      expect(reply.status).toBe(200);
    }
    let rows = await outboxOf(tenant.projectId);
    expect(rows.map((r) => [r.provider, r.status])).toEqual([
      ["primary", "retrying"],
      ["primary", "retrying"],
    ]);
    const routes = (await callWithSettings(failing, "GET", "/admin/v1/sms/routes", { token: "test-admin-token", body: undefined })).body.items;
    expect(routes.find((r: { name: string }) => r.name === "primary")).toMatchObject({ consecutiveFailures: 2, waiting: 2, fallback: "backup", configured: true });
    expect(JSON.stringify(routes)).not.toContain("good-token");

    await cron(failing, Date.now());
    rows = await outboxOf(tenant.projectId);
    expect(rows.map((r) => [r.provider, r.status])).toEqual([
      ["backup", "accepted"],
      ["backup", "accepted"],
    ]);
    const trail = (await messageWithTrail(rows[0].id)).trail;
    expect(trail.map((t: { status: string; route: string }) => [t.status, t.route])).toEqual([
      ["pending", "primary"],
      ["retrying", "primary"],
      ["retrying", "backup"],
      ["accepted", "backup"],
    ]);
    expect(trail[2].detail).toMatch(/^Rerouted from primary to backup/);
    expect(await providerLog(`u${base}`)).toHaveLength(2);
  });

  it("leaves the messages where they are when the fallback is failing too", async () => {
    const tenant = await registeredTenant();
    const base = uniqueAccount(tenant.projectId);
    const bothDown = smsSettings(
      { a: { adapter: "sinch", fallback: "b", failoverAfter: 1 }, b: { adapter: "sinch", fallback: "a", failoverAfter: 1 } },
      { a: { servicePlanId: `downa${base}`, apiToken: "good-token" }, b: { servicePlanId: `downb${base}`, apiToken: "good-token" } },
    );
    for (const provider of ["a", "b"]) {
      expect((await callWithSettings(bothDown, "POST", "/v1/sms", { token: tenant.token, body: genericSms({ provider }) })).status).toBe(200);
    }
    await cron(bothDown, Date.now());
    const rows = await outboxOf(tenant.projectId);
    expect(rows.map((r) => [r.provider, r.status])).toEqual([
      ["a", "retrying"],
      ["b", "retrying"],
    ]);
    for (const row of rows) expect((await messageWithTrail(row.id)).trail.some((t: { detail: string }) => t.detail.startsWith("Rerouted"))).toBe(false);
  });
});

describe("retention of SMS texts", () => {
  it("blanks the text of settled messages after SMS_TEXT_RETENTION_DAYS, keeping the record", async () => {
    const tenant = await registeredTenant();
    for (const message of ["old secret code 1234", "another"]) {
      expect((await callWithSettings({}, "POST", "/v1/sms", { token: tenant.token, body: genericSms({ message }) })).status).toBe(200);
    }
    const settings = { SMS_TEXT_RETENTION_DAYS: "7" };
    await cron(settings, Date.now() + 6 * 24 * hour);
    expect((await outboxOf(tenant.projectId)).map((r) => r.message)).toEqual(["old secret code 1234", "another"]);
    const at = Date.now() + 8 * 24 * hour;
    await cron(settings, at);
    const rows = await outboxOf(tenant.projectId);
    expect(rows.map((r) => [r.message, r.status, r.textPurged])).toEqual([
      ["", "outbox_only", new Date(at).toISOString()],
      ["", "outbox_only", new Date(at).toISOString()],
    ]);
    expect((await admin("GET", `/messages/${rows[0].id}`)).body.receiver).toBe("+46701234567");
  });
});
