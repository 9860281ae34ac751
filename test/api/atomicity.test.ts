import { env } from "cloudflare:workers";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { configuredTenant, permissionBody } from "./configuration-fixture";
import { admin, call, expectProblem, ok, type Reply, subscribed } from "./helpers";

/**
 * Atomicity that does not depend on how the write path is built: every table gets row-level triggers on INSERT,
 * UPDATE and DELETE that count the rows written (cascades included) and abort at the k-th. Each write route is run
 * with k = 1, 2, 3, … until it succeeds, so a fault lands on every row it writes, in whichever statement or batch
 * that happens; after each failure the whole database (receipts and log included) must be exactly as before.
 */
const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

let tables: string[] = [];

async function userTables() {
  const { results } = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name NOT IN ('d1_migrations', 'fault_plan')",
  ).all<{ name: string }>();
  return results.map((r) => r.name);
}

/**
 * Every table's rows and the autoincrement counters, read in one statement: each table's rows as one JSON array (a
 * subquery a table, its columns named in beforeAll), rather than a batch of a statement a table, whose per-statement
 * cost (prepare, result rows, the call between isolates) a run paid twice for each of its some 200 faults
 * (docs/testing.md#where-the-time-goes). Rows are compared as JSON text, sorted, as before.
 */
let snapshotQuery = "";

async function snapshot() {
  const row = (await env.DB.prepare(snapshotQuery).first<Record<string, string>>())!;
  const all: Record<string, string[]> = Object.fromEntries(tables.map((table, i) => [table, (JSON.parse(row[`t${i}`]) as unknown[]).map((r) => JSON.stringify(r)).sort()]));
  all.sqlite_sequence = (JSON.parse(row.counters) as unknown[]).map((r) => JSON.stringify(r));
  return all;
}

/**
 * Waits until the outbox is quiet: every event fanned out and every delivery settled. The writes' events are
 * delivered after their responses (to the tests' stand-in endpoint), and that work must neither change the
 * snapshot under comparison nor meet an armed fault.
 */
const outboxQuiet = () =>
  vi.waitFor(
    async () => {
      const busy = await env.DB.prepare(
        `SELECT (SELECT count(*) FROM events WHERE dispatched IS NULL)
           + (SELECT count(*) FROM deliveries WHERE status NOT IN ('succeeded', 'dead')) AS n`,
      ).first<number>("n");
      expect(busy).toBe(0);
    },
    { timeout: 30_000, interval: 50 },
  );

const arm = (target: number) => env.DB.prepare("UPDATE fault_plan SET seen = 0, target = ?").bind(target).run();

beforeAll(async () => {
  tables = await userTables();
  const columns = await Promise.all(tables.map(async (table) => (await env.DB.prepare("SELECT name FROM pragma_table_info(?)").bind(table).all<{ name: string }>()).results.map((c) => c.name)));
  const rowsOf = (table: string, names: string[]) => `(SELECT json_group_array(json_object(${names.map((name) => `'${name}', "${name}"`).join(", ")})) FROM "${table}")`;
  snapshotQuery = `SELECT ${tables.map((table, i) => `${rowsOf(table, columns[i])} AS t${i}`).join(", ")},
    (SELECT json_group_array(json_object('name', name, 'seq', seq)) FROM (SELECT name, seq FROM sqlite_sequence ORDER BY name)) AS counters`;
  await env.DB.prepare("CREATE TABLE fault_plan (seen INTEGER NOT NULL, target INTEGER NOT NULL)").run();
  await env.DB.prepare("INSERT INTO fault_plan VALUES (0, 0)").run();
  for (const table of tables) {
    for (const op of ["INSERT", "UPDATE", "DELETE"]) {
      await env.DB.prepare(
        `CREATE TRIGGER "fault_${table}_${op}" BEFORE ${op} ON "${table}" BEGIN
           UPDATE fault_plan SET seen = seen + 1;
           SELECT RAISE(ABORT, 'injected failure') WHERE (SELECT seen = target FROM fault_plan);
         END`,
      ).run();
    }
  }
});

afterAll(async () => {
  await arm(0);
});

/**
 * Runs `act` (after a fresh `prepare` each time) with a fault at the 1st, 2nd, … row written until it succeeds;
 * returns how many rows the successful run wrote. Every failed run must be a 500 that left nothing behind.
 */
async function everyFault<T>(name: string, prepare: () => Promise<T>, act: (subject: T) => Promise<Reply>, success: number) {
  for (let k = 1; ; k++) {
    await arm(0);
    const subject = await prepare();
    await outboxQuiet();
    const before = await snapshot();
    await arm(k);
    const reply = await act(subject);
    await arm(0);
    if (reply.status === success) {
      expect(k, `${name}: the route writes rows`).toBeGreaterThan(1);
      return k - 1;
    }
    expectProblem(reply, 500, "internal_error");
    expect(await snapshot(), `${name}: fault at row write ${k}`).toEqual(before);
  }
}

