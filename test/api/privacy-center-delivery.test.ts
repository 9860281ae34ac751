// How one-time codes reach people, and what stays of them at rest. Email goes through an HTTP email API (a stand-in
// reached as any outbound fetch is, test/api/webhooks-receiver.js), Cloudflare's send_email binding (Miniflare's), or,
// with neither, the captured outbox; SMS through the hub's route to a provider fake (test/api/sms-provider-fakes.js)
// or, with no provider, the hub's outbox. A code is kept in clear only where nothing delivers it, and for a day.
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import type { Env } from "../../worker/env";
import { purgeSmsTexts } from "../../worker/hub/cron";
import { purgeEmailOutbox } from "../../worker/retention/jobs";
import { providerLog, smsSettings } from "./hub-helpers";
import { ok } from "./helpers";
import { center, centerTenant, centerWithSettings, emailedCode, uniqueEmail, uniquePhone } from "./privacy-center-helpers";

type Received = { url: string; method: string; headers: Record<string, string>; body: string };
const receivedBy = async (key: string) => (await fetch(`https://email-api.example/__log/${key}`)).json<Received[]>();

const rowsOf = async (table: string, projectId: string) =>
  (await env.DB.prepare(`SELECT * FROM ${table} WHERE project_id = ?`).bind(projectId).all<Record<string, unknown>>()).results;

/** What the hub and the email outbox keep about a project's messages, each SMS with its trail. */
async function keptAbout(projectId: string) {
  const sms = await rowsOf("sms_messages", projectId);
  const trails = await Promise.all(
    sms.map(async (row) => (await env.DB.prepare("SELECT * FROM sms_trail WHERE message_id = ? ORDER BY seq").bind(row.id).all<Record<string, unknown>>()).results),
  );
  return { emails: await rowsOf("email_outbox", projectId), sms, trails };
}

const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)![1];

const verifies = async (projectId: string, channel: string, address: string, code: string) =>
  ok(await center(projectId, "POST", "/sessions", { body: { channel, address, code } }), 201);

describe("email through an HTTP email API", () => {
  it("posts {from, to, subject, text} with the bearer key, and keeps only the outcome: no code at rest", async () => {
    const tenant = await centerTenant();
    const key = `email-${tenant.projectId}`;
    const address = uniqueEmail();
    const settings: Partial<Env> = { EMAIL_API_URL: `https://email-api.example/ok/${key}`, EMAIL_API_KEY: "test-email-key", EMAIL_FROM: "privacy@assent.example" };
    const sent = await centerWithSettings(settings, tenant.projectId, "POST", "/codes", { body: { channel: "email", address }, headers: { "accept-language": "de" } });
    expect(sent.status).toBe(202);

    const [call, ...more] = await receivedBy(key);
    expect(more).toEqual([]);
    expect(call.method).toBe("POST");
    expect(call.headers.authorization).toBe("Bearer test-email-key");
    expect(call.headers["content-type"]).toBe("application/json");
    const mail = JSON.parse(call.body) as Record<string, string>;
    expect(Object.keys(mail).sort()).toEqual(["from", "subject", "text", "to"]);
    expect(mail).toMatchObject({ from: "privacy@assent.example", to: address });
    const code = codeIn(mail.text);
    // The subject is in the visitor's language and never holds the code (subjects show in notifications and lists).
    expect(mail.subject).toContain("Datenschutzcenter");
    expect(mail.subject).not.toMatch(/\d{6}/);

    const kept = await keptAbout(tenant.projectId);
    expect(kept.emails).toEqual([expect.objectContaining({ to: address, subject: null, text: null, status: "sent", error: null })]);
    expect(JSON.stringify(kept)).not.toContain(code);
    await verifies(tenant.projectId, "email", address, code);
  });

  it("records a refused call as failed, once: no retry", async () => {
    const tenant = await centerTenant();
    const key = `email-down-${tenant.projectId}`;
    const settings: Partial<Env> = { EMAIL_API_URL: `https://email-api.example/always-500/${key}`, EMAIL_API_KEY: "test-email-key" };
    expect((await centerWithSettings(settings, tenant.projectId, "POST", "/codes", { body: { channel: "email", address: uniqueEmail() } })).status).toBe(202);
    expect(await receivedBy(key)).toHaveLength(1);
    const { emails } = await keptAbout(tenant.projectId);
    expect(emails).toEqual([expect.objectContaining({ subject: null, text: null, status: "failed", error: "The email API answered 500." })]);
  });
});

describe("email through the send_email binding", () => {
  // Miniflare's binding checks what Cloudflare's does: a parsable message whose From matches, from an allowed sender.
  it("hands over a message the binding accepts, and records the binding's refusal", async () => {
    const tenant = await centerTenant();
    const binding = { SEND_EMAIL: env.TEST_SEND_EMAIL };
    for (const [from, status] of [
      ["privacy@assent.example", "sent"],
      ["someone@elsewhere.example", "failed"],
    ]) {
      const address = uniqueEmail();
      const sent = await centerWithSettings({ ...binding, EMAIL_FROM: from }, tenant.projectId, "POST", "/codes", { body: { channel: "email", address } });
      expect(sent.status).toBe(202);
      const [row] = (await keptAbout(tenant.projectId)).emails.filter((email) => email.to === address);
      expect(row).toMatchObject({ subject: null, text: null, status });
      if (status === "failed") expect(row.error).toEqual(expect.stringContaining(from));
    }
  });
});

