import { describe, expect, it } from "vitest";
import { z } from "zod";
import schema from "./iso27560.schema.json";
import { configuredTenant, permissionBody } from "./configuration-fixture";
import { expectProblem, type IdentityExport, type Iso27560Export, ok } from "./helpers";

const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
const records = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);

describe("ISO/IEC TS 27560 export", () => {
  it("validates against a JSON Schema written from the standard's field list, with DPV terms and the request history", async () => {
    const t = await configuredTenant();
    const permission = ok(await t.api("POST", "/permissions", permissionBody(t, "approved", ago(3))), 201);
    const objection = ok(await t.api("POST", "/objections", { identityId: t.identityId, requested: ago(2), request: { purposes: [{ purposeId: t.analytics }] } }), 201);
    ok(await t.api("PUT", `/objections/${objection.requestId}`, { status: "completed" }));
    ok(await t.api("DELETE", `/permissions/${permission.requestId}`));
    ok(await t.api("POST", "/erasures", { identityId: t.identityId }), 201);
    const body = ok(await t.api("GET", `/identities/${t.identityId}/data?format=iso27560`)) as Iso27560Export;
    const parsed = records.safeParse(body);
    expect(parsed.error?.issues ?? []).toEqual([]);
    expect(body.records.map((r: any) => r.recordId)).toEqual([permission.requestId, objection.requestId]);
    // The export declares its records open; the schema just checked them, so the test reads the fields it names.
    const [given, objected] = body.records as { processing: { lawfulBasis: string }[]; events: { eventState: string; time: string }[] }[];
    expect(given.processing[0]).toMatchObject({ lawfulBasis: "dpv:Consent", language: "en", piiControllers: [{ name: "shop", type: "dpv:DataController" }] });
    expect(given.events.map((e: any) => e.eventState)).toEqual(["dpv:ConsentGiven", "dpv:ConsentWithdrawn"]);
    expect(given.events[0].time).toBe(permission.requested);
    expect(objected.processing[0].lawfulBasis).toBe("dpv:LegitimateInterest");
    expect(objected.events.map((e: any) => e.eventState)).toEqual(["dpv:ConsentRequested", "dpv:ConsentRefused"]);
    // The schema is not vacuous: a record without its events or with an unknown state fails it.
    expect(records.safeParse({ ...body, records: [{ ...given, events: [] }] }).success).toBe(false);
    expect(records.safeParse({ ...body, records: [{ ...given, events: [{ ...given.events[0], eventState: "agreed" }] }] }).success).toBe(false);
    // The default format is unchanged; an unknown format or identity is refused.
    expect((ok(await t.api("GET", `/identities/${t.identityId}/data`)) as IdentityExport).identity.identityId).toBe(t.identityId);
    expectProblem(await t.api("GET", `/identities/${t.identityId}/data?format=xml`), 400, "validation_failed");
    expectProblem(await t.api("GET", "/identities/idn_missing/data?format=iso27560"), 404, "not_found");
  });
});