describe("a fault at any row written leaves nothing behind", { timeout: 300_000 }, () => {
  it("for every family's POST, status change and withdrawal, and for identity PUT and DELETE", async () => {
    const t = await configuredTenant();
    await subscribed(t); // the outbox keeps events only for a subscriber: each route's event is a row written
    const identity = async () => ok(await t.api("POST", "/identities", { aliases: [{ type: "urn:svc:email", identifier: `${crypto.randomUUID()}@example.com` }] }), 201).identityId as string;
    const withHistory = async () => {
      const identityId = await identity();
      ok(await t.api("POST", "/permissions", permissionBody(t, "approved", ago(3), identityId)), 201);
      ok(await t.api("POST", "/objections", { identityId, requested: ago(2), status: "completed", request: { purposes: [{ purposeId: t.analytics }] } }), 201);
      return identityId;
    };
    const objection = async (status?: string) =>
      ok(await t.api("POST", "/objections", { identityId: await withHistory(), requested: ago(1), request: { purposes: [{ purposeId: t.marketing }] }, ...(status ? { status } : {}) }), 201).requestId as string;
    const written: Record<string, number> = {};
    written["POST permission"] = await everyFault("POST permission", withHistory, (id) => t.api("POST", "/permissions", permissionBody(t, "denied", ago(1), id)), 201);
    written["POST objection"] = await everyFault(
      "POST objection",
      withHistory,
      (id) => t.api("POST", "/objections", { identityId: id, requested: ago(1), status: "completed", request: { purposes: [{ purposeId: t.marketing }] } }),
      201,
    );
    written["POST erasure"] = await everyFault("POST erasure", identity, (id) => t.api("POST", "/erasures", { identityId: id, request: { dataGroups: [t.email] } }), 201);
    written["POST access"] = await everyFault("POST access", identity, (id) => t.api("POST", "/accesses", { identityId: id }), 201);
    written["PUT objection completed"] = await everyFault("PUT objection", () => objection(), (id) => t.api("PUT", `/objections/${id}`, { status: "completed" }), 200);
    written["DELETE objection (withdraw completed)"] = await everyFault("withdraw objection", () => objection("completed"), (id) => t.api("DELETE", `/objections/${id}`), 200);
    written["PUT permission"] = await everyFault(
      "PUT permission",
      async () => ok(await t.api("POST", "/permissions", { ...permissionBody(t, "approved", ago(1), await withHistory()), permissionStatus: "received" }), 201).requestId,
      (id) => t.api("PUT", `/permissions/${id}`, { permissionStatus: "completed" }),
      200,
    );
    written["DELETE access (published path)"] = await everyFault(
      "withdraw access",
      async () => ok(await t.api("POST", "/accesses", { identityId: await identity() }), 201).requestId,
      (id) => t.api("DELETE", `/v/${id}`),
      200,
    );
    written["POST identity"] = await everyFault(
      "POST identity",
      async () => crypto.randomUUID(),
      (key) => t.api("POST", "/identities", { referenceId: key, aliases: [{ type: "urn:svc:email", identifier: `${key}@example.com` }] }),
      201,
    );
    written["PUT identity"] = await everyFault(
      "PUT identity",
      identity,
      (id) => t.api("PUT", `/identities/${id}`, { referenceId: `ref-${id}`, aliases: [{ type: "urn:svc:phone", identifier: id }] }),
      200,
    );
    written["DELETE identity"] = await everyFault("DELETE identity", withHistory, (id) => t.api("DELETE", `/identities/${id}`), 204);
    // Each route wrote its change, event and log entry (and the state where it shapes it): at least 3 rows.
    for (const [route, rows] of Object.entries(written)) expect(rows, route).toBeGreaterThanOrEqual(/^(PUT|POST) identity/.test(route) ? 2 : 3);
  });

  it("for project deletion, across every table holding the project's rows", async () => {
    const project = async () => {
      const t = await configuredTenant();
      await subscribed(t, ["permission.created"]); // first, so that the permission's event is kept (and delivered)
      ok(await t.api("POST", "/permissions", permissionBody(t, "approved", ago(1))), 201);
      ok(await admin("PUT", `/projects/${t.projectId}/blocking`, { enabled: true, entries: [{ host: "cdn.tracker.example", purpose: "marketing", source: "manual" }] }));
      return t.projectId;
    };
    const rows = await everyFault("DELETE project", project, (projectId) => admin("DELETE", `/projects/${projectId}`), 204);
    expect(rows).toBeGreaterThan(15);
    // And what it leaves: no row of any table names the project, but the audit trail's record of what was done to it
    // (its organization's hold and its members' roles go in the same batch).
    const projectId = await project();
    await outboxQuiet();
    expect((await admin("DELETE", `/projects/${projectId}`)).status).toBe(204);
    const left = Object.entries(await snapshot()).filter(([, list]) => list.some((row) => row.includes(projectId)));
    expect(left.map(([table]) => table)).toEqual(["audit_entries"]);
    expectProblem(await call("GET", `/admin/v1/projects/${projectId}`, { token: "test-admin-token" }), 404, "not_found");
  });
});
