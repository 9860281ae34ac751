import { describe, expect, it } from "vitest";
import { configuredTenant } from "../api/configuration-fixture";
import { expectProblem, ok, problemOf } from "../api/helpers";

/** D1 binds at most 100 values per statement; requests naming many ids must not reach that limit (docs/proof.md#what-the-server-witnesses). */
describe("requests naming many ids", { timeout: 60_000 }, () => {
  it("records an erasure naming 200 data groups (the documented maximum) instead of failing with 500", async () => {
    const t = await configuredTenant();
    const ids: string[] = [t.email, t.location];
    for (let i = ids.length; i < 200; i++) {
      ids.push(ok(await t.api("POST", "/configurations/data-groups", { referenceId: `group-${i}`, name: `Group ${i}` }), 201).dataGroupId);
    }
    const erasure = ok(await t.api("POST", "/erasures", { identityId: t.identityId, request: { dataGroups: ids } }), 201);
    expect(erasure.request!.dataGroups).toHaveLength(200);
    const access = ok(await t.api("POST", "/accesses", { identityId: t.identityId, request: { dataGroups: ids, purposes: [t.marketing] } }), 201);
    expect(access.request!.dataGroups).toHaveLength(200);
    // Unknown ids among many are still each named (422), never a 500.
    const unknown = await t.api("POST", "/erasures", { identityId: t.identityId, request: { dataGroups: ids.map((id, i) => (i % 2 ? id : `dg_missing_${i}`)) } });
    expectProblem(unknown, 422, "unknown_reference");
    expect(problemOf(unknown).errors).toHaveLength(100);
    // One more than the maximum is a 400.
    expectProblem(await t.api("POST", "/erasures", { identityId: t.identityId, request: { dataGroups: [...ids, "dg_extra"] } }), 400, "validation_failed");
  });

  it("records a permission and an objection naming 100 purposes (the maximum) without a 500", async () => {
    const t = await configuredTenant();
    const purposes: string[] = [];
    for (let i = 0; i < 100; i++) {
      purposes.push(
        ok(
          await t.api("POST", "/configurations/purposes", {
            referenceId: `p-${i}`,
            name: `P ${i}`,
            legalGround: "consent",
            dataGroups: [t.email],
            controllers: [t.controller],
          }),
          201,
        ).purposeId,
      );
    }
    const requested = new Date().toISOString();
    const permission = await t.api("POST", "/permissions", {
      identityId: t.identityId,
      requested,
      request: { purposes: purposes.map((purposeId) => ({ purposeId, status: "approved", dataGroups: [{ dataGroupId: t.email, status: "approved" }] })) },
    });
    expect(permission.status, JSON.stringify(permission.body)).toBe(201);
    const objection = await t.api("POST", "/objections", { identityId: t.identityId, requested, request: { purposes: purposes.map((purposeId) => ({ purposeId })) } });
    expect(objection.status, JSON.stringify(objection.body)).toBe(201);
    expect(ok(await t.api("GET", `/identities/${t.identityId}/permission-state`)).purposes).toHaveLength(100);
  });
});
