// Rotating the operator's secrets without downtime (docs/operations.md#rotating-secrets): during a rotation the
// Worker accepts the previous value beside the new one, and stops once the previous one is removed.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { app } from "../../worker/app";
import type { Env } from "../../worker/env";
import { signingSecrets } from "../../worker/events/delivery";
import { reencryptWebhookSecrets } from "../../worker/events/secrets-key-rotation";
import { webhooks } from "../../worker/events/table";
import { getDb } from "../../worker/lib/db";
import { runCron } from "./cron";
import { adminToken, newTenant, origin, webhookReceiver } from "./helpers";

/** GET /admin/v1/projects with `token`, on a Worker whose env differs from the suite's by `settings`. */
async function listProjects(token: string, settings: Partial<Env>) {
  const ctx = createExecutionContext();
  const reply = await app.fetch(new Request(`${origin}/admin/v1/projects`, { headers: { authorization: `Bearer ${token}` } }), { ...env, ...settings }, ctx);
  await waitOnExecutionContext(ctx);
  return reply.status;
}

describe("admin token rotation", () => {
  const next = "next-admin-token";

  it("accepts the new token and the previous one while ADMIN_TOKEN_PREVIOUS names it, and nothing else", async () => {
    const during = { ADMIN_TOKEN: next, ADMIN_TOKEN_PREVIOUS: adminToken };
    expect(await listProjects(next, during)).toBe(200);
    expect(await listProjects(adminToken, during)).toBe(200);
    expect(await listProjects("some-other-token", during)).toBe(401);
  });

  it("refuses the previous token once ADMIN_TOKEN_PREVIOUS is removed", async () => {
    expect(await listProjects(adminToken, { ADMIN_TOKEN: next })).toBe(401);
    expect(await listProjects(next, { ADMIN_TOKEN: next })).toBe(200);
    // An empty value (a secret put with nothing) accepts nothing extra.
    expect(await listProjects("", { ADMIN_TOKEN: next, ADMIN_TOKEN_PREVIOUS: "" })).toBe(401);
  });
});

describe("webhook secrets key rotation", () => {
  const nextKey = "next-webhook-secrets-key";
  const during = { ...env, WEBHOOK_SECRETS_KEY: nextKey, WEBHOOK_SECRETS_KEY_PREVIOUS: env.WEBHOOK_SECRETS_KEY } as Env;
  const after = { ...env, WEBHOOK_SECRETS_KEY: nextKey } as Env;
  const hookRow = async (id: string) => (await getDb(env.DB).select().from(webhooks).where(eq(webhooks.id, id)))[0]!;

  it("signs with secrets stored under the previous key, and the cron moves every secret to the new key", async () => {
    const t = await newTenant();
    const created = await t.api("POST", "/webhooks", { url: `${webhookReceiver}/ok/rotation`, events: ["permission.created"] });
    expect(created.status).toBe(201);
    const first = created.body.secret;
    // A secret rotated with a grace period: both the current and the previous one are stored, both under the old key.
    const rotated = await t.api("POST", `/webhooks/${created.body.webhookId}/secret`, { gracePeriodSeconds: 3600 });
    expect(rotated.status).toBe(200);
    const second = rotated.body.secret;
    const stored = await hookRow(created.body.webhookId);

    expect(await signingSecrets(during, stored)).toEqual([second, first]);
    await expect(signingSecrets(after, stored)).rejects.toThrow();

    await expect(runCron(Date.now(), during)).resolves.toBeUndefined();
    const moved = await hookRow(created.body.webhookId);
    expect(moved.secret).not.toBe(stored.secret);
    expect(await signingSecrets(after, moved)).toEqual([second, first]);
  });

  it("leaves secrets alone when no previous key is set, and a secret neither key reads is left for the operator", async () => {
    const t = await newTenant();
    const created = await t.api("POST", "/webhooks", { url: `${webhookReceiver}/ok/rotation-2`, events: ["permission.created"] });
    const stored = await hookRow(created.body.webhookId);
    await runCron();
    expect((await hookRow(created.body.webhookId)).secret).toBe(stored.secret);
    const wrongPrevious = { ...env, WEBHOOK_SECRETS_KEY: nextKey, WEBHOOK_SECRETS_KEY_PREVIOUS: "not-the-old-key" } as Env;
    await expect(runCron(Date.now(), wrongPrevious)).resolves.toBeUndefined();
    expect((await hookRow(created.body.webhookId)).secret).toBe(stored.secret);
    expect((await reencryptWebhookSecrets(wrongPrevious)).unreadable).toBeGreaterThanOrEqual(1);
  });
});