describe("SMS through a provider", () => {
  it("blanks the code's text once the provider accepted it, and says so in the trail", async () => {
    const tenant = await centerTenant();
    const phone = uniquePhone();
    const account = `pcd${tenant.projectId.slice(-8)}`;
    const settings = smsSettings({ sms_hub: { adapter: "46elks" } }, { sms_hub: { username: account, password: "good-password" } });
    expect((await centerWithSettings(settings, tenant.projectId, "POST", "/codes", { body: { channel: "sms", address: phone } })).status).toBe(202);
    const [message] = await providerLog(account);
    const code = codeIn(message.form.message);

    const kept = await keptAbout(tenant.projectId);
    expect(kept.sms).toEqual([expect.objectContaining({ receiver: phone, status: "accepted", text: "", text_purged: expect.any(String) })]);
    expect(kept.trails[0].map((entry) => entry.detail)).toEqual(["Written to the outbox.", "sms_hub accepted the message; text removed: one-time code."]);
    expect(JSON.stringify(kept)).not.toContain(code);
    await verifies(tenant.projectId, "sms", phone, code);
  });

  it("keeps the text while a retry may need it, and blanks it once the provider refused for good", async () => {
    const tenant = await centerTenant();
    const account = `pcf${tenant.projectId.slice(-8)}`;
    const settings = smsSettings({ sms_hub: { adapter: "46elks" } }, { sms_hub: { username: account, password: "good-password" } });
    // The fake's outage number fails for now (a retry will follow); its invalid number fails for good.
    for (const phone of ["+46700000500", "+46700000400"]) {
      expect((await centerWithSettings(settings, tenant.projectId, "POST", "/codes", { body: { channel: "sms", address: phone } })).status).toBe(202);
    }
    const [outage, invalid] = await providerLog(account);
    const { sms, trails } = await keptAbout(tenant.projectId);
    const byReceiver = (phone: string) => sms.findIndex((row) => row.receiver === phone);
    expect(sms[byReceiver("+46700000500")]).toMatchObject({ status: "retrying", text: outage.form.message, text_purged: null });
    expect(sms[byReceiver("+46700000400")]).toMatchObject({ status: "failed", text: "", text_purged: expect.any(String) });
    expect(trails[byReceiver("+46700000400")].at(-1)?.detail).toMatch(/; text removed: one-time code\.$/);
    expect(JSON.stringify(sms[byReceiver("+46700000400")])).not.toContain(codeIn(invalid.form.message));
  });
});

describe("where nothing delivers the code (local development)", () => {
  const day = 24 * 3600_000;

  it("keeps a captured email a day, then the retention deletes it", async () => {
    const tenant = await centerTenant();
    const address = uniqueEmail();
    ok(await center(tenant.projectId, "POST", "/codes", { body: { channel: "email", address } }), 202);
    const code = await emailedCode(tenant.projectId, address);
    expect((await keptAbout(tenant.projectId)).emails).toEqual([expect.objectContaining({ status: "captured", text: expect.stringContaining(code) })]);
    await purgeEmailOutbox(env, Date.now() + day - 60_000);
    expect((await keptAbout(tenant.projectId)).emails).toHaveLength(1);
    await purgeEmailOutbox(env, Date.now() + day + 60_000);
    expect((await keptAbout(tenant.projectId)).emails).toEqual([]);
  });

  it("keeps a provider's outcome 30 days, then deletes it with the recipient's address", async () => {
    const tenant = await centerTenant();
    const settings: Partial<Env> = { EMAIL_API_URL: `https://email-api.example/ok/email-kept-${tenant.projectId}`, EMAIL_API_KEY: "test-email-key" };
    expect((await centerWithSettings(settings, tenant.projectId, "POST", "/codes", { body: { channel: "email", address: uniqueEmail() } })).status).toBe(202);
    expect((await keptAbout(tenant.projectId)).emails).toEqual([expect.objectContaining({ status: "sent" })]);
    await purgeEmailOutbox(env, Date.now() + 30 * day - 60_000);
    expect((await keptAbout(tenant.projectId)).emails).toHaveLength(1);
    await purgeEmailOutbox(env, Date.now() + 30 * day + 60_000);
    expect((await keptAbout(tenant.projectId)).emails).toEqual([]);
  });

  it("keeps an SMS code in the hub's outbox a day, then blanks its text", async () => {
    const tenant = await centerTenant();
    const phone = uniquePhone();
    ok(await center(tenant.projectId, "POST", "/codes", { body: { channel: "sms", address: phone } }), 202);
    const outboxOnly = async () => {
      const [row] = (await keptAbout(tenant.projectId)).sms;
      expect(row?.status).toBe("outbox_only");
      return row;
    };
    const row = await vi.waitFor(outboxOnly, { timeout: 10_000, interval: 50 });
    const code = codeIn(row.text as string);
    await purgeSmsTexts(env, Date.now() + day - 60_000);
    expect((await outboxOnly()).text).toContain(code);
    await purgeSmsTexts(env, Date.now() + day + 60_000);
    expect(await outboxOnly()).toMatchObject({ text: "", text_purged: expect.any(String) });
    expect(JSON.stringify(await keptAbout(tenant.projectId))).not.toContain(code);
  });
});
