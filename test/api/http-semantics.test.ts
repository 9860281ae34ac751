// RFC 9110 validators and conditional writes on every mutable resource (strong ETag, If-Match → 412, If-None-Match
// → 304), and Location on every 201.
import { describe, expect, it } from "vitest";
import { configuredTenant, permissionBody } from "./configuration-fixture";
import { adminToken, call, expectProblem, newClient, newProject, newTenant, ok, type Reply, tokenFor } from "./helpers";

type Tenant = Awaited<ReturnType<typeof newTenant>>;

/** One mutable resource: how to create it, where it lives, and a valid replacement body (`n` makes each distinct). */
type Resource = {
  create: (t: Tenant) => Promise<Reply>;
  url: (t: Tenant, created: any) => string;
  replacement: (n: number) => unknown;
  token: (t: Tenant) => string;
  /** The privacy API reads and replaces its own project but cannot delete it. */
  deletable?: false;
};

const project = (t: Tenant) => `/privacy/v2/projects/${t.projectId}`;
const viaAdmin = () => adminToken;
const viaProject = (t: Tenant) => t.token;
const purposeFields = { referenceId: "newsletter", legalGround: "consent", dataGroups: [], controllers: [] as string[] };

const resources: Record<string, Resource> = {
  "project (admin)": {
    create: () => call("POST", "/admin/v1/projects", { token: adminToken, body: { name: "Shop" } }),
    url: (_t, created) => `/admin/v1/projects/${created.projectId}`,
    replacement: (n) => ({ name: `Shop ${n}` }),
    token: viaAdmin,
  },
  "project (privacy API)": {
    create: async (t) => call("GET", project(t), { token: t.token }),
    url: (t) => project(t),
    replacement: (n) => ({ name: `Shop ${n}` }),
    token: viaProject,
    deletable: false,
  },
  client: {
    create: (t) => call("POST", `/admin/v1/projects/${t.projectId}/clients`, { token: adminToken, body: { name: "CRM", type: "backend" } }),
    url: (t, created) => `/admin/v1/projects/${t.projectId}/clients/${created.clientId}`,
    replacement: (n) => ({ name: `CRM ${n}` }),
    token: viaAdmin,
  },
  party: {
    create: (t) => t.api("POST", "/configurations/parties", { referenceId: "shop", type: "company", details: { name: "Shop AB" } }),
    url: (t, created) => `${project(t)}/parties/${created.partyId}`,
    replacement: (n) => ({ referenceId: "shop", type: "company", details: { name: `Shop AB ${n}` } }),
    token: viaProject,
  },
  "data group": {
    create: (t) => t.api("POST", "/configurations/data-groups", { referenceId: "email", name: "E-mail" }),
    url: (t, created) => `${project(t)}/configurations/data-groups/${created.dataGroupId}`,
    replacement: (n) => ({ referenceId: "email", name: `E-mail ${n}` }),
    token: viaProject,
  },
  purpose: {
    create: async (t) => {
      const controller = ok(await t.api("POST", "/configurations/parties", { referenceId: "c", type: "company", details: { name: "C" } }), 201);
      purposeFields.controllers = [controller.partyId];
      return t.api("POST", "/configurations/purposes", { ...purposeFields, name: "Newsletter" });
    },
    url: (t, created) => `${project(t)}/configurations/purposes/${created.purposeId}`,
    replacement: (n) => ({ ...purposeFields, name: `Newsletter ${n}`, requireNewConsent: false }),
    token: viaProject,
  },
  identity: {
    create: (t) => t.api("POST", "/identities", { referenceId: "customer-1" }),
    url: (t, created) => `${project(t)}/identities/${created.identityId}`,
    replacement: (n) => ({ referenceId: `customer-${n}` }),
    token: viaProject,
  },
  webhook: {
    create: (t) => t.api("POST", "/webhooks", { url: "https://hooks.customer.example/ok/etags", events: ["identity.deleted"] }),
    url: (t, created) => `${project(t)}/webhooks/${created.webhookId}`,
    replacement: (n) => ({ url: `https://hooks.customer.example/ok/etags-${n}`, events: ["identity.deleted"] }),
    token: viaProject,
  },
};

const strongTag = /^"[^"]+"$/;

