// The hot paths, as the routes really run them: every statement a request sends to D1 is recorded through a
// recording binding, then explained. Each table access must be an index or primary-key seek (no full scan), no
// list page may sort in a temporary B-tree, and each read answers in one round trip to D1.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Env } from "../../worker/env";
import worker from "../../worker/index";
import { configuredTenant, ok, permissionBody } from "./configuration-fixture";
import { origin } from "./helpers";

type Recorded = { sql: string; params: unknown[] };

/** A D1 binding that records every statement (and counts round trips: one per `first/all/run/raw`, one per batch). */
function recording(d1: D1Database) {
  const statements: Recorded[] = [];
  let roundTrips = 0;
  const real = new WeakMap<object, D1PreparedStatement>();
  const entries = new WeakMap<object, Recorded>();
  const wrap = (statement: D1PreparedStatement, entry: Recorded): D1PreparedStatement => {
    const proxy = new Proxy(statement, {
      get(target, property) {
        if (property === "bind") return (...params: unknown[]) => wrap(target.bind(...params), { sql: entry.sql, params });
        if (["first", "all", "run", "raw"].includes(property as string)) {
          return (...args: unknown[]) => {
            statements.push(entry);
            roundTrips++;
            return (target as any)[property](...args);
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
  const binding = new Proxy(d1, {
    get(target, property) {
      if (property === "prepare") {
        return (sql: string) => wrap(target.prepare(sql), { sql, params: [] });
      }
      if (property === "batch") {
        return (list: D1PreparedStatement[]) => {
          roundTrips++;
          for (const s of list) statements.push(entries.get(s)!);
          return target.batch(list.map((s) => real.get(s) ?? s));
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { binding, statements, roundTrips: () => roundTrips, reset: () => ((statements.length = 0), (roundTrips = 0)) };
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
