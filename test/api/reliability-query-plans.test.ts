// The hot paths, as the routes really run them: every statement a request sends to D1 is recorded through a
// recording binding, then explained. Each table access must be an index or primary-key seek (no full scan), no
// list page may sort in a temporary B-tree, and each read answers in one round trip to D1.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Env } from "../../worker/env";
import worker from "../../worker/index";
import { measure } from "../../worker/ops/counters";
import { purgeEmailOutbox, purgeDispatchedEvents, purgeIdleVisitors, purgeVerifications, purgeWebhookDeliveries } from "../../worker/retention/jobs";
import { bootstrap, siteOrigin, widgetTenant } from "./bootstrap-fixture";
import { configuredTenant, permissionBody } from "./configuration-fixture";
import { form, ok, origin } from "./helpers";

const tokenRequest = (clientId: string, clientSecret: string) => {
  const { headers, rawBody } = form({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret });
  return new Request(origin + "/oauth/token", { method: "POST", headers, body: rawBody });
};

type Recorded = { sql: string; params: unknown[] };

type Meta = { rowsRead: number; rowsWritten: number };

/**
 * A D1 binding that records every statement and counts round trips (one per `first/all/run/raw`, one per batch),
 * with the rows read and written from D1's result metadata. `first` and `raw` return no metadata: a SELECT sent
 * through them is re-run once through `run`, outside the count, to read its cost.
 */
