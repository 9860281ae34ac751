// Moving a project that uses the hub (docs/operations-cron.md#moving-a-project-that-uses-the-hub). The hub's tables
// stay in DB whatever the project; the project's own rows move. Before, the move script refused such a project, and
// the hub could not serve one outside DB: its registration referenced `clients` by foreign key in DB (deleting the
// moved rows from DB cascaded it away), registering a client looked for it in DB only, and `sms.status_changed` was
// written to DB's outbox, where the project has no webhook.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { deleteStatements, exportQueries, importStatements } from "../../scripts/move-project-sql.mjs";
import { app } from "../../worker/app";
import type { Env } from "../../worker/env";
import { runCron } from "./cron";
import { adminToken, origin, replyTo, subscribed } from "./helpers";
import { genericSms, registeredTenant } from "./hub-helpers";

const shard = env.DB_SHARD_1;
const count = async (d1: D1Database, sql: string, ...binds: unknown[]) => (await d1.prepare(sql).bind(...binds).first<{ n: number }>())!.n;

/** The project's rows copied into the shard and deleted from DB, as scripts/move-project.mjs and its steps do. */
async function moved(projectId: string): Promise<Partial<Env>> {
  const rows = await Promise.all(exportQueries(projectId).map(async (sql) => (await env.DB.prepare(sql).all<Record<string, unknown>>()).results));
  await shard.batch(importStatements(projectId, rows).map((sql) => shard.prepare(sql)));
  const map = { ...(JSON.parse(env.PROJECT_DATABASES ?? "{}") as Record<string, string>), [projectId]: "DB_SHARD_1" };
  await env.DB.batch(deleteStatements(projectId).map((sql) => env.DB.prepare(sql)));
  return { PROJECT_DATABASES: JSON.stringify(map) };
}

/** A call through the app with the map naming the moved project. */
async function call(settings: Partial<Env>, method: string, path: string, token: string, body?: unknown) {
  const ctx = createExecutionContext();
  const request = new Request(origin + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const res = await app.fetch(request, { ...env, ...settings }, ctx);
  await waitOnExecutionContext(ctx);
  return replyTo(method, path, res);
}

describe("moving a project that uses the hub", { timeout: 60_000 }, () => {
  it("keeps its SMS registration, messages and trail in DB and sends its events to its new database", async () => {
    const t = await registeredTenant();
    const { webhookId } = await subscribed(t, ["sms.status_changed"]);
    expect((await call({}, "POST", "/v1/sms", t.token, genericSms())).status).toBe(200);
    const before = await count(env.DB, "SELECT count(*) AS n FROM sms_messages WHERE project_id = ?", t.projectId);
    expect(before).toBe(1);

    const settings = await moved(t.projectId);
    // What stays: the hub's rows, in DB.
    expect(await count(env.DB, "SELECT count(*) AS n FROM sms_clients WHERE client_id = ?", t.clientId)).toBe(1);
    expect(await count(env.DB, "SELECT count(*) AS n FROM sms_messages WHERE project_id = ?", t.projectId)).toBe(1);
    expect(await count(env.DB, "SELECT count(*) AS n FROM clients WHERE project_id = ?", t.projectId)).toBe(0);

    // The moved client still sends; its message is in DB and its event in the project's new database, delivered.
    expect((await call(settings, "POST", "/v1/sms", t.token, genericSms({ message: "After the move" }))).status).toBe(200);
    expect(await count(env.DB, "SELECT count(*) AS n FROM sms_messages WHERE project_id = ?", t.projectId)).toBe(2);
    await runCron(Date.now(), settings);
    expect(await count(shard, "SELECT count(*) AS n FROM events WHERE project_id = ? AND type = 'sms.status_changed'", t.projectId)).toBeGreaterThan(0);
    expect(await count(shard, "SELECT count(*) AS n FROM deliveries WHERE webhook_id = ?", webhookId)).toBeGreaterThan(0);
    expect(await count(env.DB, "SELECT count(*) AS n FROM events WHERE project_id = ?", t.projectId)).toBe(0);
  });

  it("registers a client of a project in another database for SMS, and its deletion withdraws the registration", async () => {
    const t = await registeredTenant();
    const settings = await moved(t.projectId);
    const admin = (method: string, path: string) => call(settings, method, `/admin/v1${path}`, adminToken);
    const { clientId } = await newClientIn(settings, t.projectId);
    expect((await admin("PUT", `/sms/clients/${clientId}`)).status).toBe(201);
    expect(await count(env.DB, "SELECT count(*) AS n FROM sms_clients WHERE client_id = ? AND project_id = ?", clientId, t.projectId)).toBe(1);

    expect((await admin("DELETE", `/projects/${t.projectId}/clients/${clientId}`)).status).toBe(204);
    expect(await count(env.DB, "SELECT count(*) AS n FROM sms_clients WHERE client_id = ?", clientId)).toBe(0);
    expect((await admin("DELETE", `/projects/${t.projectId}`)).status).toBe(204);
    expect(await count(env.DB, "SELECT count(*) AS n FROM sms_clients WHERE project_id = ?", t.projectId)).toBe(0);
    expect(await count(env.DB, "SELECT count(*) AS n FROM sms_messages WHERE project_id = ?", t.projectId)).toBe(0);
  });
});

/** A backend client made through the admin API with the moved map (so in the shard). */
async function newClientIn(settings: Partial<Env>, projectId: string) {
  const reply = await call(settings, "POST", `/admin/v1/projects/${projectId}/clients`, adminToken, { name: "moved", type: "backend", allowedOrigins: [] });
  expect(reply.status).toBe(201);
  return reply.body as { clientId: string };
}
