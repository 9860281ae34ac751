import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { admin, call, expectProblem, newClient, newTenant, openApiDocument, problemOf, tokenFor } from "./helpers";
import { identityScopedToken } from "./hub-helpers";

const account = (overrides: Record<string, unknown> = {}) => ({
  tscid: "TSC-1",
  customerCacheId: "CC-1",
  assets: [
    { id: "a-1", display_name: "Mobile 070-123 45 67", asset_code: "MOBILE" },
    { id: "a-2", display_name: "Broadband", asset_code: "BB" },
  ],
  ...overrides,
});

const lookup = (token: string, billingAccount: string, accept: string | null = "application/json") =>
  call("GET", `/v1/customerLookup/servicehub/${billingAccount}`, { token, headers: accept ? { accept } : {} });

describe("GET /v1/customerLookup/servicehub/{billing_account}", () => {
  it("returns the mapped customer cache id as tscid, and the assets", async () => {
    const { token } = await newTenant();
    expect((await admin("PUT", "/billing-accounts/1000001", account())).status).toBe(201);
    const found = await lookup(token, "1000001");
    expect(found.status).toBe(200);
    expect(found.headers.get("content-type")).toMatch(/^application\/json/);
    expect(found.body).toEqual({ tscid: "CC-1", assets: account().assets });
    // The admin API keeps both ids.
    expect((await admin("GET", "/billing-accounts/1000001")).body).toMatchObject({ tscid: "TSC-1", customerCacheId: "CC-1" });

    expect((await admin("PUT", "/billing-accounts/1000002", account({ customerCacheId: undefined, assets: [] }))).status).toBe(201);
    expect((await lookup(token, "1000002")).body).toEqual({ tscid: "TSC-1", assets: [] });
  });

  it("answers 404 for an unknown account and 400 for an id that cannot be one", async () => {
    const { token } = await newTenant();
    expectProblem(await lookup(token, "9999999"), 404, "not_found");
    expectProblem(await lookup(token, "bad%20id"), 400, "validation_failed");
  });

  it("answers 406 when Accept excludes JSON", async () => {
    const { token } = await newTenant();
    await admin("PUT", "/billing-accounts/1000003", account());
    // A range naming JSON itself outranks a wildcard (RFC 9110 §12.5.1): q=0 on it refuses JSON.
    for (const accept of ["text/html", "application/xml, text/*", "text/html, application/json;q=0", "application/json;q=0, application/*"]) {
      expectProblem(await lookup(token, "1000003", accept), 406, "not_acceptable");
    }
    for (const accept of [null, "*/*", "application/*", "text/html;q=0.9, application/json"]) {
      expect((await lookup(token, "1000003", accept)).status).toBe(200);
    }
  });

  it("reads the D1 table itself, so every change is seen at once, and keeps no copy outside it", async () => {
    const { token } = await newTenant();
    await admin("PUT", "/billing-accounts/1000004", account());
    expect((await lookup(token, "1000004")).body.tscid).toBe("CC-1");
    expect((await env.KV.list()).keys.filter((key) => key.name.includes("1000004"))).toEqual([]);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM billing_lookups").first("n")).toBe(0);

    await env.DB.prepare("UPDATE billing_accounts SET customer_cache_id = 'CC-direct' WHERE id = '1000004'").run();
    expect((await lookup(token, "1000004")).body.tscid).toBe("CC-direct");
    await admin("PUT", "/billing-accounts/1000004", account({ customerCacheId: "CC-2" }));
    expect((await lookup(token, "1000004")).body.tscid).toBe("CC-2");
    await admin("DELETE", "/billing-accounts/1000004");
    expectProblem(await lookup(token, "1000004"), 404, "not_found");
    await admin("POST", "/billing-accounts/import", [{ billingAccount: "1000004", ...account({ customerCacheId: "CC-3" }) }]);
    expect((await lookup(token, "1000004")).body.tscid).toBe("CC-3");
  });

  it("is for backend clients only", async () => {
    const { projectId } = await newTenant();
    await admin("PUT", "/billing-accounts/1000005", account());
    const ios = await newClient(projectId, "ios");
    expectProblem(await lookup(await tokenFor(ios.clientId, ios.clientSecret), "1000005"), 403, "insufficient_scope");
    const scoped = await lookup(await identityScopedToken(projectId, "backend"), "1000005");
    expectProblem(scoped, 403, "insufficient_scope");
    expectProblem(await call("GET", "/v1/customerLookup/servicehub/1000005"), 401, "unauthorized");
  });
});

