import { env } from "cloudflare:workers";
import { createHmac } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { origin, problemOf } from "./helpers";
import {
  callWithSettings,
  fetchWithSettings,
  genericSms,
  messageWithTrail,
  outboxOf,
  providerLog,
  registeredTenant,
  smsSettings,
  uniqueAccount,
} from "./hub-helpers";

// Delivery reports: valid ones move the message on (and emit sms.status_changed to subscribed webhooks); forged ones
// are refused; replayed, backwards and unknown-message ones change nothing and get the provider's success answer.

const hooks = "https://hooks.customer.example";

/** Twilio's documented algorithm, written independently of the Worker's: HMAC-SHA1 over URL + sorted name+value, base64. */
const twilioSignature = (authToken: string, url: string, params: Record<string, string>) =>
  createHmac("sha1", authToken)
    .update(url + Object.keys(params).sort().map((k) => k + params[k]).join(""))
    .digest("base64");

/** Vonage's signed callbacks, method SHA-256 HMAC: over `&name=value` sorted by name (`&`, `=` in values as `_`), upper-case hex. */
const vonageSignature = (secret: string, params: Record<string, string>) =>
  createHmac("sha256", secret)
    .update(Object.keys(params).sort().map((k) => `&${k}=${params[k].replace(/[&=]/g, "_")}`).join(""))
    .digest("hex")
    .toUpperCase();

const form = (url: string, params: Record<string, string>, headers: Record<string, string> = {}) =>
  new Request(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(params) });

async function twilioSetup() {
  const tenant = await registeredTenant();
  const account = `AC${uniqueAccount(tenant.projectId)}`;
  const settings = smsSettings({ twilio: { adapter: "twilio" } }, { twilio: { accountSid: account, authToken: "good-token" } });
  const key = crypto.randomUUID();
  const hook = await tenant.api("POST", "/webhooks", { url: `${hooks}/ok/${key}`, events: ["sms.status_changed"] });
  expect(hook.status).toBe(201);
  expect((await callWithSettings(settings, "POST", "/v1/sms", { token: tenant.token, body: genericSms({ provider: "twilio" }) })).status).toBe(200);
  const [row] = await outboxOf(tenant.projectId);
  expect(row.status).toBe("accepted");
  return { ...tenant, account, settings, row, key };
}

