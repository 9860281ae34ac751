import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { listStatementOf } from "../../worker/requests/queries";
import { configuredTenant, newIdentity, permissionBody } from "./configuration-fixture";
import { expectProblem, newTenant, ok, problemOf, subscribed } from "./helpers";

const at = "2026-01-22T10:15:30.123+01:00";

async function eventsOf(projectId: string) {
  const { results } = await env.DB.prepare("SELECT type, data FROM events WHERE project_id = ? ORDER BY rowid").bind(projectId).all<{ type: string; data: string }>();
  return results.map((r) => ({ type: r.type, data: JSON.parse(r.data) }));
}

describe("permissions", () => {
  it("store the payload as recorded, default to completed, and emit permission.created", async () => {
    const t = await configuredTenant();
    await subscribed(t); // the outbox keeps events only for a subscriber
    const created = ok(await t.api("POST", "/permissions", permissionBody(t, "approved", at)), 201);
    expect(created.requestId).toMatch(/^prm_/);
    expect(created).toMatchObject({
      projectId: t.projectId,
      identityId: t.identityId,
      requested: at,
      permissionStatus: "completed",
      meta: { requestedBy: expect.stringMatching(/^cli_/), context: { collectionMethod: "web-dialog", application: "shop-web", language: "en" } },
      request: {
        purposes: [
          {
            purposeId: t.marketing,
            referenceId: "marketing",
            version: "1",
            status: "approved",
            dataGroups: [
              { dataGroupId: t.email, referenceId: "email", status: "approved" },
              { dataGroupId: t.location, referenceId: "location", status: "approved" },
            ],
            processors: [{ partyId: t.processor, referenceId: "mailer", status: "approved" }],
            recipients: [{ partyId: t.recipient, referenceId: "partner", status: "approved" }],
          },
        ],
      },
    });
    expect(created).not.toHaveProperty("status");
    expect(ok(await t.api("GET", `/permissions/${created.requestId}`))).toEqual(created);
    const types = (await eventsOf(t.projectId)).map((e) => e.type);
    expect(types).toEqual(["permission.created", "permission_state.changed"]);
    expect((await eventsOf(t.projectId))[0].data).toEqual(created);
  });

  it("accept 0 to 3 fractional digits with Z or an offset, and refuse other timestamp forms", async () => {
    const t = await configuredTenant();
    for (const requested of ["2026-01-22T10:15:30Z", "2026-01-22T10:15:30.1Z", "2026-01-22T10:15:30.12+05:30", "2026-01-22T10:15:30.123-08:00"]) {
      expect((await t.api("POST", "/permissions", permissionBody(t, "approved", requested))).status, requested).toBe(201);
    }
    for (const requested of [
      "2026-11-22T10:15:30.1234Z",
      1795347189903,
      "1795347189903",
      "yesterday",
      "2026-11-22 10:15:30Z",
      "2026-11-22T10:15:30",
      "2026-02-30T10:15:30Z",
      "2026-11-22T24:15:30Z",
      "2099-01-01T00:00:00Z",
    ]) {
      const reply = await t.api("POST", "/permissions", permissionBody(t, "approved", requested as string));
      expectProblem(reply, 400, "validation_failed");
      expect(problemOf(reply).errors![0].path).toBe("requested");
    }
  });

  it("refuse duplicate sub-items and ids that are unknown or belong elsewhere", async () => {
    const t = await configuredTenant();
    await subscribed(t);
    const body = permissionBody(t, "approved", at);
    const entry = body.request.purposes[0];
    const withEntry = (changes: Record<string, unknown>) => ({ ...body, request: { purposes: [{ ...entry, ...changes }] } });
    const twice = await t.api("POST", "/permissions", { ...body, request: { purposes: [entry, entry] } });
    expectProblem(twice, 400, "validation_failed");
    expect(problemOf(twice).errors![0].path).toBe("request.purposes.1.purposeId");
    expectProblem(await t.api("POST", "/permissions", withEntry({ dataGroups: [entry.dataGroups[0], entry.dataGroups[0]] })), 400, "validation_failed");
    expectProblem(await t.api("POST", "/permissions", withEntry({ processors: [entry.processors[0], entry.processors[0]] })), 400, "validation_failed");
    expectProblem(await t.api("POST", "/permissions", withEntry({ status: "maybe" })), 400, "validation_failed");
    expectProblem(await t.api("POST", "/permissions", { ...body, surprise: 1 }), 400, "validation_failed");

    const unknown = await t.api("POST", "/permissions", { ...body, identityId: "idn_missing" });
    expectProblem(unknown, 422, "unknown_reference");
    expect(problemOf(unknown).errors).toEqual([expect.objectContaining({ path: "identityId" })]);
    const wrong = await t.api(
      "POST",
      "/permissions",
      withEntry({
        referenceId: "analytics",
        dataGroups: [{ dataGroupId: "dg_missing", status: "approved" }],
        // The recipient is a party of the project, but not a processor of this purpose.
        processors: [{ partyId: t.recipient, status: "approved" }],
      }),
    );
    expectProblem(wrong, 422, "unknown_reference");
    expect(problemOf(wrong).errors!.map((e: any) => e.path)).toEqual([
      "request.purposes.0.referenceId",
      "request.purposes.0.dataGroups.0",
      "request.purposes.0.processors.0",
    ]);
    expectProblem(await t.api("POST", "/permissions", withEntry({ purposeId: "pur_missing" })), 422, "unknown_reference");
    expectProblem(await t.api("POST", "/permissions", withEntry({ version: "7" })), 422, "unknown_reference");
    // Another project's identity is unknown here.
    const other = await configuredTenant();
    expectProblem(await t.api("POST", "/permissions", { ...body, identityId: other.identityId }), 422, "unknown_reference");
    // Nothing of the refused requests was stored.
    expect(ok(await t.api("GET", "/permissions")).items).toEqual([]);
    expect(await eventsOf(t.projectId)).toEqual([]);
  });
});

