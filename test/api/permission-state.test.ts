import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { getDb } from "../../worker/lib/db";
import { stateQuery } from "../../worker/requests/state";
import { configuredTenant, permissionBody } from "./configuration-fixture";
import { expectProblem, type IdentityExport, ok, subscribed } from "./helpers";

type Tenant = Awaited<ReturnType<typeof configuredTenant>>;

const minute = (n: number) => `2026-01-22T10:${String(n).padStart(2, "0")}:00.000Z`;

const stateOf = async (t: Tenant, identityId = t.identityId) => ok(await t.api("GET", `/identities/${identityId}/permission-state`));
const entryOf = async (t: Tenant, purposeId: string) => (await stateOf(t)).purposes.find((p: any) => p.purposeId === purposeId);
const permit = async (t: Tenant, status: "approved" | "denied", requested: string) =>
  ok(await t.api("POST", "/permissions", permissionBody(t, status, requested)), 201).requestId as string;
const object = async (t: Tenant, purposeId: string, requested: string, status?: string) =>
  ok(await t.api("POST", "/objections", { identityId: t.identityId, requested, request: { purposes: [{ purposeId }] }, ...(status ? { status } : {}) }), 201)
    .requestId as string;

async function stateEvents(projectId: string) {
  const { results } = await env.DB.prepare("SELECT data FROM events WHERE project_id = ? AND type = 'permission_state.changed' ORDER BY rowid")
    .bind(projectId)
    .all<{ data: string }>();
  return results.map((r) => JSON.parse(r.data));
}

