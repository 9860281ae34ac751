import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { app } from "../../worker/app";
import worker from "../../worker/index";
import { visitorAliasType } from "../../worker/auth/browser-tokens";
import { idsFrom } from "../../worker/lib/ids";
import { purgeIdleVisitors } from "../../worker/retention/jobs";
import { deleteStatements, exportQueries, importStatements, organizationTables } from "../../scripts/move-project-sql.mjs";
import { configuredTenant, newIdentity, permissionBody } from "./configuration-fixture";
import { runCron } from "./cron";
import { firstReport } from "./scan-reports";
import { admin, call, expectProblem, form, newClient, newTenant, ok, origin, tokenFor } from "./helpers";

/**
 * More than one database (docs/operations.md#more-than-one-database-project-to-database-map): vitest.config.ts binds a second D1 database, DB_SHARD_1, and maps
 * one project id to it in PROJECT_DATABASES. Everything of that project must be read from and written to the
 * shard, nothing of it to DB; other projects stay in DB; ids never cross projects.
 */
const [[shardedId, shardBinding]] = Object.entries(JSON.parse(env.PROJECT_DATABASES ?? "{}") as Record<string, string>);
const shard = env.DB_SHARD_1;
type Tenant = Awaited<ReturnType<typeof configuredTenant>>;

/** Tables with a project_id column (but the organizations', which live in DB whatever the project), and how many rows each database holds of a project. */
async function rowsOf(d1: D1Database, projectId: string): Promise<Record<string, number>> {
  const { results: tables } = await d1.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name").all<{ name: string; sql: string }>();
  const results = tables.filter((table) => table.sql.includes("`project_id`") && !organizationTables.includes(table.name));
  const counts: Record<string, number> = {
    projects: (await d1.prepare("SELECT count(*) AS n FROM projects WHERE id = ?").bind(projectId).first<{ n: number }>())!.n,
  };
  for (const { name } of results) {
    counts[name] = (await d1.prepare(`SELECT count(*) AS n FROM "${name}" WHERE project_id = ?`).bind(projectId).first<{ n: number }>())!.n;
  }
  return counts;
}
const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

let sharded: Tenant;
let unmapped: Tenant;

beforeAll(async () => {
  expect(shardBinding).toBe("DB_SHARD_1");
  // Project ids are made at creation, so a project reaches a shard by being moved there: its rows imported into
  // the shard (here only its projects row, a project with nothing in it yet) with the map already naming it.
  const stamp = new Date().toISOString();
  await shard
    .prepare("INSERT OR IGNORE INTO projects (id, name, policies, default_language, created, updated) VALUES (?1, 'Sharded', '{}', 'en', ?2, ?2)")
    .bind(shardedId, stamp)
    .run();
  const { clientId, clientSecret } = await newClient(shardedId);
  const token = await tokenFor(clientId, clientSecret);
  const api = <M extends string, P extends string>(method: M, path: P, body?: unknown) => call(method, `/privacy/v2/projects/${shardedId}${path}`, { body, token });
  sharded = await configuredTenant({ projectId: shardedId, clientId, clientSecret, token, api });
  unmapped = await configuredTenant();
});