describe("Twilio status callbacks", () => {
  const url = `${origin}/callbacks/sms/twilio`;
  const report = (sid: string, status: string, extra: Record<string, string> = {}) => ({
    MessageSid: sid,
    SmsSid: sid,
    MessageStatus: status,
    SmsStatus: status,
    AccountSid: "ACignored",
    To: "+46701234567",
    From: "DemoShop",
    ApiVersion: "2010-04-01",
    ...extra,
  });
  const signed = (params: Record<string, string>, token = "good-token") => form(url, params, { "x-twilio-signature": twilioSignature(token, url, params) });

  it("registers the callback URL it checks, and takes a validly signed report", async () => {
    const { settings, row, account } = await twilioSetup();
    expect((await providerLog(account))[0].form.StatusCallback).toBe(url);
    const reply = await fetchWithSettings(settings, signed(report(row.providerRef, "delivered")));
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toBe("text/xml");
    const message = await messageWithTrail(row.id);
    expect(message.status).toBe("delivered");
    expect(message.trail.map((t: { status: string }) => t.status)).toEqual(["pending", "accepted", "delivered"]);
    // The admin list carries the same trail for each message.
    expect((await outboxOf(message.projectId))[0].trail).toEqual(message.trail);
  });

  it("refuses a forged report (wrong key, tampered parameter, no signature) and changes nothing", async () => {
    const { settings, row } = await twilioSetup();
    const params = report(row.providerRef, "delivered");
    expect((await fetchWithSettings(settings, signed(params, "not-the-token"))).status).toBe(403);
    const tampered = form(url, { ...params, MessageStatus: "failed" }, { "x-twilio-signature": twilioSignature("good-token", url, params) });
    expect((await fetchWithSettings(settings, tampered)).status).toBe(403);
    const unsigned = await fetchWithSettings(settings, form(url, params));
    expect(unsigned.status).toBe(403);
    expect(problemOf(unsigned).code).toBe("invalid_signature");
    expect((await messageWithTrail(row.id)).trail).toHaveLength(2);
  });

  it("ignores replays, reports that go backwards and unknown messages, answering 200 so Twilio stops", async () => {
    const { settings, row } = await twilioSetup();
    expect((await fetchWithSettings(settings, signed(report(row.providerRef, "undelivered", { ErrorCode: "30003" })))).status).toBe(200);
    for (const params of [
      report(row.providerRef, "undelivered", { ErrorCode: "30003" }), // replay
      report(row.providerRef, "sent"), // late, out of order
      report(row.providerRef, "delivered"), // a final status stays final
      report("SM00000000000000000000000000000000", "delivered"), // unknown
    ]) {
      expect((await fetchWithSettings(settings, signed(params))).status).toBe(200);
    }
    const message = await messageWithTrail(row.id);
    expect(message).toMatchObject({ status: "undelivered", errorCode: "30003" });
    expect(message.trail).toHaveLength(3);
  });

  it("lets only one of two concurrent final reports land: one final status, one trail entry, one event", async () => {
    const { settings, row, projectId } = await twilioSetup();
    const replies = await Promise.all(
      ["delivered", "undelivered", "failed", "delivered"].map((status) => fetchWithSettings(settings, signed(report(row.providerRef, status)))),
    );
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const message = await messageWithTrail(row.id);
    expect(message.trail).toHaveLength(3);
    expect(message.trail[2].status).toBe(message.status);
    const events = await env.DB.prepare("SELECT data FROM events WHERE project_id = ? AND type = 'sms.status_changed'").bind(projectId).all<{ data: string }>();
    expect(events.results.map((e) => JSON.parse(e.data).previousStatus).sort()).toEqual(["accepted", "pending"]);
  });

  it("delivers sms.status_changed for every status change to a subscribed webhook", { timeout: 60_000 }, async () => {
    const { settings, row, key, projectId } = await twilioSetup();
    expect((await fetchWithSettings(settings, signed(report(row.providerRef, "delivered")))).status).toBe(200);
    const bodies = await vi.waitFor(
      async () => {
        const received = await (await fetch(`${hooks}/__log/${key}`)).json<{ body: string }[]>();
        expect(received).toHaveLength(2);
        return received.map((r) => JSON.parse(r.body));
      },
      { timeout: 30_000, interval: 100 },
    );
    const changes = bodies.map((b) => [b.type, b.projectId, b.data.messageId, b.data.previousStatus, b.data.status]);
    expect(changes.sort((a, b) => String(a[3]).localeCompare(String(b[3])))).toEqual([
      ["sms.status_changed", projectId, row.id, "accepted", "delivered"],
      ["sms.status_changed", projectId, row.id, "pending", "accepted"],
    ]);
    expect(bodies[0].data).toMatchObject({ receiver: "+46701234567", sender: "DemoShop", route: "twilio" });
  });
});

