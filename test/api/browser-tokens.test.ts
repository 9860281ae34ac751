import { decodeJwt } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { admin, call, expectProblem, newClient, newTenant } from "./helpers";

const siteOrigin = "https://shop.example";

type Tenant = Awaited<ReturnType<typeof newTenant>>;

/** A project with a backend client, a web client for `siteOrigin`, and one consent purpose with a data group and a processor. */
async function browserTenant() {
  const tenant = await newTenant();
  const web = await newClient(tenant.projectId, "web", [siteOrigin]);
  const party = async (referenceId: string) => {
    const reply = await tenant.api("POST", "/configurations/parties", { referenceId, type: "company", details: { name: referenceId } });
    expect(reply.status).toBe(201);
    return reply.body.partyId as string;
  };
  const controller = await party("shop");
  const processor = await party("mailer");
  const group = await tenant.api("POST", "/configurations/data-groups", { referenceId: "email", name: "E-mail address" });
  expect(group.status).toBe(201);
  const purpose = await tenant.api("POST", "/configurations/purposes", {
    referenceId: "marketing",
    name: "Marketing",
    legalGround: "consent",
    dataGroups: [group.body.dataGroupId],
    processors: [processor],
    controllers: [controller],
  });
  expect(purpose.status).toBe(201);
  return { ...tenant, web, purposeId: purpose.body.purposeId as string, dataGroupId: group.body.dataGroupId as string, processor };
}

const visitorToken = (projectId: string, body: unknown = {}, origin: string | null = siteOrigin) =>
  call("POST", `/browser/v1/projects/${projectId}/visitor-tokens`, { body, headers: origin ? { origin } : {} });

function permission(tenant: Awaited<ReturnType<typeof browserTenant>>, identityId: string) {
  return {
    identityId,
    // Identity-scoped tokens must send a time within 10 minutes of the service's clock (test/security/witness.test.ts).
    requested: new Date().toISOString(),
    meta: { context: { collectionMethod: "web-dialog", application: "shop-web", language: "en" } },
    request: {
      purposes: [
        {
          purposeId: tenant.purposeId,
          referenceId: "marketing",
          version: "1",
          status: "approved",
          dataGroups: [{ dataGroupId: tenant.dataGroupId, referenceId: "email", status: "approved" }],
          processors: [{ partyId: tenant.processor, referenceId: "mailer", status: "denied" }],
          recipients: [],
        },
      ],
    },
  };
}

async function sha256Hex(value: string) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