describe("status moves", () => {
  it("follow received → in_progress → completed for erasures; anything else is 409", async () => {
    const t = await configuredTenant();
    await subscribed(t);
    const erasure = ok(await t.api("POST", "/erasures", { identityId: t.identityId }), 201);
    expect(erasure).toMatchObject({ status: "received", request: null });
    expect(erasure.requested).toBe(erasure.created);
    const id = erasure.requestId;
    expect(ok(await t.api("PUT", `/erasures/${id}`, { status: "in_progress" })).status).toBe("in_progress");
    expect(ok(await t.api("PUT", `/erasures/${id}`, { status: "in_progress" })).status).toBe("in_progress");
    expect(ok(await t.api("PUT", `/erasures/${id}`, { status: "completed" })).status).toBe("completed");
    const back = await t.api("PUT", `/erasures/${id}`, { status: "received" });
    expectProblem(back, 409, "invalid_transition");
    expect(back.body).toMatchObject({ from: "completed", to: "received", allowed: [] });
    expectProblem(await t.api("DELETE", `/erasures/${id}`), 409, "invalid_transition");
    expectProblem(await t.api("PUT", `/erasures/${id}`, { status: "withdrawn" }), 400, "validation_failed");
    expectProblem(await t.api("PUT", `/erasures/${id}`, { permissionStatus: "completed" }), 400, "validation_failed");
    expect((await eventsOf(t.projectId)).map((e) => e.type)).toEqual(["erasure.created", "erasure.updated", "erasure.updated"]);
  });

  it("withdraw with DELETE: the record stays, withdrawn, and cannot move again", async () => {
    const t = await configuredTenant();
    await subscribed(t);
    const objection = ok(await t.api("POST", "/objections", { identityId: t.identityId, requested: at, request: { purposes: [{ purposeId: t.analytics }] } }), 201);
    expect(objection.status).toBe("received");
    const withdrawn = ok(await t.api("DELETE", `/objections/${objection.requestId}`));
    expect(withdrawn).toMatchObject({ status: "withdrawn", request: objection.request });
    expect(ok(await t.api("GET", `/objections/${objection.requestId}`)).status).toBe("withdrawn");
    expectProblem(await t.api("PUT", `/objections/${objection.requestId}`, { status: "completed" }), 409, "invalid_transition");
    // Withdrawing again changes nothing (DELETE is idempotent) and emits nothing.
    expect(ok(await t.api("DELETE", `/objections/${objection.requestId}`))).toEqual(withdrawn);
    const rejected = ok(await t.api("POST", "/objections", { identityId: t.identityId, requested: at, request: { purposes: [{ purposeId: t.analytics }] }, status: "rejected" }), 201);
    expectProblem(await t.api("DELETE", `/objections/${rejected.requestId}`), 409, "invalid_transition");
    expect((await eventsOf(t.projectId)).map((e) => e.type)).toEqual(["objection.created", "objection.withdrawn", "objection.created"]);
  });

  it("permissions use permissionStatus, may start elsewhere, and can be withdrawn once completed", async () => {
    const t = await configuredTenant();
    const pending = ok(await t.api("POST", "/permissions", { ...permissionBody(t, "approved", at), permissionStatus: "received" }), 201);
    expect(pending.permissionStatus).toBe("received");
    expectProblem(await t.api("PUT", `/permissions/${pending.requestId}`, { status: "completed" }), 400, "validation_failed");
    expect(ok(await t.api("PUT", `/permissions/${pending.requestId}`, { permissionStatus: "completed" })).permissionStatus).toBe("completed");
    expect(ok(await t.api("DELETE", `/permissions/${pending.requestId}`)).permissionStatus).toBe("withdrawn");
  });

  it("serve the access family's published DELETE path /v/{request_id} as well as /accesses/{request_id}", async () => {
    const t = await configuredTenant();
    const body = { identityId: t.identityId, request: { dataGroups: [t.email], format: "csv" } };
    const first = ok(await t.api("POST", "/accesses", body), 201);
    expect(first.request).toEqual({ dataGroups: [t.email], format: "csv" });
    const second = ok(await t.api("POST", "/accesses", body), 201);
    expect(ok(await t.api("DELETE", `/v/${first.requestId}`)).status).toBe("withdrawn");
    expect(ok(await t.api("DELETE", `/accesses/${second.requestId}`)).status).toBe("withdrawn");
    expectProblem(await t.api("PUT", `/accesses/${first.requestId}`, { status: "in_progress" }), 409, "invalid_transition");
    expectProblem(await t.api("POST", "/accesses", { ...body, request: { format: "pdf" } }), 400, "validation_failed");
    expectProblem(await t.api("POST", "/accesses", { ...body, request: { purposes: ["pur_missing"] } }), 422, "unknown_reference");
    expectProblem(await t.api("POST", "/erasures", { identityId: "idn_missing" }), 422, "unknown_reference");
  });
});

