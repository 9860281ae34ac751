import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { admin, call, expectProblem, newClient, newTenant, subscribed } from "./helpers";

describe("admin: projects", () => {
  it("creates, lists, reads, replaces and deletes projects", async () => {
    const created = await admin("POST", "/projects", {
      name: "Shop",
      controller: { name: "Shop AB", email: "privacy@shop.example" },
      policies: { privacy: "https://shop.example/privacy" },
      jurisdiction: "SE",
      defaultLanguage: "sv",
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "Shop", jurisdiction: "SE", defaultLanguage: "sv" });
    const { projectId } = created.body;
    expect((await admin("GET", "/projects")).body.items).toContainEqual(created.body);
    expect((await admin("GET", `/projects/${projectId}`)).body).toEqual(created.body);
    const replaced = await admin("PUT", `/projects/${projectId}`, { name: "Shop 2" });
    expect(replaced.body).toMatchObject({ name: "Shop 2", controller: null, policies: {}, defaultLanguage: "en" });
    expect((await admin("DELETE", `/projects/${projectId}`)).status).toBe(204);
    expectProblem(await admin("GET", `/projects/${projectId}`), 404, "not_found");
  });

  it("validates project input", async () => {
    for (const body of [{}, { name: "" }, { name: "x", controller: {} }, { name: "x", policies: { privacy: "nope" } }, { name: "x", defaultLanguage: "english" }, { name: "x", owner: "me" }]) {
      expectProblem(await admin("POST", "/projects", body), 400, "validation_failed");
    }
  });

  it("requires the admin token", async () => {
    expectProblem(await call("GET", "/admin/v1/projects"), 401, "unauthorized");
    expectProblem(await call("GET", "/admin/v1/projects", { token: "test-admin-token-wrong" }), 401, "unauthorized");
  });

  it("deleting a project removes everything in it and kills its tokens", async () => {
    const tenant = await newTenant();
    const { projectId, api, token } = tenant;
    await subscribed(tenant, ["identity.deleted"]); // an event row to delete: the outbox keeps events only for a subscriber
    const { body: identity } = await api("POST", "/identities", { aliases: [{ type: "urn:svc:email", identifier: "a@b.example" }] });
    const { body: gone } = await api("POST", "/identities", {});
    expect((await api("DELETE", `/identities/${gone.identityId}`)).status).toBe(204);
    await api("POST", "/configurations/parties", { referenceId: "p", type: "company", details: { name: "P" } });
    const other = await newTenant();
    await other.api("POST", "/identities", { aliases: [{ type: "urn:svc:email", identifier: "a@b.example" }] });
    const count = async (table: string) =>
      (await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE project_id = ?`).bind(projectId).first<{ n: number }>())!.n;
    expect(await count("events")).toBe(1);

    expect((await admin("DELETE", `/projects/${projectId}`)).status).toBe(204);
    for (const table of ["clients", "identities", "aliases", "parties", "events"]) expect(await count(table)).toBe(0);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM aliases WHERE identity_id = ?").bind(identity.identityId).first("n")).toBe(0);
    expectProblem(await call("GET", `/privacy/v2/projects/${projectId}`, { token }), 401, "unauthorized");
    // The other project is untouched.
    expect((await other.api("GET", "/identities/aliases/urn%3Asvc%3Aemail%3Aa%40b.example")).status).toBe(200);
  });
});

describe("admin: clients", () => {
  it("lists clients without secrets, updates origins, refuses unknown types", async () => {
    const { projectId } = await newTenant();
    const web = await newClient(projectId, "web", ["https://shop.example"]);
    const list = await admin("GET", `/projects/${projectId}/clients`);
    expect(list.body.items).toHaveLength(2);
    expect(JSON.stringify(list.body)).not.toContain(web.clientSecret);
    expect(JSON.stringify(list.body)).not.toMatch(/secret/i);
    const updated = await admin("PUT", `/projects/${projectId}/clients/${web.clientId}`, { allowedOrigins: ["https://shop.example", "http://localhost:3000"] });
    expect(updated.body.allowedOrigins).toEqual(["https://shop.example", "http://localhost:3000"]);
    expectProblem(await admin("PUT", `/projects/${projectId}/clients/${web.clientId}`, { allowedOrigins: ["https://shop.example/path"] }), 400, "validation_failed");
    expectProblem(await admin("POST", `/projects/${projectId}/clients`, { name: "tv", type: "smart-tv" }), 400, "validation_failed");
    expectProblem(await admin("POST", `/projects/prj_missing/clients`, { name: "x", type: "web" }), 404, "not_found");
    expectProblem(await admin("POST", `/projects/${projectId}/clients/cli_missing/secret`), 404, "not_found");
  });

  it("a client of one project cannot be managed through another", async () => {
    const a = await newTenant();
    const b = await newTenant();
    expectProblem(await admin("DELETE", `/projects/${a.projectId}/clients/${b.clientId}`), 404, "not_found");
    expectProblem(await admin("POST", `/projects/${a.projectId}/clients/${b.clientId}/secret`), 404, "not_found");
    expect((await b.api("GET", "")).status).toBe(200);
  });
});