describe("visitor tokens (minted from the page)", () => {
  let tenant: Awaited<ReturnType<typeof browserTenant>>;
  let first: Awaited<ReturnType<typeof visitorToken>>;
  beforeAll(async () => {
    tenant = await browserTenant();
    first = await visitorToken(tenant.projectId);
  });

  it("creates an identity for a first visit, with a visitor key whose hash is its alias", async () => {
    expect(first.status).toBe(201);
    expect(first.headers.get("cache-control")).toBe("no-store");
    expect(first.body).toMatchObject({ token_type: "Bearer", expires_in: 900 });
    expect(first.body.identityId).toMatch(/^idn_/);
    expect(first.body.visitorKey).toMatch(/^avk_[A-Za-z0-9_-]{43}$/);
    const claims = decodeJwt(first.body.access_token);
    expect(claims).toMatchObject({ sub: tenant.web.clientId, pid: tenant.projectId, ctp: "web", idn: first.body.identityId });
    const identity = await tenant.api("GET", `/identities/${first.body.identityId}`);
    expect(identity.body.aliases).toEqual([{ type: "urn:svc:assent-visitor", identifier: await sha256Hex(first.body.visitorKey) }]);
  });

  it("gives a returning visitor a token for the same identity", async () => {
    const again = await visitorToken(tenant.projectId, { visitorKey: first.body.visitorKey });
    expect(again.status).toBe(200);
    expect(again.body.identityId).toBe(first.body.identityId);
    expect(again.body.visitorKey).toBe(first.body.visitorKey);
    expect(decodeJwt(again.body.access_token).idn).toBe(first.body.identityId);
  });

  it("treats an unknown key as a first visit: new identity, new key", async () => {
    const unknownKey = `avk_${"A".repeat(43)}`;
    const reply = await visitorToken(tenant.projectId, { visitorKey: unknownKey });
    expect(reply.status).toBe(201);
    expect(reply.body.identityId).not.toBe(first.body.identityId);
    expect(reply.body.visitorKey).not.toBe(unknownKey);
  });

  it("never mints for a given identity id: the body has no such field", async () => {
    expectProblem(await visitorToken(tenant.projectId, { identityId: first.body.identityId }), 400, "validation_failed");
    expectProblem(await visitorToken(tenant.projectId, { visitorKey: "guess" }), 400, "validation_failed");
  });

  it("refuses requests without an Origin, from unlisted origins, and origins listed only on a backend client", async () => {
    expectProblem(await visitorToken(tenant.projectId, {}, null), 403, "origin_not_allowed");
    expectProblem(await visitorToken(tenant.projectId, {}, "null"), 403, "origin_not_allowed");
    expectProblem(await visitorToken(tenant.projectId, {}, "https://evil.example"), 403, "origin_not_allowed");
    await newClient(tenant.projectId, "backend", ["https://backend-only.example"]);
    expectProblem(await visitorToken(tenant.projectId, {}, "https://backend-only.example"), 403, "origin_not_allowed");
  });

  it("does not let one project's web origin mint for another project", async () => {
    const other = await newTenant();
    expectProblem(await visitorToken(other.projectId), 403, "origin_not_allowed");
    expectProblem(await visitorToken("prj_missing"), 403, "origin_not_allowed");
  });

  it("stops working when the web client's secret is regenerated", async () => {
    const { projectId, web } = tenant;
    const minted = await visitorToken(projectId);
    const read = () => call("GET", "/privacy/v1/configurations", { token: minted.body.access_token });
    expect((await read()).status).toBe(200);
    expect((await admin("POST", `/projects/${projectId}/clients/${web.clientId}/secret`)).status).toBe(200);
    expectProblem(await read(), 401, "unauthorized");
  });
});

describe("identity-scoped tokens minted by a backend", () => {
  let tenant: Tenant;
  let identityId: string;
  beforeAll(async () => {
    tenant = await newTenant();
    const created = await tenant.api("POST", "/identities", { referenceId: "customer-1" });
    identityId = created.body.identityId;
  });

  it("mints a short-lived token for a known identity", async () => {
    const reply = await tenant.api("POST", `/identities/${identityId}/tokens`);
    expect(reply.status).toBe(200);
    expect(reply.headers.get("cache-control")).toBe("no-store");
    expect(reply.body).toMatchObject({ token_type: "Bearer", identityId });
    expect(reply.body.expires_in).toBeLessThanOrEqual(900);
    expect(decodeJwt(reply.body.access_token)).toMatchObject({ sub: tenant.clientId, idn: identityId, pid: tenant.projectId });
    const state = await call("GET", `/privacy/v2/projects/${tenant.projectId}/identities/${identityId}/permission-state`, {
      token: reply.body.access_token,
    });
    expect(state.status).toBe(200);
    expect(state.body.identityId).toBe(identityId);
  });

  it("answers 404 for an identity the project does not have", async () => {
    expectProblem(await tenant.api("POST", "/identities/idn_missing/tokens"), 404, "not_found");
    const other = await newTenant();
    const foreign = await other.api("POST", "/identities", {});
    expectProblem(await tenant.api("POST", `/identities/${foreign.body.identityId}/tokens`), 404, "not_found");
  });

  it("is for backend clients only", async () => {
    const web = await newClient(tenant.projectId, "web", [siteOrigin]);
    const form = new URLSearchParams({ grant_type: "client_credentials", client_id: web.clientId, client_secret: web.clientSecret });
    const token = (
      await call("POST", "/oauth/token", { headers: { "content-type": "application/x-www-form-urlencoded" }, rawBody: form.toString() })
    ).body.access_token;
    const reply = await call("POST", `/privacy/v2/projects/${tenant.projectId}/identities/${identityId}/tokens`, { token });
    // Minting needs tokens:mint, which public clients never hold.
    expectProblem(reply, 403, "insufficient_scope");
  });
});

