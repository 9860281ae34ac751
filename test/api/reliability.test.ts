// Reliability under concurrency and faults, against the real Worker, D1 and KV. Faults are injected by handing the
// Worker's own fetch handler an env whose binding misbehaves (a KV that throws, a D1 whose write batch fails
// at its last statement): the code under test is unchanged.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Env } from "../../worker/env";
import worker from "../../worker/index";
import { configuredTenant, newIdentity, permissionBody } from "./configuration-fixture";
import { expectProblem, newClient, newProject, ok, origin, replyTo, subscribed, tokenFor } from "./helpers";
import { logsFromNow } from "./log-capture";

type Tenant = Awaited<ReturnType<typeof configuredTenant>>;

/** One request through the Worker with the given bindings, waiting for its tail work too. */
async function callWith<M extends string, P extends string>(bindings: Env, method: M, path: P, options: { token?: string; body?: unknown; form?: Record<string, string> } = {}) {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(options.body);
  } else if (options.form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(options.form).toString();
  }
  const ctx = createExecutionContext();
  const res = await worker.fetch(new Request(origin + path, { method, headers, body }), bindings, ctx);
  await waitOnExecutionContext(ctx);
  return replyTo(method, path, res);
}

/** Rows about one identity in every table that holds any, by table. */
async function rowsOf(identityId: string) {
  const tables = ["identities", "aliases", "requests", "request_purposes", "permission_states"];
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const column = table === "identities" ? "id" : "identity_id";
    counts[table] = (await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${column} = ?`).bind(identityId).first<{ n: number }>())!.n;
  }
  counts.events = (await env.DB.prepare("SELECT count(*) AS n FROM events WHERE data LIKE ?").bind(`%${identityId}%`).first<{ n: number }>())!.n;
  return counts;
}

/** Every stored request of a family for one identity, through the list API (all pages). */
async function listAll(t: Tenant, identityId: string) {
  const items: any[] = [];
  let cursor: string | null = null;
  do {
    const page: any = ok(await t.api("GET", `/permissions?identityId=${identityId}&limit=200${cursor ? `&cursor=${cursor}` : ""}`));
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

/**
 * A D1 binding whose batches fail at their last statement, after the first `healthy` batches of the request: a
 * NOT NULL violation is appended, so every statement the route put in the batch has run before the failure, as
 * when an isolate dies midway.
 */
function failingBatches(d1: D1Database, healthy = 0): D1Database {
  let batches = 0;
  // The Worker runs each call in a D1 session (worker/lib/db.ts): sessions of the binding fail alike.
  const failing = <T extends D1Database | D1DatabaseSession>(target: T): T =>
    new Proxy(target, {
      get(target, property) {
        if (property === "batch") {
          return (statements: D1PreparedStatement[]) =>
            ++batches <= healthy ? target.batch(statements) : target.batch([...statements, target.prepare("INSERT INTO projects (id) VALUES (NULL)")]);
        }
        if (property === "withSession") return (bookmark?: string) => failing((target as D1Database).withSession(bookmark));
        const value = Reflect.get(target, property);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  return failing(d1);
}

// Generous limits: these fire hundreds of requests, and CI machines are shared; nothing here asserts a duration.
describe("concurrent writes", { timeout: 60_000 }, () => {
  it("stores all of 200 permissions posted at once for one identity, and the state is the one their history gives", async () => {
    const t = await configuredTenant();
    // Distinct `requested` instants in shuffled order, statuses alternating: the winner is the latest instant.
    const instants = Array.from({ length: 200 }, (_, i) => new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString());
    const order = instants.map((_, i) => (i * 77) % 200);
    const replies = await Promise.all(
      order.map((i) => t.api("POST", "/permissions", permissionBody(t, i % 3 ? "approved" : "denied", instants[i]))),
    );
    for (const reply of replies) expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const stored = await listAll(t, t.identityId);
    expect(new Set(stored.map((r) => r.requestId))).toEqual(new Set(replies.map((r) => r.body.requestId)));
    const latest = stored.reduce((a, b) => (Date.parse(a.requested) > Date.parse(b.requested) ? a : b));
    const state = ok(await t.api("GET", `/identities/${t.identityId}/permission-state`));
    expect(state.purposes).toHaveLength(1);
    expect(state.purposes[0]).toMatchObject({
      purposeId: t.marketing,
      requestId: latest.requestId,
      requested: latest.requested,
      status: latest.request.purposes[0].status,
      requestType: "permission",
    });
  });

  it("leaves nothing behind of an identity deleted while permissions are being posted for it", async () => {
    const t = await configuredTenant();
    const identityId = await newIdentity(t.api);
    // The deletion starts once ten posts have been stored, while the other fifty are still on their way.
    let stored = 0;
    let startDeletion!: () => void;
    const deletionStarts = new Promise<void>((resolve) => (startDeletion = resolve));
    const posts = Array.from({ length: 60 }, (_, i) =>
      t.api("POST", "/permissions", permissionBody(t, "approved", new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(), identityId)).then((reply) => {
        if (reply.status === 201 && ++stored === 10) startDeletion();
        return reply;
      }),
    );
    const deletion = deletionStarts.then(() => t.api("DELETE", `/identities/${identityId}`));
    const [deleted, ...replies] = await Promise.all([deletion, ...posts]);
    expect(deleted.status).toBe(204);
    for (const reply of replies) {
      // Each post either landed before the deletion (and went with it) or found no identity.
      if (reply.status !== 201) expectProblem(reply, 422, "unknown_reference");
    }
    expect(await rowsOf(identityId)).toMatchObject({ identities: 0, aliases: 0, requests: 0, request_purposes: 0, permission_states: 0 });
    expectProblem(await t.api("GET", `/identities/${identityId}/permission-state`), 404, "not_found");
  });
});

describe("faults", { timeout: 60_000 }, () => {
  it("an erasure cascade that fails at its last statement leaves the identity and all its data as they were", async () => {
    const t = await configuredTenant();
    await subscribed(t); // the outbox keeps events only for a subscriber
    const identityId = ok(
      await t.api("POST", "/identities", { referenceId: "cascade", aliases: [{ type: "urn:svc:email", identifier: "a@example.com" }] }),
      201,
    ).identityId;
    for (const minute of [1, 2, 3]) {
      ok(await t.api("POST", "/permissions", permissionBody(t, "approved", `2026-01-01T00:0${minute}:00.000Z`, identityId)), 201);
    }
    const before = await rowsOf(identityId);
    expect(before).toMatchObject({ identities: 1, aliases: 1, requests: 3, request_purposes: 3, permission_states: 1 });
    expect(before.events).toBeGreaterThan(0);
    const faulty = { ...env, DB: failingBatches(env.DB) };
    expectProblem(await callWith(faulty, "DELETE", `/privacy/v2/projects/${t.projectId}/identities/${identityId}`, { token: t.token }), 500, "internal_error");
    expect(await rowsOf(identityId)).toEqual(before);
    // The same deletion on a healthy binding goes through, so the fault was the only difference.
    expect((await t.api("DELETE", `/identities/${identityId}`)).status).toBe(204);
    expect(await rowsOf(identityId)).toMatchObject({ identities: 0, aliases: 0, requests: 0, request_purposes: 0, permission_states: 0 });
  });

  it("a permission whose write fails at its last statement stores neither the request nor the state change", async () => {
    const t = await configuredTenant();
    await subscribed(t);
    const first = ok(await t.api("POST", "/permissions", permissionBody(t, "approved", "2026-01-01T00:00:00.000Z")), 201);
    const before = await rowsOf(t.identityId);
    expect(before.events).toBeGreaterThan(0);
    const stateBefore = ok(await t.api("GET", `/identities/${t.identityId}/permission-state`));
    // The isolate knows the configuration and the receipt chain from the post above, so the route's only D1 call is
    // its write batch (test/api/reliability-query-plans.test.ts): that one fails.
    const faulty = { ...env, DB: failingBatches(env.DB) };
    const reply = await callWith(faulty, "POST", `/privacy/v2/projects/${t.projectId}/permissions`, {
      token: t.token,
      body: permissionBody(t, "denied", "2026-01-02T00:00:00.000Z"),
    });
    expectProblem(reply, 500, "internal_error");
    expect(await rowsOf(t.identityId)).toEqual(before);
    const stateAfter = ok(await t.api("GET", `/identities/${t.identityId}/permission-state`));
    expect(stateAfter).toEqual(stateBefore);
    expect(stateAfter.purposes[0].requestId).toBe(first.requestId);
  });

  it("KV unavailable degrades to D1: token checks and every hot path still answer", async () => {
    const { projectId } = await newProject();
    const client = await newClient(projectId);
    const token = await tokenFor(client.clientId, client.clientSecret);
    const attempts: string[] = [];
    const broken = (operation: string) => async () => {
      attempts.push(operation);
      throw new Error("KV is unavailable (injected)");
    };
    const kv = { get: broken("get"), put: broken("put"), delete: broken("delete"), list: broken("list"), getWithMetadata: broken("getWithMetadata") };
    const noKv = { ...env, KV: kv as unknown as KVNamespace };
    const under = `/privacy/v2/projects/${projectId}` as const;
    // A client this isolate has not cached yet, so its token check has to go past the in-memory cache.
    const created = await callWith(noKv, "POST", `${under}/identities`, { token, body: { aliases: [{ type: "urn:svc:email", identifier: "kv@example.com" }] } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(attempts).toContain("get");
    const identityId = created.body.identityId;
    expect((await callWith(noKv, "GET", `${under}/identities/${identityId}`, { token })).status).toBe(200);
    expect((await callWith(noKv, "GET", `${under}/identities/aliases/${encodeURIComponent("urn:svc:email:kv@example.com")}`, { token })).status).toBe(200);
    expect((await callWith(noKv, "GET", `${under}/identities/${identityId}/permission-state`, { token })).status).toBe(200);
    const issued = await callWith(noKv, "POST", "/oauth/token", {
      form: { grant_type: "client_credentials", client_id: client.clientId, client_secret: client.clientSecret },
    });
    expect(issued.status).toBe(200);
    // A bad token is still refused when the cache cannot be asked.
    expectProblem(await callWith(noKv, "GET", `${under}/identities/${identityId}`, { token: `${token}x` }), 401, "unauthorized");
  });

  it("a KV outage leaves a clear log line, and loses nothing: writes land in D1, an erasure waits for the ledger", async () => {
    const logs = logsFromNow();
    const { projectId } = await newProject();
    const client = await newClient(projectId);
    const token = await tokenFor(client.clientId, client.clientSecret);
    const down = async () => {
      throw new Error("KV is unavailable (injected)");
    };
    const noKv = { ...env, KV: { get: down, put: down, delete: down, list: down, getWithMetadata: down } as unknown as KVNamespace };
    const under = `/privacy/v2/projects/${projectId}` as const;
    const created = await callWith(noKv, "POST", `${under}/identities`, { token, body: { referenceId: `kv-outage-${projectId}` } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const identityId = created.body.identityId;
    // One warning per failed call, naming the binding, the operation and the kind of key: what an operator acts on.
    expect(logs.events("kv_unavailable")).toContainEqual({
      level: "warn",
      event: "kv_unavailable",
      binding: "KV",
      operation: "get",
      keyPrefix: "client:v2:",
      error: "Error",
      message: "KV is unavailable (injected)",
    });
    // An erasure cannot be recorded in the ledger: refused as unavailable (retry later), and nothing is erased.
    const erasure = await callWith(noKv, "DELETE", `${under}/identities/${identityId}`, { token });
    expectProblem(erasure, 503, "ledger_unavailable");
    expect(erasure.headers.get("retry-after")).toBe("60");
    expect(logs.events("kv_unavailable")).toContainEqual(expect.objectContaining({ operation: "put", keyPrefix: "erasure:" }));
    // With KV back, the identity written during the outage is there and the erasure goes through.
    expect((await callWith(env, "GET", `${under}/identities/${identityId}`, { token })).body).toMatchObject({ identityId, referenceId: `kv-outage-${projectId}` });
    expect((await callWith(env, "DELETE", `${under}/identities/${identityId}`, { token })).status).toBe(204);
    expectProblem(await callWith(env, "GET", `${under}/identities/${identityId}`, { token }), 404, "not_found");
  });
});