describe("isolation", () => {
  it("answers 404 for another project's request ids, on every family and verb", async () => {
    const t = await configuredTenant();
    const other = await newTenant();
    const ids = {
      permissions: ok(await t.api("POST", "/permissions", permissionBody(t, "approved", at)), 201).requestId,
      objections: ok(await t.api("POST", "/objections", { identityId: t.identityId, requested: at, request: { purposes: [{ purposeId: t.analytics }] } }), 201).requestId,
      erasures: ok(await t.api("POST", "/erasures", { identityId: t.identityId }), 201).requestId,
      accesses: ok(await t.api("POST", "/accesses", { identityId: t.identityId }), 201).requestId,
    };
    for (const [family, id] of Object.entries(ids)) {
      const status = family === "permissions" ? { permissionStatus: "rejected" } : { status: "rejected" };
      expectProblem(await other.api("GET", `/${family}/${id}`), 404, "not_found");
      expectProblem(await other.api("PUT", `/${family}/${id}`, status), 404, "not_found");
      expectProblem(await other.api("DELETE", `/${family}/${id}`), 404, "not_found");
      expect(ok(await other.api("GET", `/${family}`))).toMatchObject({ items: [] });
      expect(ok(await other.api("GET", `/${family}?identityId=${t.identityId}`))).toMatchObject({ items: [] });
      // A request id of one family is not found under another.
      const elsewhere = family === "erasures" ? "accesses" : "erasures";
      expectProblem(await t.api("GET", `/${elsewhere}/${id}`), 404, "not_found");
    }
    expectProblem(await other.api("DELETE", `/v/${ids.accesses}`), 404, "not_found");
    expectProblem(await other.api("GET", `/identities/${t.identityId}/permission-state`), 404, "not_found");
  });
});