describe("reports authenticated by the route's URL token (46elks, Sinch) and Vonage's signature", () => {
  it("takes a 46elks report with the token it registered, and refuses a wrong or missing token", async () => {
    const tenant = await registeredTenant();
    const account = `u${uniqueAccount(tenant.projectId)}`;
    const settings = smsSettings({ elks: { adapter: "46elks" } }, { elks: { username: account, password: "good-password" } });
    expect((await callWithSettings(settings, "POST", "/v1/sms", { token: tenant.token, body: genericSms({ provider: "elks" }) })).status).toBe(200);
    const [row] = await outboxOf(tenant.projectId);
    const callbackUrl = (await providerLog(account))[0].form.whendelivered as string;
    const params = { id: row.providerRef, status: "delivered", delivered: new Date().toISOString() };
    const bare = callbackUrl.split("?")[0];
    expect((await fetchWithSettings(settings, form(`${bare}?token=${"A".repeat(43)}`, params))).status).toBe(403);
    expect((await fetchWithSettings(settings, form(bare, params))).status).toBe(403);
    // Another route's token does not open this one.
    const otherSettings = smsSettings({ elks: { adapter: "46elks" } }, { elks: { username: account, password: "another-password" } });
    expect((await fetchWithSettings(otherSettings, form(callbackUrl, params))).status).toBe(403);
    expect((await outboxOf(tenant.projectId))[0].status).toBe("accepted");
    expect((await fetchWithSettings(settings, form(callbackUrl, params))).status).toBe(200);
    expect((await outboxOf(tenant.projectId))[0].status).toBe("delivered");
    expect((await fetchWithSettings(settings, form(callbackUrl, { id: "s_unknown", status: "failed" }))).status).toBe(200);
  });

  it("takes a Sinch JSON report matched by batch id, with the provider's code on failure", async () => {
    const tenant = await registeredTenant();
    const account = `plan${uniqueAccount(tenant.projectId)}`;
    const settings = smsSettings({ sinch: { adapter: "sinch" } }, { sinch: { servicePlanId: account, apiToken: "good-token" } });
    expect((await callWithSettings(settings, "POST", "/v1/sms", { token: tenant.token, body: genericSms({ provider: "sinch" }) })).status).toBe(200);
    const [row] = await outboxOf(tenant.projectId);
    const [sent] = await providerLog(account);
    expect(sent.host).toBe("us.sms.api.sinch.com");
    const report = {
      type: "recipient_delivery_report_sms",
      batch_id: row.providerRef,
      recipient: "46701234567",
      code: 402,
      status: "Failed",
      at: new Date().toISOString(),
      client_reference: row.id,
    };
    const request = new Request(sent.json.callback_url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(report) });
    expect((await fetchWithSettings(settings, request)).status).toBe(200);
    expect((await outboxOf(tenant.projectId))[0]).toMatchObject({ status: "failed", errorCode: "402" });
  });

  it("checks Vonage's signed receipts (GET or POST) when the route has a signature secret", async () => {
    const tenant = await registeredTenant();
    const account = `key${uniqueAccount(tenant.projectId)}`;
    const secret = "vonage-signature-secret";
    const settings = smsSettings({ vonage: { adapter: "vonage" } }, { vonage: { apiKey: account, apiSecret: "good-secret", signatureSecret: secret } });
    const long = "x".repeat(200); // two parts, two receipts
    expect((await callWithSettings(settings, "POST", "/v1/sms", { token: tenant.token, body: genericSms({ provider: "vonage", message: long }) })).status).toBe(200);
    const [row] = await outboxOf(tenant.projectId);
    const [sent] = await providerLog(account);
    expect(sent.form.callback).toBe(`${origin}/callbacks/sms/vonage`); // signed: no token in the URL
    const receipt = (status: string, messageId: string) => {
      const params: Record<string, string> = {
        msisdn: "46701234567",
        to: "DemoShop",
        "network-code": "24001",
        messageId,
        price: "0.03330000",
        status,
        scts: "2611231200",
        "err-code": status === "delivered" ? "0" : "5",
        "api-key": account,
        "client-ref": row.id,
        "message-timestamp": "2026-11-23 12:00:00",
        timestamp: String(Math.floor(Date.now() / 1000)),
        nonce: crypto.randomUUID(),
      };
      return { ...params, sig: vonageSignature(secret, params) };
    };
    const get = (params: Record<string, string>) => new Request(`${origin}/callbacks/sms/vonage?${new URLSearchParams(params)}`);
    const forged = { ...receipt("delivered", "part-1"), status: "expired" };
    expect((await fetchWithSettings(settings, get(forged))).status).toBe(403);
    const first = await fetchWithSettings(settings, get(receipt("delivered", "part-1")));
    expect(first.status).toBe(204);
    expect((await outboxOf(tenant.projectId))[0].status).toBe("delivered");
    expect((await fetchWithSettings(settings, form(`${origin}/callbacks/sms/vonage`, receipt("delivered", "part-2")))).status).toBe(204);
    expect((await messageWithTrail(row.id)).trail).toHaveLength(3);
  });

  it("takes the generic gateway's report at its statusCallback, with the route's token", async () => {
    const { projectId, token } = await registeredTenant();
    const settings = { ISSUER: origin, SMS_HUB_UPSTREAM_URL: `http://sms-gateway.test/ok/${projectId}`, SMS_HUB_UPSTREAM_SECRET: "gateway-secret" };
    expect((await callWithSettings(settings, "POST", "/v1/sms", { token, body: genericSms() })).status).toBe(200);
    const [row] = await outboxOf(projectId);
    const [sent] = await (await fetch(`http://sms-gateway.test/__log/${projectId}`)).json<{ body: string }[]>();
    const { statusCallback } = JSON.parse(sent.body);
    expect(statusCallback).toMatch(/^http:\/\/assent\.test\/callbacks\/sms\/sms_hub\?token=[A-Za-z0-9_-]{43}$/);
    const report = (url: string) =>
      new Request(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ id: row.id, status: "delivered" }) });
    expect((await fetchWithSettings(settings, report(statusCallback.replace(/token=.*/, `token=${"x".repeat(43)}`)))).status).toBe(403);
    expect((await fetchWithSettings(settings, report(statusCallback))).status).toBe(200);
    expect((await outboxOf(projectId))[0].status).toBe("delivered");
  });

  it("answers 404 for a route that is not configured, and 413 for an oversized report", async () => {
    const reply = await fetchWithSettings({}, form(`${origin}/callbacks/sms/nowhere`, { id: "x", status: "delivered" }));
    expect(reply.status).toBe(404);
    const huge = await fetchWithSettings({}, form(`${origin}/callbacks/sms/sms_hub`, { id: "x", status: "delivered", pad: "x".repeat(70_000) }));
    expect(huge.status).toBe(413);
    expect(problemOf(huge).code).toBe("payload_too_large");
  });
});