describe("the scope of an identity-scoped token", () => {
  let tenant: Awaited<ReturnType<typeof browserTenant>>;
  let visitor: { token: string; identityId: string };
  let otherIdentity: string;
  const as = <M extends string, P extends string>(method: M, path: P, body?: unknown) => call(method, path, { token: visitor.token, body });
  const under = <P extends string>(path: P) => `/privacy/v2/projects/${tenant.projectId}${path}` as const;

  beforeAll(async () => {
    tenant = await browserTenant();
    const minted = await visitorToken(tenant.projectId);
    visitor = { token: minted.body.access_token, identityId: minted.body.identityId };
    otherIdentity = (await tenant.api("POST", "/identities", {})).body.identityId;
  });

  it("reads the configuration, its own identity and its own permission state", async () => {
    const config = await as("GET", "/privacy/v1/configurations");
    expect(config.status).toBe(200);
    expect(config.body.purposes.map((p: { referenceId: string }) => p.referenceId)).toEqual(["marketing"]);
    expect((await as("GET", under(`/identities/${visitor.identityId}`))).status).toBe(200);
    expect((await as("GET", under(`/identities/${visitor.identityId}/permission-state`))).status).toBe(200);
  });

  it("records a permission for its own identity, with the web client as requestedBy", async () => {
    const reply = await as("POST", under("/permissions"), permission(tenant, visitor.identityId));
    expect(reply.status).toBe(201);
    expect(reply.body.meta).toEqual({
      requestedBy: tenant.web.clientId,
      context: { collectionMethod: "web-dialog", application: "shop-web", language: "en" },
    });
    const state = await as("GET", under(`/identities/${visitor.identityId}/permission-state`));
    expect(state.body.purposes).toMatchObject([
      { purposeId: tenant.purposeId, version: "1", status: "approved", processors: [{ partyId: tenant.processor, status: "denied" }] },
    ]);
  });

  it("records an objection for its own identity", async () => {
    const reply = await as("POST", under("/objections"), {
      identityId: visitor.identityId,
      requested: new Date().toISOString(),
      request: { purposes: [{ purposeId: tenant.purposeId }] },
    });
    expect(reply.status).toBe(201);
  });

  it("may not touch another identity", async () => {
    expectProblem(await as("GET", under(`/identities/${otherIdentity}`)), 403, "insufficient_scope");
    expectProblem(await as("GET", under(`/identities/${otherIdentity}/permission-state`)), 403, "insufficient_scope");
    expectProblem(await as("POST", under("/permissions"), permission(tenant, otherIdentity)), 403, "insufficient_scope");
    const reply = await as("POST", under("/objections"), {
      identityId: otherIdentity,
      requested: "2026-11-22T10:15:30.123+01:00",
      request: { purposes: [{ purposeId: tenant.purposeId }] },
    });
    expectProblem(reply, 403, "insufficient_scope");
    expect(reply.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
  });

  it("may do nothing else", async () => {
    const refused: [string, string, unknown?][] = [
      ["GET", under("")],
      ["GET", under("/permissions")],
      ["GET", under(`/permissions?identityId=${visitor.identityId}`)],
      ["POST", under("/identities"), {}],
      ["PUT", under(`/identities/${visitor.identityId}`), {}],
      ["DELETE", under(`/identities/${visitor.identityId}`)],
      ["GET", under(`/identities/${visitor.identityId}/data`)],
      ["POST", under(`/identities/${visitor.identityId}/tokens`)],
      ["GET", under("/identities/aliases/urn:svc:assent-visitor%3Aabc")],
      ["POST", under("/erasures"), { identityId: visitor.identityId }],
      ["POST", under("/accesses"), { identityId: visitor.identityId }],
      ["GET", under("/configurations/purposes")],
      ["POST", under("/configurations/data-groups"), { referenceId: "x", name: "x" }],
      ["GET", "/v1/customerLookup/servicehub/123"],
    ];
    for (const [method, path, body] of refused) {
      const reply = await as(method, path, body);
      expect({ method, path, status: reply.status, code: (reply.body as { code?: string } | null)?.code }).toEqual({ method, path, status: 403, code: "insufficient_scope" });
    }
  });

  it("still sees another project's ids as missing", async () => {
    const other = await newTenant();
    expectProblem(await as("GET", `/privacy/v2/projects/${other.projectId}/identities/${visitor.identityId}`), 404, "not_found");
  });
});

describe("CORS", () => {
  let tenant: Awaited<ReturnType<typeof browserTenant>>;
  let token: string;
  beforeAll(async () => {
    tenant = await browserTenant();
    token = (await visitorToken(tenant.projectId)).body.access_token;
  });

  const preflight = (path: string, origin: string) =>
    call("OPTIONS", path, {
      headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
    });

  it("answers a preflight from a registered origin", async () => {
    for (const path of ["/privacy/v1/configurations", `/privacy/v2/projects/${tenant.projectId}/permissions`, `/browser/v1/projects/${tenant.projectId}/visitor-tokens`]) {
      const reply = await preflight(path, siteOrigin);
      expect(reply.status).toBe(204);
      expect(reply.headers.get("access-control-allow-origin")).toBe(siteOrigin);
      expect(reply.headers.get("access-control-allow-headers")).toContain("authorization");
      expect(reply.headers.get("access-control-allow-credentials")).toBeNull();
    }
  });

  it("refuses a tokenless preflight (minting) from an unregistered origin, or for another project", async () => {
    const mint = (path: string, origin: string) =>
      call("OPTIONS", path, { headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type" } });
    const unknown = await mint(`/browser/v1/projects/${tenant.projectId}/visitor-tokens`, "https://evil.example");
    expectProblem(unknown, 403, "origin_not_allowed");
    expect(unknown.headers.get("access-control-allow-origin")).toBeNull();
    const other = await newTenant();
    const foreign = await mint(`/browser/v1/projects/${other.projectId}/visitor-tokens`, siteOrigin);
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("answers a preflight for a bearer-carrying call from any origin, null included: the token is the credential", async () => {
    for (const origin of ["https://evil.example", "null", "capacitor://localhost"]) {
      const reply = await preflight(`/privacy/v2/projects/${tenant.projectId}/permissions`, origin);
      expect(reply.status).toBe(204);
      expect(reply.headers.get("access-control-allow-origin")).toBe(origin);
      expect(reply.headers.get("access-control-allow-credentials")).toBeNull();
    }
  });

  it("lets any page that holds a token read answers, errors included; tokenless answers only registered origins and refusals", async () => {
    const read = (origin: string, bearer = token) =>
      call("GET", "/privacy/v1/configurations", { token: bearer, headers: { origin } });
    const allowed = await read(siteOrigin);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("access-control-allow-origin")).toBe(siteOrigin);
    expect(allowed.headers.get("vary")).toContain("Origin");
    for (const origin of ["https://elsewhere.example", "null"]) {
      const other = await read(origin);
      expect(other.status).toBe(200);
      expect(other.headers.get("access-control-allow-origin")).toBe(origin);
      expect(other.headers.get("access-control-allow-credentials")).toBeNull();
    }
    // An expired or revoked token must be readable as 401 by the page, so that it can renew.
    const unauthorised = await read("null", "not-a-token");
    expect(unauthorised.status).toBe(401);
    expect(unauthorised.headers.get("access-control-allow-origin")).toBe("null");
    const tokenless = await call("POST", `/browser/v1/projects/${tenant.projectId}/visitor-tokens`, {
      body: {},
      headers: { origin: "https://evil.example" },
    });
    // The refusal itself is readable, so the page's widget can say what to register; it carries nothing else.
    expectProblem(tokenless, 403, "origin_not_allowed");
    expect(tokenless.headers.get("access-control-allow-origin")).toBe("https://evil.example");
  });

  it("does not apply to the admin API", async () => {
    const reply = await call("OPTIONS", "/admin/v1/projects", {
      headers: { origin: siteOrigin, "access-control-request-method": "GET" },
    });
    expect(reply.headers.get("access-control-allow-origin")).toBeNull();
  });
});