function recording(d1: D1Database) {
  const statements: Recorded[] = [];
  let roundTrips = 0;
  const cost: Meta = { rowsRead: 0, rowsWritten: 0 };
  const add = (meta: Partial<D1Meta> | undefined) => {
    cost.rowsRead += meta?.rows_read ?? 0;
    cost.rowsWritten += meta?.rows_written ?? 0;
  };
  const real = new WeakMap<object, D1PreparedStatement>();
  const entries = new WeakMap<object, Recorded>();
  const wrap = (statement: D1PreparedStatement, entry: Recorded): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, property) {
        if (property === "bind") return (...params: unknown[]) => wrap(target.bind(...params), { sql: entry.sql, params });
        if (["first", "all", "run", "raw"].includes(property as string)) {
          return async (...args: unknown[]) => {
            statements.push(entry);
            roundTrips++;
            const result = await (target as any)[property](...args);
            if (property === "all" || property === "run") add(result?.meta);
            else if (/^\s*(SELECT|WITH)/i.test(entry.sql)) add((await target.run()).meta);
            return result;
          };
        }
        const value = Reflect.get(target, property);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    real.set(proxy, statement);
    entries.set(proxy, entry);
    return proxy;
  };
  /** The binding, or a session of it: both prepare statements and run batches. */
  const wrapSession = <T extends D1Database | D1DatabaseSession>(target: T): T =>
    new Proxy(target, {
      get(target, property) {
        if (property === "prepare") {
          return (sql: string) => wrap(target.prepare(sql), { sql, params: [] });
        }
        if (property === "batch") {
          return async (list: D1PreparedStatement[]) => {
            roundTrips++;
            for (const s of list) statements.push(entries.get(s)!);
            const results = await target.batch(list.map((s) => real.get(s) ?? s));
            for (const result of results) add(result.meta);
            return results;
          };
        }
        if (property === "withSession") {
          return (...args: unknown[]) => wrapSession((target as D1Database).withSession(...(args as [string])));
        }
        const value = Reflect.get(target, property);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  return {
    binding: wrapSession(d1),
    statements,
    roundTrips: () => roundTrips,
    cost: () => ({ ...cost }),
    reset: () => ((statements.length = 0), (roundTrips = 0), (cost.rowsRead = 0), (cost.rowsWritten = 0)),
  };
}

async function explain({ sql, params }: Recorded) {
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`).bind(...params).all<{ detail: string }>();
  return results.map((r) => r.detail);
}

describe("hot paths: index seeks only, one round trip per read", { timeout: 60_000 }, () => {
  it("token check, identity, alias lookup, permission state, filtered list pages", async () => {
    const t = await configuredTenant();
    ok(await t.api("POST", "/identities", { referenceId: "plans", aliases: [{ type: "urn:svc:email", identifier: "p@example.com" }] }), 201);
    for (const minute of [1, 2, 3]) ok(await t.api("POST", "/permissions", permissionBody(t, "approved", `2026-01-01T00:0${minute}:00Z`)), 201);
    const page = ok(await t.api("GET", `/permissions?identityId=${t.identityId}&limit=1`));
    const under = `/privacy/v2/projects/${t.projectId}`;
    const reads = [
      `${under}/identities/${t.identityId}`,
      `${under}/identities/aliases/${encodeURIComponent("urn:svc:email:p@example.com")}`,
      `${under}/identities/aliases/plans`,
      `${under}/identities/${t.identityId}/permission-state`,
      `${under}/permissions?status=completed`,
      `${under}/permissions?identityId=${t.identityId}`,
      `${under}/permissions?identityId=${t.identityId}&status=completed&cursor=${page.nextCursor}`,
      `${under}/permissions?updatedSince=2026-01-01T00:00:00Z`,
    ];
    const recorder = recording(env.DB);
    const bindings: Env = { ...env, DB: recorder.binding };
    for (const path of reads) {
      recorder.reset();
      const ctx = createExecutionContext();
      const res = await worker.fetch(new Request(origin + path, { headers: { authorization: `Bearer ${t.token}` } }), bindings, ctx);
      await waitOnExecutionContext(ctx);
      expect(res.status, path).toBe(200);
      // The token's client is cached in the isolate after the first call, so this is the route's own cost.
      expect(recorder.roundTrips(), path).toBe(1);
      expect(recorder.statements.length, path).toBeGreaterThan(0);
      for (const statement of recorder.statements) {
        const plan = await explain(statement);
        const accesses = plan.filter((d) => /^(SCAN|SEARCH)/.test(d));
        for (const access of accesses) {
          expect(access, `${path}: ${statement.sql}`).toMatch(/^SEARCH .* USING (INDEX|COVERING INDEX|PRIMARY KEY|INTEGER PRIMARY KEY)|^SCAN json_each/);
        }
        if (path.includes("/permissions?")) expect(plan.join(" | "), `${path}: ${statement.sql}`).not.toContain("TEMP B-TREE");
      }
    }
  });
});

/** A call through the Worker with the recording binding as DB; what it cost in round trips and rows. */
async function measured(recorder: ReturnType<typeof recording>, request: Request) {
  recorder.reset();
  const ctx = createExecutionContext();
  const res = await worker.fetch(request, { ...env, DB: recorder.binding } as Env, ctx);
  const text = await res.text();
  await waitOnExecutionContext(ctx);
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers, roundTrips: recorder.roundTrips(), ...recorder.cost() };
}

const json = <M extends string, P extends string>(method: M, path: P, token: string, body?: unknown) =>
  new Request(origin + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });

describe("hot operations: one D1 round trip per API call, writes included", { timeout: 60_000 }, () => {
  it("token, identity, permission state, permission and objection writes, bootstrap; first visit and withdrawal two", async () => {
    const t = await configuredTenant();
    const w = await widgetTenant();
    const first = await bootstrap(w.projectId);
    const visitorKey = first.body.token!.visitorKey as string;
    const under = `/privacy/v2/projects/${t.projectId}`;
    let minute = 0;
    const requested = () => `2026-02-01T00:${String(++minute).padStart(2, "0")}:00Z`;
    const withdrawable: string[] = [];
    // Name, request, expected status, round trips once the isolate is warm.
    const operations: [string, () => Request, number, number][] = [
      ["POST /oauth/token", () => tokenRequest(t.clientId, t.clientSecret), 200, 1],
      ["GET identity", () => json("GET", `${under}/identities/${t.identityId}`, t.token), 200, 1],
      ["GET permission state", () => json("GET", `${under}/identities/${t.identityId}/permission-state`, t.token), 200, 1],
      ["POST permission", () => json("POST", `${under}/permissions`, t.token, permissionBody(t, "approved", requested())), 201, 1],
      ["POST objection", () => json("POST", `${under}/objections`, t.token, { identityId: t.identityId, requested: requested(), request: { purposes: [{ purposeId: t.analytics }] }, status: "completed" }), 201, 1],
      [
        "POST bootstrap (returning visitor)",
        () =>
          new Request(origin + `/browser/v1/projects/${w.projectId}/bootstrap`, {
            method: "POST",
            headers: { "content-type": "text/plain;charset=UTF-8", origin: siteOrigin },
            body: JSON.stringify({ visitorKey }),
          }),
        200,
        1,
      ],
      // A first visit also writes the new identity; a status move first reads the request it moves.
      [
        "POST bootstrap (first visit)",
        () =>
          new Request(origin + `/browser/v1/projects/${w.projectId}/bootstrap`, {
            method: "POST",
            headers: { "content-type": "text/plain;charset=UTF-8", origin: siteOrigin },
            body: "{}",
          }),
        200,
        2,
      ],
      ["DELETE permission (withdraw)", () => json("DELETE", `${under}/permissions/${withdrawable.shift()}`, t.token), 200, 2],
    ];
    const recorder = recording(env.DB);
    const table: Record<string, unknown>[] = [];
    for (const i of [1, 2]) withdrawable.push(ok(await t.api("POST", "/permissions", permissionBody(t, "approved", `2026-01-0${i}T00:00:00Z`)), 201).requestId);
    for (const [name, request, status, trips] of operations) {
      // The first call warms what an isolate keeps (the token's client, the project's configuration): the second
      // is what a running isolate pays.
      for (const round of [1, 2]) {
        const reply = await measured(recorder, request());
        expect(reply.status, `${name}: ${JSON.stringify(reply.body)}`).toBe(status);
        if (round === 2) {
          // Guards and state recomputation included: every table access of the call is an index seek (besides
          // json_each lists, constant rows and the one-row `(SELECT 1)` of guarded inserts).
          for (const statement of recorder.statements) {
            for (const access of (await explain(statement)).filter((d) => /^(SCAN|SEARCH)/.test(d))) {
              expect(access, `${name}: ${statement.sql}`).toMatch(
                /^SEARCH .* USING (INDEX|COVERING INDEX|PRIMARY KEY|INTEGER PRIMARY KEY)|^SCAN (json_each|\w+ VIRTUAL TABLE INDEX)|^SCAN CONSTANT ROW|^SCAN \(subquery-\d+\)/,
              );
            }
          }
          table.push({ operation: name, roundTrips: reply.roundTrips, rowsRead: reply.rowsRead, rowsWritten: reply.rowsWritten });
          expect.soft(reply.roundTrips, `${name}: ${recorder.statements.map((s) => s.sql).join("\n")}`).toBe(trips);
        }
      }
    }
    console.log(`round trips and rows per operation: ${JSON.stringify(table)}`);
  });
});

describe("the write's storage work", () => {
  it("the tables a consent write inserts into carry only the indexes their reads need", async () => {
    // Every secondary index is one more b-tree insert per write (docs/performance-history.md#the-writes-storage-work); each named here is
    // what a read above (or a foreign key, the cron, a proof) seeks on. A new one has to earn its write cost.
    const { results } = await env.DB.prepare(
      `SELECT tbl_name AS tbl, name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_autoindex_%'
        AND tbl_name IN ('requests', 'request_purposes', 'events', 'log_entries', 'permission_states') ORDER BY tbl_name, name`,
    ).all<{ tbl: string; name: string }>();
    const byTable: Record<string, string[]> = {};
    for (const { tbl, name } of results) (byTable[tbl] ??= []).push(name);
    expect(byTable).toEqual({
      events: ["events_pending_idx", "events_project_idx"],
      log_entries: ["log_entries_identity_idx", "log_entries_identity_receipts_idx", "log_entries_project_idx", "log_entries_receipt_idx"],
      // An identity's deletion cascades by identity_id (see "the cron's retention" below); written only with a new state row.
      permission_states: ["permission_states_identity_idx"],
      request_purposes: ["request_purposes_latest_idx", "request_purposes_request_idx"],
      requests: ["requests_family_idx", "requests_identity_idx", "requests_status_idx", "requests_updated_idx"],
    });
    // The outbox's pending index holds only what is still to dispatch: a fanned-out event leaves it.
    const pending = await env.DB.prepare("SELECT sql FROM sqlite_master WHERE name = 'events_pending_idx'").first<{ sql: string }>();
    expect(pending!.sql).toMatch(/WHERE .*dispatched.? IS NULL$/);
  });
});

describe("the cron's retention", () => {
  it("checks each candidate row by index seeks: no table is scanned once per candidate", async () => {
    // A retention job runs every minute on every database; a full scan inside the check of each candidate (a NOT
    // EXISTS over deliveries) or in the cascade of each deleted row (an identity's permission states) costs
    // candidates x table rows per run. The idle-visitor job walks identities from its watermark, a range of the
    // primary key (docs/performance-history.md#retention-without-per-row-scans).
    for (const job of [purgeIdleVisitors, purgeWebhookDeliveries, purgeDispatchedEvents, purgeVerifications, purgeEmailOutbox]) {
      const recorder = recording(env.DB);
      await job({ ...env, DB: recorder.binding } as Env);
      for (const statement of recorder.statements) {
        const plan = await explain(statement);
        expect(plan.filter((line) => line.startsWith("SCAN")), `${job.name}: ${plan.join(" | ")}`).toEqual([]);
      }
    }
  });
});

describe("the operator's counters", () => {
  it("read a database in one statement whose table accesses are seeks, but for the one walk over projects", async () => {
    // The alert check runs every minute on every database, and /admin/v1/health on each call.
    const recorder = recording(env.DB);
    await measure({ ...env, DB: recorder.binding, PROJECT_DATABASES: "{}" } as Env, Date.now());
    expect(recorder.roundTrips()).toBe(1);
    const plan = await explain(recorder.statements[0]);
    expect(plan.filter((line) => line.startsWith("SCAN") && !/^SCAN (p\b|CONSTANT ROW)/.test(line)), plan.join(" | ")).toEqual([]);
    expect(plan.filter((line) => /^(SCAN|SEARCH)/.test(line)).length, plan.join(" | ")).toBeGreaterThanOrEqual(8);
  });
});
