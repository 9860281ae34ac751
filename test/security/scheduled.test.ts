// Findings: on a fresh start the cron invocation failed, so outbox dispatch, SMS retries (and now retention) never
// ran locally; and visitor identities that never recorded anything were never cleaned up. The handler is run here
// as the runtime runs it: the Worker's own `scheduled` export, then its queue consumer on the runs the trigger sent.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { runCron } from "../api/cron";
import { call, newClient, newTenant, subscribed } from "../api/helpers";
import { freshIp } from "./callers";

const day = 24 * 3600 * 1000;

const count = async (sql: string, ...binds: unknown[]) =>
  (await env.DB.prepare(sql).bind(...binds).first<{ n: number }>())!.n;

describe("the cron trigger", () => {
  it("succeeds on a fresh database", async () => {
    await expect(runCron()).resolves.toBeUndefined();
  });

  it("purges visitor identities that never recorded anything once they are older than the retention period", async () => {
    const tenant = await newTenant();
    await newClient(tenant.projectId, "web", ["https://shop.example"]);
    const visit = async () =>
      (
        await call("POST", `/browser/v1/projects/${tenant.projectId}/visitor-tokens`, {
          body: {},
          headers: { origin: "https://shop.example", "cf-connecting-ip": freshIp() },
        })
      ).body.identityId as string;
    const idle = await visit();
    const active = await visit();
    expect((await tenant.api("POST", "/erasures", { identityId: active })).status).toBe(201);
    const known = (await tenant.api("POST", "/identities", {})).body.identityId as string;

    await runCron(Date.now() + 29 * day);
    expect(await count("SELECT count(*) AS n FROM identities WHERE id = ?", idle)).toBe(1);

    await runCron(Date.now() + 31 * day);
    expect(await count("SELECT count(*) AS n FROM identities WHERE id = ?", idle)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM aliases WHERE identity_id = ?", idle)).toBe(0);
    expect(await count("SELECT count(*) AS n FROM identities WHERE id IN (?, ?)", active, known)).toBe(2);
  });

  it("purges dispatched outbox events after their retention period", async () => {
    const tenant = await newTenant();
    // The outbox keeps events only for a subscriber; the cron fans them out (dispatched), and once the webhook is
    // deleted (its delivery log with it) no delivery names them any more.
    const { webhookId } = await subscribed(tenant, ["erasure.created"]);
    const identityId = (await tenant.api("POST", "/identities", {})).body.identityId;
    expect((await tenant.api("POST", "/erasures", { identityId })).status).toBe(201);
    await runCron();
    expect((await tenant.api("DELETE", `/webhooks/${webhookId}`)).status).toBe(204);
    const events = () => count("SELECT count(*) AS n FROM events WHERE project_id = ? AND dispatched IS NOT NULL", tenant.projectId);
    expect(await events()).toBeGreaterThan(0);
    await runCron(Date.now() + 6 * day);
    expect(await events()).toBeGreaterThan(0);
    await runCron(Date.now() + 8 * day);
    expect(await events()).toBe(0);
  });
});