async function count(table: string, projectId: string) {
  const row = await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE project_id = ?`).bind(projectId).first<{ n: number }>();
  return row!.n;
}

describe("permission state", () => {
  it("shows the latest requested per purpose, whatever the posting order", async () => {
    const t = await configuredTenant();
    await subscribed(t); // the outbox keeps events only for a subscriber
    expect(await stateOf(t)).toEqual({ projectId: t.projectId, identityId: t.identityId, updated: null, purposes: [] });
    const later = await permit(t, "approved", minute(20));
    await permit(t, "denied", minute(10));
    const entry = await entryOf(t, t.marketing);
    expect(entry).toEqual({
      purposeId: t.marketing,
      referenceId: "marketing",
      version: "1",
      status: "approved",
      requestId: later,
      requestType: "permission",
      requested: minute(20),
      dataGroups: [
        { dataGroupId: t.email, referenceId: "email", status: "approved" },
        { dataGroupId: t.location, referenceId: "location", status: "approved" },
      ],
      processors: [{ partyId: t.processor, referenceId: "mailer", status: "approved" }],
      recipients: [{ partyId: t.recipient, referenceId: "partner", status: "approved" }],
    });
    // The same instant in another offset is a tie: the later write wins.
    const tie = await permit(t, "denied", "2026-01-22T11:20:00+01:00");
    expect(await entryOf(t, t.marketing)).toMatchObject({ requestId: tie, status: "denied" });
    // Only one state event: the earlier-requested permission did not change the state.
    expect((await stateEvents(t.projectId)).map((e) => e.purposes[0]?.requestId)).toEqual([later, tie]);
  });

  it("a denied purpose denies all its data groups and parties", async () => {
    const t = await configuredTenant();
    const body = permissionBody(t, "approved", minute(1));
    body.request.purposes[0].status = "denied";
    body.request.purposes[0].dataGroups = [{ dataGroupId: t.email, status: "approved" }];
    ok(await t.api("POST", "/permissions", body), 201);
    expect(await entryOf(t, t.marketing)).toMatchObject({
      status: "denied",
      dataGroups: [
        { dataGroupId: t.email, status: "denied" },
        { dataGroupId: t.location, status: "denied" },
      ],
      processors: [{ partyId: t.processor, status: "denied" }],
      recipients: [{ partyId: t.recipient, status: "denied" }],
    });
  });

  it("a completed objection denies the purpose until a later permission; withdrawing it restores the rest", async () => {
    const t = await configuredTenant();
    const permission = await permit(t, "approved", minute(1));
    const objection = await object(t, t.marketing, minute(2));
    expect(await entryOf(t, t.marketing)).toMatchObject({ requestId: permission, status: "approved" });
    ok(await t.api("PUT", `/objections/${objection}`, { status: "in_progress" }));
    expect(await entryOf(t, t.marketing)).toMatchObject({ requestId: permission });
    ok(await t.api("PUT", `/objections/${objection}`, { status: "completed" }));
    expect(await entryOf(t, t.marketing)).toMatchObject({
      requestId: objection,
      requestType: "objection",
      status: "denied",
      requested: minute(2),
      dataGroups: [{ status: "denied" }, { status: "denied" }],
      processors: [{ status: "denied" }],
    });
    // A legitimate-interests purpose without any permission gets its entry from the objection alone.
    const onAnalytics = await object(t, t.analytics, minute(3), "completed");
    expect(await entryOf(t, t.analytics)).toMatchObject({ requestId: onAnalytics, requestType: "objection", status: "denied" });
    // A rejected objection never counts.
    await object(t, t.marketing, minute(4), "rejected");
    expect(await entryOf(t, t.marketing)).toMatchObject({ requestId: objection });
    // Withdrawing the objection: the permission it had overridden counts again.
    ok(await t.api("DELETE", `/objections/${objection}`));
    expect(await entryOf(t, t.marketing)).toMatchObject({ requestId: permission, status: "approved" });
    // A later permission overrides a completed objection.
    const renewed = await permit(t, "approved", minute(5));
    ok(await t.api("PUT", `/objections/${onAnalytics}`, { status: "completed" }));
    expect(await entryOf(t, t.marketing)).toMatchObject({ requestId: renewed });
  });

  it("withdrawn permissions stop counting: the purpose is recomputed from history, or leaves the state", async () => {
    const t = await configuredTenant();
    await subscribed(t);
    const first = await permit(t, "denied", minute(1));
    const second = await permit(t, "approved", minute(2));
    ok(await t.api("DELETE", `/permissions/${second}`));
    expect(await entryOf(t, t.marketing)).toMatchObject({ requestId: first, status: "denied" });
    // Withdrawing one that is not the winner changes nothing and emits no state event.
    const third = await permit(t, "approved", minute(3));
    const before = (await stateEvents(t.projectId)).length;
    ok(await t.api("DELETE", `/permissions/${first}`));
    expect((await stateEvents(t.projectId)).length).toBe(before);
    ok(await t.api("DELETE", `/permissions/${third}`));
    expect((await stateOf(t)).purposes).toEqual([]);
    expect((await stateEvents(t.projectId)).at(-1)).toEqual({ identityId: t.identityId, purposes: [], removedPurposeIds: [t.marketing] });
    // A permission that is not completed does not count until it is.
    const pending = ok(await t.api("POST", "/permissions", { ...permissionBody(t, "approved", minute(4)), permissionStatus: "in_progress" }), 201);
    expect((await stateOf(t)).purposes).toEqual([]);
    ok(await t.api("PUT", `/permissions/${pending.requestId}`, { permissionStatus: "completed" }));
    expect(await entryOf(t, t.marketing)).toMatchObject({ requestId: pending.requestId });
  });

  it("leaves out outdated permissions, removed data groups and parties, and deleted purposes", async () => {
    const t = await configuredTenant();
    await permit(t, "approved", minute(1));
    const objection = await object(t, t.analytics, minute(1), "completed");
    const purpose = (requireNewConsent: boolean, changes: Record<string, unknown> = {}) =>
      t.api("PUT", `/configurations/purposes/${t.marketing}`, {
        referenceId: "marketing",
        name: "Marketing",
        legalGround: "consent",
        dataGroups: [t.email, t.location],
        processors: [t.processor],
        recipients: [t.recipient],
        controllers: [t.controller],
        ...changes,
        requireNewConsent,
      });
    // Removing a data group and a party in place: the entry stays, without them.
    ok(await purpose(false, { dataGroups: [t.email], recipients: [] }));
    expect(await entryOf(t, t.marketing)).toMatchObject({
      version: "1",
      dataGroups: [{ dataGroupId: t.email, status: "approved" }],
      processors: [{ partyId: t.processor }],
      recipients: [],
    });
    // A new version makes the version-1 permission outdated: the purpose must be asked again.
    ok(await purpose(true));
    expect(await entryOf(t, t.marketing)).toBeUndefined();
    // Permissions still name the version they were given to, which stays readable as proof.
    expect(ok(await t.api("GET", `/configurations/purposes/${t.marketing}/versions/1`)).dataGroups).toEqual([t.email]);
    // A permission to the old version is recorded but outdated at once; one to the new version counts.
    const old = ok(await t.api("POST", "/permissions", { ...permissionBody(t, "approved", minute(2)), request: { purposes: [{ purposeId: t.marketing, version: "1", status: "approved" }] } }), 201);
    expect(old.request).toMatchObject({ purposes: [{ version: "1" }] });
    expect(await entryOf(t, t.marketing)).toBeUndefined();
    const fresh = await permit(t, "approved", minute(3));
    expect(await entryOf(t, t.marketing)).toMatchObject({ requestId: fresh, version: "2", dataGroups: [{}, {}] });
    // Objections are not agreement to a wording: a new version of the purpose does not lift them.
    const analytics = { referenceId: "analytics", name: "Analytics v2", legalGround: "legitimate_interests", dataGroups: [t.location], controllers: [t.controller] };
    ok(await t.api("PUT", `/configurations/purposes/${t.analytics}`, { ...analytics, requireNewConsent: true }));
    expect(await entryOf(t, t.analytics)).toMatchObject({ requestId: objection, version: "1", status: "denied" });
    // A deleted purpose leaves the state.
    expect((await t.api("DELETE", `/configurations/purposes/${t.analytics}`)).status).toBe(204);
    expect((await stateOf(t)).purposes.map((p: any) => p.purposeId)).toEqual([t.marketing]);
  });

  it("stores every one of many concurrent permissions for one identity, and shows the latest requested", async () => {
    const t = await configuredTenant();
    const minutes = Array.from({ length: 40 }, (_, i) => (i * 17) % 40);
    const replies = await Promise.all(
      minutes.map((m, i) => t.api("POST", "/permissions", permissionBody(t, i % 2 ? "approved" : "denied", minute(m)))),
    );
    expect(replies.map((r) => r.status)).toEqual(minutes.map(() => 201));
    const stored = ok(await t.api("GET", `/permissions?identityId=${t.identityId}&limit=200`)).items;
    expect(stored).toHaveLength(40);
    const latest = replies.map((r) => r.body).find((r) => r.requested === minute(39));
    expect(await entryOf(t, t.marketing)).toMatchObject({ requestId: latest!.requestId, requested: minute(39) });
  });

  it("writes a request, its state and its events atomically: a failure in any part stores none", async () => {
    const t = await configuredTenant();
    await subscribed(t);
    const tables = ["requests", "request_purposes", "permission_states", "events"];
    const counts = async () => Promise.all(tables.map((table) => count(table, t.projectId)));
    for (const [table, when] of [
      ["events", "BEFORE INSERT"],
      ["permission_states", "BEFORE INSERT"],
      ["request_purposes", "AFTER INSERT"],
    ]) {
      await env.DB.prepare(`CREATE TRIGGER fail_${table} ${when} ON ${table} BEGIN SELECT RAISE(ABORT, 'injected failure'); END`).run();
      try {
        const before = await counts();
        const reply = await t.api("POST", "/permissions", permissionBody(t, "approved", minute(1)));
        expectProblem(reply, 500, "internal_error");
        expect(await counts(), table).toEqual(before);
      } finally {
        await env.DB.prepare(`DROP TRIGGER fail_${table}`).run();
      }
    }
    // The same for a status move: the objection stays received, the state unchanged.
    const objection = await object(t, t.marketing, minute(2));
    await env.DB.prepare("CREATE TRIGGER fail_state BEFORE INSERT ON permission_states BEGIN SELECT RAISE(ABORT, 'injected failure'); END").run();
    try {
      expectProblem(await t.api("PUT", `/objections/${objection}`, { status: "completed" }), 500, "internal_error");
    } finally {
      await env.DB.prepare("DROP TRIGGER fail_state").run();
    }
    expect(ok(await t.api("GET", `/objections/${objection}`)).status).toBe("received");
    expect((await stateOf(t)).purposes).toEqual([]);
    expect(await count("events", t.projectId)).toBe(1);
  });

  it("is read through index seeks only, so its cost does not grow with history (EXPLAIN QUERY PLAN)", async () => {
    const query = stateQuery(getDb(env.DB), "prj_1", "idn_1").toSQL();
    const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).bind(...query.params).all<{ detail: string }>();
    const details = plan.results.map((r) => r.detail);
    expect(details.join(" | ")).not.toMatch(/requests|request_purposes/);
    for (const detail of details.filter((d) => /^(SEARCH|SCAN)/.test(d))) expect(detail).toMatch(/^SEARCH .* USING (INDEX|PRIMARY KEY|COVERING INDEX)/);
    // The recomputation after a withdrawal is one seek on request_purposes_latest_idx.
    const winner = await env.DB.prepare(
      `EXPLAIN QUERY PLAN SELECT seq FROM request_purposes WHERE project_id = ? AND identity_id = ? AND purpose_id = ? AND counts = 1
       ORDER BY requested_at DESC, seq DESC LIMIT 1`,
    )
      .bind("prj_1", "idn_1", "pur_1")
      .all<{ detail: string }>();
    const winnerPlan = winner.results.map((r) => r.detail).join(" | ");
    expect(winnerPlan).toContain("USING COVERING INDEX request_purposes_latest_idx");
    expect(winnerPlan).not.toContain("TEMP B-TREE");
  });

  it("is part of the identity's Art. 15 export with every request, and goes with the identity", async () => {
    const t = await configuredTenant();
    const permission = await permit(t, "approved", minute(1));
    const objection = await object(t, t.analytics, minute(2), "completed");
    const erasure = ok(await t.api("POST", "/erasures", { identityId: t.identityId }), 201).requestId;
    const access = ok(await t.api("POST", "/accesses", { identityId: t.identityId }), 201).requestId;
    ok(await t.api("DELETE", `/accesses/${access}`));
    const data = ok(await t.api("GET", `/identities/${t.identityId}/data`)) as IdentityExport;
    expect(data.identity.identityId).toBe(t.identityId);
    expect(data.permissions.map((r: any) => r.requestId)).toEqual([permission]);
    expect(data.objections.map((r: any) => r.requestId)).toEqual([objection]);
    expect(data.erasures.map((r: any) => r.requestId)).toEqual([erasure]);
    expect(data.accesses).toEqual([expect.objectContaining({ requestId: access, status: "withdrawn" })]);
    expect(data.permissionState).toEqual(await stateOf(t));
    expect(data.permissionState.purposes).toHaveLength(2);
    expect((await t.api("DELETE", `/identities/${t.identityId}`)).status).toBe(204);
    for (const table of ["requests", "request_purposes", "permission_states"]) expect(await count(table, t.projectId), table).toBe(0);
    expectProblem(await t.api("GET", `/identities/${t.identityId}/data`), 404, "not_found");
  });

  it("of an unknown identity is 404", async () => {
    const t = await configuredTenant();
    expectProblem(await t.api("GET", "/identities/idn_missing/permission-state"), 404, "not_found");
  });
});