describe("lists", () => {
  it("filter by status and identity, and a cursor walk returns every item exactly once", async () => {
    const t = await configuredTenant();
    const second = await newIdentity(t.api);
    const made: { id: string; identityId: string; status: string }[] = [];
    for (let i = 0; i < 23; i++) {
      const identityId = i % 3 === 0 ? second : t.identityId;
      const r = ok(await t.api("POST", "/erasures", { identityId }), 201);
      made.push({ id: r.requestId, identityId, status: "received" });
    }
    for (const entry of made.filter((_, i) => i % 4 === 0)) {
      ok(await t.api("PUT", `/erasures/${entry.id}`, { status: "in_progress" }));
      entry.status = "in_progress";
    }
    const walk = async (query: string, limit: number) => {
      const seen: any[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: any = ok(await t.api("GET", `/erasures?limit=${limit}${query}${cursor ? `&cursor=${cursor}` : ""}`));
        expect(page.items.length).toBeLessThanOrEqual(limit);
        seen.push(...page.items);
        cursor = page.nextCursor;
        pages++;
      } while (cursor);
      return { seen, pages };
    };
    const sorted = (list: { id: string }[]) => list.map((e) => e.id).sort();
    const all = await walk("", 5);
    expect(all.pages).toBe(5);
    expect(all.seen.map((r) => r.requestId)).toEqual(sorted(made));
    const mine = await walk(`&identityId=${second}`, 3);
    expect(mine.seen.map((r) => r.requestId)).toEqual(sorted(made.filter((m) => m.identityId === second)));
    const busy = await walk("&status=in_progress", 2);
    expect(busy.seen.map((r) => r.requestId)).toEqual(sorted(made.filter((m) => m.status === "in_progress")));
    const both = await walk(`&status=received&identityId=${t.identityId}`, 4);
    expect(both.seen.map((r) => r.requestId)).toEqual(sorted(made.filter((m) => m.status === "received" && m.identityId === t.identityId)));
    expect(ok(await t.api("GET", "/erasures?limit=200")).nextCursor).toBeNull();
    for (const bad of ["limit=0", "limit=201", "status=done", "cursor=nonsense", "updatedSince=yesterday", "updatedSince=1795347189903"]) {
      expectProblem(await t.api("GET", `/erasures?${bad}`), 400, bad.startsWith("cursor") ? "invalid_cursor" : "validation_failed");
    }
  });

  it("updatedSince walks changes in update order, each once, and refuses a cursor of the other order", async () => {
    const t = await configuredTenant();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push(ok(await t.api("POST", "/accesses", { identityId: t.identityId }), 201).requestId);
    const since = new Date(Date.now() - 60_000).toISOString();
    const moved = ok(await t.api("PUT", `/accesses/${ids[0]}`, { status: "in_progress" }));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = ok(await t.api("GET", `/accesses?limit=3&updatedSince=${encodeURIComponent(since)}${cursor ? `&cursor=${cursor}` : ""}`));
      seen.push(...page.items.map((r: any) => r.requestId));
      cursor = page.nextCursor;
    } while (cursor);
    expect([...seen].sort()).toEqual([...ids].sort());
    expect(seen.at(-1)).toBe(ids[0]);
    const later = ok(await t.api("GET", `/accesses?updatedSince=${encodeURIComponent(moved.updated)}`)).items;
    expect(later.map((r: any) => r.requestId)).toEqual([ids[0]]);
    const idCursor = ok(await t.api("GET", "/accesses?limit=2")).nextCursor;
    expectProblem(await t.api("GET", `/accesses?updatedSince=${encodeURIComponent(since)}&cursor=${idCursor}`), 400, "invalid_cursor");
  });

  it("use an index for every filter combination (EXPLAIN QUERY PLAN)", async () => {
    // The statement the list route runs, prepared on a binding that asks for its plan instead.
    const explaining = { prepare: (query: string) => env.DB.prepare(`EXPLAIN QUERY PLAN ${query}`) } as D1Database;
    const cursor = { id: "req_0", updated: "2026-01-01T00:00:00.000Z" };
    const cases = [
      [{}, "requests_family_idx"],
      [{ status: "received" as const }, "requests_status_idx"],
      [{ identityId: "idn_1" }, "requests_identity_idx"],
      [{ identityId: "idn_1", status: "received" as const }, "requests_identity_idx"],
      [{ updatedSince: "2026-01-01T00:00:00.000Z" }, "requests_updated_idx"],
    ] as const;
    for (const [filters, index] of cases) {
      for (const after of [undefined, { id: cursor.id, ...("updatedSince" in filters ? { updated: cursor.updated } : {}) }]) {
        const plan = await listStatementOf(explaining, "prj_1", "erasure", { ...filters, after, limit: 51 }).all<{ detail: string }>();
        const details = plan.results.map((r) => r.detail).join(" | ");
        expect(details, JSON.stringify(filters)).toContain(`USING INDEX ${index}`);
        expect(details, JSON.stringify(filters)).not.toContain("TEMP B-TREE");
      }
    }
  });
});