describe.each(Object.entries(resources))("%s", (_name, resource) => {
  async function setUp() {
    const t = await newTenant();
    const created = await resource.create(t);
    expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
    const url = resource.url(t, created.body);
    const token = resource.token(t);
    const get = (headers: Record<string, string> = {}) => call("GET", url, { token, headers });
    const put = (n: number, headers: Record<string, string> = {}) => call("PUT", url, { token, headers, body: resource.replacement(n) });
    return { t, created, url, token, get, put };
  }

  it("GET carries a strong ETag, the same on every read, and If-None-Match with it answers 304", async () => {
    const { get, url, token } = await setUp();
    const [first, second] = [await get(), await get()];
    expect(first.status).toBe(200);
    expect(first.headers.get("etag")).toMatch(strongTag);
    expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
    const fresh = await get({ "if-none-match": first.headers.get("etag")! });
    expect(fresh.status).toBe(304);
    expect(fresh.headers.get("etag")).toBe(first.headers.get("etag"));
    expect((await get({ "if-none-match": '"r999"' })).status).toBe(200);
    const head = await call("HEAD", url, { token });
    expect(head.status).toBe(200);
    expect(head.headers.get("etag")).toBe(first.headers.get("etag"));
  });

  it("PUT with a stale If-Match is 412 and changes nothing; with the current one it applies and the ETag moves on", async () => {
    const { get, put } = await setUp();
    const before = await get();
    const etag = before.headers.get("etag")!;
    for (const stale of ['"r999"', `W/${etag}`, '"something-else"']) {
      expectProblem(await put(1, { "if-match": stale }), 412, "precondition_failed");
    }
    const unchanged = await get();
    expect(unchanged.body).toEqual(before.body);
    expect(unchanged.headers.get("etag")).toBe(etag);

    const applied = await put(2, { "if-match": etag });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    const next = applied.headers.get("etag");
    expect(next).toMatch(strongTag);
    expect(next).not.toBe(etag);
    const after = await get();
    expect(after.headers.get("etag")).toBe(next);
    expect(after.body).toEqual(applied.body);

    // The first editor's tag is stale now; a list naming the current tag matches; `*` and no header are unconditional.
    expectProblem(await put(3, { "if-match": etag }), 412, "precondition_failed");
    expect((await put(4, { "if-match": `"r999", ${next}` })).status).toBe(200);
    expect((await put(5, { "if-match": "*" })).status).toBe(200);
    expect((await put(6)).status).toBe(200);
  });

  if (resource.deletable !== false) it("DELETE with a stale If-Match is 412 and deletes nothing; with the current one it deletes", async () => {
    const { url, token, get, put } = await setUp();
    const etag = (await get()).headers.get("etag")!;
    expect((await put(7, { "if-match": etag })).status).toBe(200);
    expectProblem(await call("DELETE", url, { token, headers: { "if-match": etag } }), 412, "precondition_failed");
    expect((await get()).status).toBe(200);
    const current = (await get()).headers.get("etag")!;
    expect((await call("DELETE", url, { token, headers: { "if-match": current } })).status).toBe(204);
    expectProblem(await get(), 404, "not_found");
    // Gone: a precondition cannot turn a 404 into a 412 (RFC 9110 §13.2.1).
    expectProblem(await call("DELETE", url, { token, headers: { "if-match": current } }), 404, "not_found");
  });
});

describe("Location on 201", () => {
  /** The Location of a 201 names the created resource: a GET there returns what the 201 returned. */
  async function resolves(reply: Reply, token: string, same: (body: any) => unknown) {
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    const location = reply.headers.get("location");
    expect(location).toMatch(/^\//);
    const read = await call("GET", location!, { token });
    expect(read.status, location!).toBe(200);
    expect(same(read.body)).toEqual(same(reply.body));
    return read;
  }

  it("names each created resource of the admin and privacy APIs, and the 201 carries the ETag the GET will", async () => {
    const t = await newTenant();
    const projectReply = await call("POST", "/admin/v1/projects", { token: adminToken, body: { name: "Located" } });
    const read = await resolves(projectReply, adminToken, (b) => b.projectId);
    expect(read.headers.get("etag")).toBe(projectReply.headers.get("etag"));
    await resolves(await call("POST", `/admin/v1/projects/${t.projectId}/clients`, { token: adminToken, body: { name: "App", type: "backend" } }), adminToken, (b) => b.clientId);
    const party = await t.api("POST", "/configurations/parties", { referenceId: "p", type: "company", details: { name: "P" } });
    await resolves(party, t.token, (b) => b.partyId);
    await resolves(await t.api("POST", "/configurations/data-groups", { referenceId: "d", name: "D" }), t.token, (b) => b.dataGroupId);
    await resolves(
      await t.api("POST", "/configurations/purposes", { referenceId: "u", name: "U", legalGround: "consent", controllers: [party.body.partyId] }),
      t.token,
      (b) => b.purposeId,
    );
    await resolves(await t.api("POST", "/identities", {}), t.token, (b) => b.identityId);
    await resolves(await t.api("POST", "/webhooks", { url: "https://hooks.customer.example/ok/loc", events: ["identity.deleted"] }), t.token, (b) => b.webhookId);
  });

  it("names a recorded privacy request", async () => {
    const t = await configuredTenant();
    const reply = await t.api("POST", "/permissions", permissionBody(t, "approved", new Date().toISOString()));
    await resolves(reply, t.token, (b) => b.requestId);
  });

  it("names a first-time visitor's identity, and a resource created by PUT is at the URL it was put to", async () => {
    const { projectId } = await newProject();
    const origin = "https://shop.example";
    await newClient(projectId, "web", [origin]);
    const visitor = await call("POST", `/browser/v1/projects/${projectId}/visitor-tokens`, { body: {}, headers: { origin } });
    expect(visitor.status).toBe(201);
    const backend = await newClient(projectId);
    const token = await tokenFor(backend.clientId, backend.clientSecret);
    await resolves(visitor, token, (b) => b.identityId);

    const path = `/admin/v1/sms/blacklist/located-${crypto.randomUUID().slice(0, 8)}`;
    const put = await call("PUT", path, { token: adminToken });
    expect(put.status).toBe(201);
    expect(put.headers.get("location")).toBe(path);
  });
});
