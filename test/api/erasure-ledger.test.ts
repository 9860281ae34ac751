import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { configuredTenant, permissionBody } from "./configuration-fixture";
import { admin, call, expectProblem, newClient, ok, tokenFor } from "./helpers";

const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

describe("erasure ledger", () => {
  it("re-applies an erasure that a database restore undid, holding only salted hashes", async () => {
    const t = await configuredTenant();
    const kept = ok(await t.api("POST", "/identities", {}), 201).identityId;
    ok(await t.api("POST", "/permissions", permissionBody(t, "approved", ago(1))), 201);
    const identity = await env.DB.prepare("SELECT * FROM identities WHERE id = ?").bind(t.identityId).first<Record<string, string>>();
    expect((await t.api("DELETE", `/identities/${t.identityId}`)).status).toBe(204);
    // The ledger lives in KV and names no identity in the clear.
    const keys = (await env.KV.list({ prefix: `erasure:${t.projectId}:` })).keys.map((k) => k.name);
    expect(keys).toHaveLength(1);
    expect(keys[0]).not.toContain(t.identityId);
    // A restore brings the erased identity back (as D1 Time Travel would).
    await env.DB.prepare("INSERT INTO identities (id, project_id, reference_id, created, updated) VALUES (?, ?, ?, ?, ?)")
      .bind(identity!.id, identity!.project_id, identity!.reference_id, identity!.created, identity!.updated)
      .run();
    expect((await t.api("GET", `/identities/${t.identityId}`)).status).toBe(200);
    const reply = await admin("POST", `/projects/${t.projectId}/erasures/reapply`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ ledgerEntries: 1, reapplied: [t.identityId] });
    expectProblem(await t.api("GET", `/identities/${t.identityId}`), 404, "not_found");
    expect((await t.api("GET", `/identities/${kept}`)).status).toBe(200);
    // Running it again changes nothing; it needs the admin token; an unknown project is a 404.
    expect((await admin("POST", `/projects/${t.projectId}/erasures/reapply`)).body).toEqual({ ledgerEntries: 1, reapplied: [] });
    expectProblem(await call("POST", `/admin/v1/projects/${t.projectId}/erasures/reapply`, { token: t.token }), 401, "unauthorized");
    expectProblem(await admin("POST", "/projects/prj_missing/erasures/reapply"), 404, "not_found");
  });
});

describe("audit export", () => {
  it("streams the project's log entries in a time range as NDJSON, with the records they name, for backend clients only", async () => {
    const t = await configuredTenant();
    const first = ok(await t.api("POST", "/permissions", permissionBody(t, "approved", ago(2))), 201);
    const objection = ok(await t.api("POST", "/objections", { identityId: t.identityId, requested: ago(1), request: { purposes: [{ purposeId: t.analytics }] } }), 201);
    ok(await t.api("PUT", `/objections/${objection.requestId}`, { status: "completed" }));
    const from = new Date(Date.now() - 3_600_000).toISOString();
    const to = new Date(Date.now() + 60_000).toISOString();
    const reply = await t.api("GET", `/audit-export?from=${from}&to=${to}`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toBe("application/x-ndjson");
    const lines = String(reply.body).trim().split("\n").map((line) => JSON.parse(line));
    expect(lines.map((l) => [l.index, l.payload.kind])).toEqual([
      [0, "permission.created"],
      [1, "objection.created"],
      [2, "objection.updated"],
    ]);
    expect(lines[0].record).toEqual(first);
    expect(lines[2].record.status).toBe("completed");
    // An empty range is empty; a public client may not export.
    expect(String((await t.api("GET", `/audit-export?from=${from}&to=${from}`)).body ?? "")).toBe("");
    const web = await newClient(t.projectId, "web", ["https://shop.example"]);
    const asWeb = await call("GET", `/privacy/v2/projects/${t.projectId}/audit-export?from=${from}&to=${to}`, { token: await tokenFor(web.clientId, web.clientSecret) });
    expectProblem(asWeb, 403, "insufficient_scope");
    expectProblem(await t.api("GET", "/audit-export?from=yesterday&to=today"), 400, "validation_failed");
  });
});