describe("billing-account admin", () => {
  it("creates (201) then replaces (200) an account, validating it strictly", async () => {
    expect((await admin("PUT", "/billing-accounts/2000001", account())).status).toBe(201);
    const replaced = await admin("PUT", "/billing-accounts/2000001", account({ assets: [{ id: "a-9" }] }));
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ billingAccount: "2000001", tscid: "TSC-1", customerCacheId: "CC-1", assets: [{ id: "a-9" }] });
    const duplicateAssets = await admin("PUT", "/billing-accounts/2000001", account({ assets: [{ id: "x" }, { id: "x" }] }));
    expectProblem(duplicateAssets, 400, "validation_failed");
    const unknownField = await admin("PUT", "/billing-accounts/2000001", account({ owner: "me" }));
    expect(problemOf(unknownField).errors![0]).toMatchObject({ path: "owner", code: "unknown_field" });
    expectProblem(await admin("PUT", "/billing-accounts/2000001", { assets: [] }), 400, "validation_failed");
    expectProblem(await admin("DELETE", "/billing-accounts/2000999"), 404, "not_found");
    expectProblem(await admin("GET", "/billing-accounts/2000999"), 404, "not_found");
    expectProblem(await call("PUT", "/admin/v1/billing-accounts/2000001", { body: account() }), 401, "unauthorized");
  });

  it("imports a JSON array, all or nothing", async () => {
    const { token } = await newTenant();
    const items = [
      { billingAccount: "3000001", ...account() },
      { billingAccount: "3000002", ...account({ tscid: "TSC-2", customerCacheId: undefined }) },
    ];
    const reply = await admin("POST", "/billing-accounts/import", items);
    expect(reply).toMatchObject({ status: 200, body: { imported: 2 } });
    expect((await lookup(token, "3000002")).body.tscid).toBe("TSC-2");

    const broken = await admin("POST", "/billing-accounts/import", [
      { billingAccount: "3000003", ...account() },
      { billingAccount: "3000004", ...account({ tscid: "" }) },
    ]);
    expectProblem(broken, 400, "validation_failed");
    expect(problemOf(broken).errors![0].path).toBe("1.tscid");
    expectProblem(await lookup(token, "3000003"), 404, "not_found");

    const duplicates = await admin("POST", "/billing-accounts/import", [items[0], items[0]]);
    expectProblem(duplicates, 400, "validation_failed");
    expectProblem(await admin("POST", "/billing-accounts/import", []), 400, "validation_failed");
    expectProblem(await admin("POST", "/billing-accounts/import", { billingAccount: "3000005" }), 400, "validation_failed");
  });

  it("imports NDJSON, many accounts in one request", async () => {
    const { token } = await newTenant();
    const lines = Array.from({ length: 120 }, (_, i) =>
      JSON.stringify({ billingAccount: `4${String(i).padStart(6, "0")}`, tscid: `TSC-${i}`, assets: [{ id: `asset-${i}` }] }),
    );
    const reply = await call("POST", "/admin/v1/billing-accounts/import", {
      token: "test-admin-token",
      headers: { "content-type": "application/x-ndjson" },
      rawBody: lines.join("\n") + "\n\n",
    });
    expect(reply).toMatchObject({ status: 200, body: { imported: 120 } });
    expect((await lookup(token, "4000119")).body).toEqual({ tscid: "TSC-119", assets: [{ id: "asset-119" }] });

    const malformed = await call("POST", "/admin/v1/billing-accounts/import", {
      token: "test-admin-token",
      headers: { "content-type": "application/x-ndjson" },
      rawBody: `${lines[0]}\n{"billingAccount": \n`,
    });
    expectProblem(malformed, 400, "malformed_json");
    expect(problemOf(malformed).detail).toBe("Line 2 is not valid JSON.");
    const tooMany = Array.from({ length: 501 }, (_, i) => JSON.stringify({ billingAccount: `5${i}`, tscid: "T", assets: [] }));
    const over = await call("POST", "/admin/v1/billing-accounts/import", {
      token: "test-admin-token",
      headers: { "content-type": "application/x-ndjson" },
      rawBody: tooMany.join("\n"),
    });
    expectProblem(over, 400, "validation_failed");
    expectProblem(
      await call("POST", "/admin/v1/billing-accounts/import", { token: "test-admin-token", headers: { "content-type": "text/csv" }, rawBody: "a,b" }),
      415,
      "unsupported_media_type",
    );
  });
});

describe("OpenAPI", () => {
  it("documents every hub route", async () => {
    const { body } = await openApiDocument();
    const routes: [string, string][] = [
      ["/v1/dcp/sms", "post"],
      ["/v1/sms", "post"],
      ["/v1/customerLookup/servicehub/{billing_account}", "get"],
      ["/admin/v1/messages", "get"],
      ["/admin/v1/billing-accounts/{billing_account}", "put"],
      ["/admin/v1/billing-accounts/{billing_account}", "get"],
      ["/admin/v1/billing-accounts/{billing_account}", "delete"],
      ["/admin/v1/billing-accounts/import", "post"],
      ["/admin/v1/sms/clients", "get"],
      ["/admin/v1/sms/clients/{clientId}", "put"],
      ["/admin/v1/sms/clients/{clientId}", "delete"],
      ["/admin/v1/sms/provider-users", "get"],
      ["/admin/v1/sms/provider-users/{username}", "put"],
      ["/admin/v1/sms/provider-users/{username}", "delete"],
      ["/admin/v1/sms/blacklist", "get"],
      ["/admin/v1/sms/blacklist/{sender}", "put"],
      ["/admin/v1/sms/blacklist/{sender}", "delete"],
    ];
    for (const [path, method] of routes) expect(body.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    expect(body.components.schemas).toHaveProperty("BillingAccountImportItem");
    expect(body.paths["/v1/customerLookup/servicehub/{billing_account}"].get.responses).toHaveProperty("406");
  });
});