describe("a project mapped to another database", { timeout: 60_000 }, () => {
  it("serves the project's metadata and configuration from its database", async () => {
    expect(ok(await admin("GET", `/projects/${shardedId}`)).name).toBe("Sharded");
    ok(await admin("PUT", `/projects/${shardedId}`, { name: "Sharded, renamed", controller: { name: "Shard AB" } }));
    expect(ok(await sharded.api("GET", "")).name).toBe("Sharded, renamed");
    const purposes = ok(await sharded.api("GET", "/configurations/purposes")).items as { purposeId: string }[];
    expect(purposes.map((p) => p.purposeId).sort()).toEqual([sharded.marketing, sharded.analytics].sort());
    // The published configuration, a path without the project: the token names it.
    expect(JSON.stringify(ok(await call("GET", "/privacy/v1/configurations", { token: sharded.token })))).toContain(sharded.marketing);
    // A CORS preflight of a path without a project is checked against the clients of every database.
    const site = `https://shard-${crypto.randomUUID()}.example`;
    await newClient(shardedId, "web", [site]);
    const preflight = await call("OPTIONS", "/privacy/v1/configurations", { headers: { origin: site, "access-control-request-method": "GET" } });
    expect(preflight.status).toBe(204);
    const ids = (ok(await admin("GET", "/projects")).items as { projectId: string }[]).map((p) => p.projectId);
    expect(ids).toEqual(expect.arrayContaining([shardedId, unmapped.projectId]));
    expect(ids).toEqual([...ids].sort());
  });

  it("records permissions, reads state, mints identity tokens, delivers webhooks: all in the shard", async () => {
    const key = crypto.randomUUID();
    const hook = ok(await sharded.api("POST", "/webhooks", { url: `https://hooks.customer.example/ok/${key}`, events: ["permission.created"] }), 201);
    ok(await sharded.api("POST", "/permissions", permissionBody(sharded, "approved", new Date().toISOString())), 201);
    const state = ok(await sharded.api("GET", `/identities/${sharded.identityId}/permission-state`));
    expect(JSON.stringify(state)).toContain(sharded.marketing);
    const identityToken = ok(await sharded.api("POST", `/identities/${sharded.identityId}/tokens`, {})).access_token as string;
    ok(await call("GET", `/privacy/v2/projects/${shardedId}/identities/${sharded.identityId}/permission-state`, { token: identityToken }));
    // The queue consumer finds the delivery in the shard (the message names the project).
    const delivery = await vi.waitFor(
      async () => {
        const [first] = ok(await sharded.api("GET", `/webhooks/${hook.webhookId}/deliveries`)).deliveries;
        expect(first?.status).toBe("succeeded");
        return first;
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(delivery.attempts).toBe(1);
    // A second token, now that the client's project is cached (isolate, KV): straight to the shard.
    ok(await call("GET", `/privacy/v2/projects/${shardedId}`, { token: await tokenFor(sharded.clientId, sharded.clientSecret) }));

    const inShard = await rowsOf(shard, shardedId);
    for (const table of ["projects", "clients", "parties", "data_groups", "purposes", "identities", "requests", "request_purposes", "permission_states", "log_entries", "events", "webhooks", "deliveries", "delivery_attempts"]) {
      expect(inShard[table], table).toBeGreaterThan(0);
    }
    expect(total(await rowsOf(env.DB, shardedId))).toBe(0);
  });

  it("keeps an unmapped project in DB", async () => {
    ok(await unmapped.api("POST", "/permissions", permissionBody(unmapped, "denied", new Date().toISOString())), 201);
    const inDb = await rowsOf(env.DB, unmapped.projectId);
    for (const table of ["projects", "clients", "identities", "requests", "permission_states"]) expect(inDb[table], table).toBeGreaterThan(0);
    expect(total(await rowsOf(shard, unmapped.projectId))).toBe(0);
  });

  it("answers 404 for another project's ids across databases", async () => {
    const other = await newTenant();
    const otherIdentity = await newIdentity(other.api);
    // A token of a project in DB on the sharded project's paths, and the other way round.
    expectProblem(await call("GET", `/privacy/v2/projects/${shardedId}`, { token: other.token }), 404, "not_found");
    expectProblem(await call("GET", `/privacy/v2/projects/${other.projectId}`, { token: sharded.token }), 404, "not_found");
    // The sharded project's token, naming ids of the other project in its own paths.
    expectProblem(await sharded.api("GET", `/identities/${otherIdentity}`), 404, "not_found");
    expectProblem(await sharded.api("GET", `/identities/${otherIdentity}/permission-state`), 404, "not_found");
    expectProblem(await other.api("GET", `/identities/${sharded.identityId}`), 404, "not_found");
    expectProblem(await admin("GET", `/projects/${shardedId}/clients/${other.clientId}`), 404, "not_found");
    // Ids that name properties of every JavaScript object are ids like any other (found by the fuzz test).
    for (const id of ["__proto__", "constructor", "valueOf"]) {
      expectProblem(await call("GET", `/privacy/v2/projects/${id}`, { token: sharded.token }), 404, "not_found");
      expectProblem(await admin("GET", `/projects/${id}`), 404, "not_found");
    }
  });

  it("keeps the hub's calls on DB, where its global tables are, whichever database holds the caller's project", async () => {
    const account = { tscid: "TSC-S", customerCacheId: "CC-S", assets: [] };
    expect((await admin("PUT", "/billing-accounts/5550001", account)).status).toBe(201);
    const found = await call("GET", "/v1/customerLookup/servicehub/5550001", { token: sharded.token });
    expect(found.status).toBe(200);
    expect(found.body).toEqual({ tscid: "CC-S", assets: [] });
    expect(await shard.prepare("SELECT count(*) AS n FROM billing_accounts").first<{ n: number }>()).toEqual({ n: 0 });
  });

  it("is not ready while the map names a binding the Worker lacks, or is not a map", async () => {
    ok(await call("GET", "/readyz"));
    for (const [map, missing] of [['{"prj_x": "DB_SHARD_9"}', "DB_SHARD_9"], ["[1]", "PROJECT_DATABASES"]]) {
      const reply = await app.request("http://assent.test/readyz", {}, { ...env, PROJECT_DATABASES: map });
      expect(reply.status).toBe(503);
      expect(((await reply.json()) as { missing: string[] }).missing).toEqual([missing]);
    }
  });

  it("the cron reaches the shard: log heads sealed, retention applied", async () => {
    const old = new Date(Date.now() - 40 * 24 * 3600 * 1000).toISOString();
    // Made 40 days ago: event ids sort by creation time, and the retention finds old events by id.
    const eventId = `${idsFrom("evt", Date.parse(old))}RETENTION${crypto.randomUUID()}`;
    await shard
      .prepare("INSERT INTO events (id, project_id, type, data, created, dispatched) VALUES (?1, ?2, 'identity.deleted', '{}', ?3, ?3)")
      .bind(eventId, shardedId, old)
      .run();
    await runCron();
    const heads = await shard.prepare("SELECT count(*) AS n FROM log_heads WHERE project_id = ?").bind(shardedId).first<{ n: number }>();
    expect(heads!.n).toBeGreaterThan(0);
    expect(await shard.prepare("SELECT id FROM events WHERE id = ?").bind(eventId).first()).toBeNull();
  });
});

describe("moving a project (scripts/move-project.mjs)", { timeout: 60_000 }, () => {
  it("copies every row of the project into the target as it was, then deletes it from the source", async () => {
    const t = await configuredTenant();
    ok(await t.api("POST", "/webhooks", { url: "https://hooks.customer.example/ok/move", events: ["permission.created"] }), 201);
    ok(await t.api("POST", "/permissions", permissionBody(t, "approved", new Date().toISOString())), 201);
    const { scanId } = ok(await t.api("POST", "/scans", { report: firstReport }), 201);
    ok(await admin("PUT", `/projects/${t.projectId}/blocking`, { enabled: true, entries: [{ host: "connect.facebook.net", purpose: "marketing", source: "catalogue", vendor: "meta-pixel" }] }));
    const centerSettings = { channels: { email: { aliasType: "urn:svc:email" } }, retentionDays: 30, theme: {} };
    ok(await admin("PUT", `/projects/${t.projectId}/privacy-center`, centerSettings));
    await runCron();
    const exported = async (d1: D1Database) =>
      Promise.all(exportQueries(t.projectId).map(async (sql) => (await d1.prepare(sql).all<Record<string, unknown>>()).results));
    const before = await exported(env.DB);
    expect(before.filter((rows) => rows.length > 0).length).toBeGreaterThan(12);
    expect(before.flat().map((row) => row.id)).toContain(scanId);

    await shard.batch(importStatements(t.projectId, before).map((sql) => shard.prepare(sql)));
    expect(await exported(shard)).toEqual(before);
    const moved = await rowsOf(shard, t.projectId);
    expect({ projects: moved.projects, entries: moved.blocking_entries }).toEqual({ projects: 1, entries: 1 });
    // A project's feature settings are columns of its row, so they move with it (the privacy center's did not, as a table of their own).
    const settings = await shard.prepare("SELECT blocking, privacy_center FROM projects WHERE id = ?").bind(t.projectId).first<{ blocking: string; privacy_center: string }>();
    expect({ blocking: JSON.parse(settings!.blocking), privacyCenter: JSON.parse(settings!.privacy_center) }).toEqual({ blocking: { enabled: true }, privacyCenter: centerSettings });
    await env.DB.batch(deleteStatements(t.projectId).map((sql) => env.DB.prepare(sql)));
    expect(total(await rowsOf(env.DB, t.projectId))).toBe(0);
    // Left in the shard: this project is not in the map, so remove it again.
    await shard.batch(deleteStatements(t.projectId).map((sql) => shard.prepare(sql)));
    expect(total(await rowsOf(shard, t.projectId))).toBe(0);
  });

  it("sends the target's idle-visitor walk back over the moved identities, which keep their old ids", async () => {
    const t = await newTenant();
    const made = Date.now() - 40 * 24 * 3600 * 1000;
    const idle = `${idsFrom("idn", made)}MOVED${crypto.randomUUID().replaceAll("-", "").slice(0, 11).toUpperCase()}`;
    const stamp = new Date(made).toISOString();
    await env.DB.batch([
      env.DB.prepare("INSERT INTO identities (id, project_id, created, updated) VALUES (?1, ?2, ?3, ?3)").bind(idle, t.projectId, stamp),
      env.DB.prepare("INSERT INTO aliases (project_id, type, identifier, identity_id) VALUES (?1, ?2, ?1, ?3)").bind(t.projectId, visitorAliasType, idle),
    ]);
    // The shard's walk is already past the moved identity's time.
    await shard
      .prepare(
        "INSERT INTO job_watermarks (job, database, watermark, updated) VALUES ('idle-visitors', 'DB_SHARD_1', ?1, ?2) ON CONFLICT DO UPDATE SET watermark = max(watermark, excluded.watermark)",
      )
      .bind(idsFrom("idn", Date.now() - 31 * 24 * 3600 * 1000), stamp)
      .run();
    const rows = await Promise.all(exportQueries(t.projectId).map(async (sql) => (await env.DB.prepare(sql).all<Record<string, unknown>>()).results));
    await shard.batch(importStatements(t.projectId, rows).map((sql) => shard.prepare(sql)));
    await env.DB.batch(deleteStatements(t.projectId).map((sql) => env.DB.prepare(sql)));

    const inShard = { ...env, DB: shard };
    for (let run = 0; run < 20 && (await shard.prepare("SELECT id FROM identities WHERE id = ?").bind(idle).first()); run++) {
      await purgeIdleVisitors(inShard, Date.now(), "DB_SHARD_1");
    }
    expect(await shard.prepare("SELECT id FROM identities WHERE id = ?").bind(idle).first()).toBeNull();
    await shard.batch(deleteStatements(t.projectId).map((sql) => shard.prepare(sql)));
  });
});

/** A binding (or session of it) counting its round trips: one per `first/all/run/raw`, one per batch. */
function counted(d1: D1Database) {
  let trips = 0;
  const real = new WeakMap<object, D1PreparedStatement>();
  const statement = (target: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(target, {
      get(target, property) {
        if (property === "bind") return (...params: unknown[]) => statement(target.bind(...params));
        const value = Reflect.get(target, property);
        if (["first", "all", "run", "raw"].includes(property as string)) trips++;
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    real.set(proxy, target);
    return proxy;
  };
  const database = <T extends D1Database | D1DatabaseSession>(target: T): T =>
    new Proxy(target, {
      get(target, property) {
        if (property === "prepare") return (sql: string) => statement(target.prepare(sql));
        if (property === "batch") return (list: D1PreparedStatement[]) => (trips++, target.batch(list.map((s) => real.get(s) ?? s)));
        if (property === "withSession") return (start: string) => database((target as D1Database).withSession(start));
        const value = Reflect.get(target, property);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  return { binding: database(d1), trips: () => trips, reset: () => void (trips = 0) };
}

describe("round trips of a mapped project", { timeout: 60_000 }, () => {
  it("the hot calls make one round trip, to the shard, and none to DB", async () => {
    // Without webhooks, so that a write's tail (handing events to the queue) is not counted with the call.
    for (const hook of ok(await sharded.api("GET", "/webhooks")).webhooks) ok(await sharded.api("DELETE", `/webhooks/${hook.webhookId}`), 204);
    const inDb = counted(env.DB);
    const inShard = counted(shard);
    const under = `${origin}/privacy/v2/projects/${shardedId}`;
    const bearer = { authorization: `Bearer ${sharded.token}` };
    const tokenForm = form({ grant_type: "client_credentials", client_id: sharded.clientId, client_secret: sharded.clientSecret });
    let minute = 0;
    const operations: [string, () => Request][] = [
      ["POST /oauth/token", () => new Request(`${origin}/oauth/token`, { method: "POST", headers: tokenForm.headers, body: tokenForm.rawBody })],
      ["GET identity", () => new Request(`${under}/identities/${sharded.identityId}`, { headers: bearer })],
      ["GET permission state", () => new Request(`${under}/identities/${sharded.identityId}/permission-state`, { headers: bearer })],
      [
        "POST permission",
        () =>
          new Request(`${under}/permissions`, {
            method: "POST",
            headers: { ...bearer, "content-type": "application/json" },
            body: JSON.stringify(permissionBody(sharded, "approved", `2026-03-01T00:${String(++minute).padStart(2, "0")}:00Z`)),
          }),
      ],
    ];
    for (const [name, request] of operations) {
      // The first call warms what an isolate keeps; the second is what a running isolate pays.
      for (const round of [1, 2]) {
        inDb.reset();
        inShard.reset();
        const ctx = createExecutionContext();
        const reply = await worker.fetch(request(), { ...env, DB: inDb.binding, DB_SHARD_1: inShard.binding }, ctx);
        expect(reply.status, `${name}: ${await reply.clone().text()}`).toBeLessThan(300);
        await reply.text();
        await waitOnExecutionContext(ctx);
        if (round === 2) {
          expect([name, inShard.trips(), inDb.trips()]).toEqual([name, 1, 0]);
        }
      }
    }
  });
});
