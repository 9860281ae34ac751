import { describe, expect, it } from "vitest";
import { configuredTenant, permissionBody } from "../api/configuration-fixture";
import { call, expectProblem, newClient, ok, tokenFor } from "../api/helpers";

const siteOrigin = "https://shop.example";
const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

/** A configured tenant with a web client, its (public) project token, and an identity-scoped visitor token. */
async function witnessTenant() {
  const t = await configuredTenant();
  const web = await newClient(t.projectId, "web", [siteOrigin]);
  const webToken = await tokenFor(web.clientId, web.clientSecret);
  const visitor = ok(
    await call("POST", `/browser/v1/projects/${t.projectId}/visitor-tokens`, { body: {}, headers: { origin: siteOrigin } }),
    201,
  );
  const as = (token: string) => <M extends string, P extends string>(method: M, path: P, body?: unknown) =>
    call(method, `/privacy/v2/projects/${t.projectId}${path}`, { body, token });
  return { ...t, web, asWeb: as(webToken), asVisitor: as(visitor.access_token), visitorId: visitor.identityId as string };
}

describe("records the server witnesses", () => {
  it("refuses a backdated `requested` from identity-scoped and public-client tokens", async () => {
    const t = await witnessTenant();
    const old = { ...permissionBody(t, "approved", "2001-01-01T00:00:00Z"), identityId: t.visitorId };
    expectProblem(await t.asVisitor("POST", "/permissions", old), 400, "validation_failed");
    // A public client's own token may not record at all (scopes); it acts through identity-scoped tokens.
    expectProblem(await t.asWeb("POST", "/permissions", old), 403, "insufficient_scope");
    expectProblem(await t.asVisitor("POST", "/permissions", { ...old, requested: ago(11) }), 400, "validation_failed");
    // Within the window it is accepted, and the server's own time stands next to it.
    const fresh = ok(await t.asVisitor("POST", "/permissions", { ...old, requested: ago(2) }), 201);
    expect(Math.abs(Date.parse(fresh.created) - Date.now())).toBeLessThan(60_000);
    expect(fresh.meta.imported).toBeUndefined();
  });

  it("lets a backend import older history, flagged as imported in the record", async () => {
    const t = await witnessTenant();
    const imported = ok(await t.api("POST", "/permissions", permissionBody(t, "approved", "2001-01-01T00:00:00Z")), 201);
    expect(imported.requested).toBe("2001-01-01T00:00:00Z");
    expect(imported.meta.imported).toBe(true);
    const live = ok(await t.api("POST", "/permissions", permissionBody(t, "approved", ago(1))), 201);
    expect(live.meta.imported).toBeUndefined();
  });

  it("records the authenticated client as requestedBy, keeping the body's value under its own name", async () => {
    const t = await witnessTenant();
    const body = { ...permissionBody(t, "approved", ago(1)), identityId: t.visitorId, meta: { requestedBy: "support-desk" } };
    const byVisitor = ok(await t.asVisitor("POST", "/permissions", body), 201);
    expect(byVisitor.meta).toMatchObject({ requestedBy: t.web.clientId, requestedByClaim: "support-desk" });
    const byBackend = ok(await t.api("POST", "/permissions", { ...body, identityId: t.identityId }), 201);
    expect(byBackend.meta).toMatchObject({ requestedBy: t.clientId, requestedByClaim: "support-desk" });
  });

  it("starts objections from identity-scoped tokens as received, whatever status they send", async () => {
    const t = await witnessTenant();
    const objection = {
      identityId: t.visitorId,
      requested: ago(1),
      request: { purposes: [{ purposeId: t.marketing }] },
      status: "completed",
    };
    const stored = ok(await t.asVisitor("POST", "/objections", objection), 201);
    expect(stored.status).toBe("received");
    const state = ok(await t.asVisitor("GET", `/identities/${t.visitorId}/permission-state`));
    expect(state.purposes).toEqual([]);
    // Nor does a visitor choose a permission's status.
    const permission = ok(
      await t.asVisitor("POST", "/permissions", { ...permissionBody(t, "approved", ago(1)), identityId: t.visitorId, permissionStatus: "received" }),
      201,
    );
    expect(permission.permissionStatus).toBe("completed");
    // A backend still chooses.
    expect(ok(await t.api("POST", "/objections", { ...objection, identityId: t.identityId }), 201).status).toBe("completed");
  });

  it("lets only backend clients move statuses", async () => {
    const t = await witnessTenant();
    const objection = ok(
      await t.api("POST", "/objections", { identityId: t.identityId, requested: ago(1), request: { purposes: [{ purposeId: t.marketing }] } }),
      201,
    );
    expectProblem(await t.asWeb("PUT", `/objections/${objection.requestId}`, { status: "completed" }), 403, "insufficient_scope");
    expectProblem(await t.asWeb("DELETE", `/objections/${objection.requestId}`), 403, "insufficient_scope");
    expect(ok(await t.api("GET", `/objections/${objection.requestId}`)).status).toBe("received");
    expect(ok(await t.api("PUT", `/objections/${objection.requestId}`, { status: "completed" })).status).toBe("completed");
  });
});
