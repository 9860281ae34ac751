// Personal API tokens (issue 34): a member's own bearer credential for the existing API, within their role, with an
// expiry, shown once and kept only as a hash; expired, revoked or the member removed: 401 with a stable code.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { call, expectProblem } from "./helpers";
import { auditOf, invited, owner } from "./accounts-helpers";

let boss: Awaited<ReturnType<typeof owner>>;
let projectId: string;

beforeAll(async () => {
  boss = await owner();
  projectId = (await boss.call("POST", "/admin/v1/projects", { name: "Shop", controller: { name: "Shop AB" } })).body.projectId;
});

const bearer = (token: string) => ({
  get: (path: string) => call("GET", path, { token }),
  put: (path: string, body: unknown) => call("PUT", path, { token, body }),
});

describe("personal API tokens", () => {
  it("are shown once, kept hashed, and act on the admin and project APIs within the scopes asked for, audited as api_token", async () => {
    const editor = await invited(boss, "tokens-editor@example.com", "editor");
    const made = await editor.call("POST", "/portal/api/api-tokens", { name: "CI", scopes: ["projects:read", "blocking:write", "config:read"], expiresInDays: 30 });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const { token, id, expires } = made.body;
    expect(token).toMatch(/^apt_/);
    expect(Date.parse(expires) - Date.now()).toBeGreaterThan(29 * 24 * 3600 * 1000);
    const stored = await env.DB.prepare("SELECT * FROM api_tokens WHERE id = ?").bind(id).first<Record<string, string>>();
    expect(JSON.stringify(stored)).not.toContain(token.split(".")[1]);
    const listed = (await editor.call("GET", "/portal/api/api-tokens")).body.items;
    expect(listed).toEqual([expect.objectContaining({ id, name: "CI", scopes: ["projects:read", "blocking:write", "config:read"] })]);
    expect(JSON.stringify(listed)).not.toContain(token);

    const api = bearer(token);
    expect((await api.get(`/admin/v1/projects/${projectId}`)).status).toBe(200);
    expect((await api.put(`/admin/v1/projects/${projectId}/blocking`, { entries: [] })).status).not.toBe(403);
    expect((await api.get(`/privacy/v2/projects/${projectId}/configurations/data-groups`)).status).toBe(200);
    // Held by the editor's role, but not asked for: refused.
    expectProblem(await api.put(`/privacy/v2/projects/${projectId}/configurations/ui-strings/en`, { strings: {} }), 403, "insufficient_scope");
    // Beyond the editor's role altogether.
    expectProblem(await api.get(`/admin/v1/projects/${projectId}/clients`), 403, "insufficient_scope");
    const entries = await auditOf(boss, `?member=${editor.memberId}`);
    const blocking = entries.find((e) => e.operationId === "updateBlockingList");
    expect(blocking).toMatchObject({ memberId: editor.memberId, credential: "api_token", role: "editor" });
  });

  it("asking for more than the member's role is 403 and audited; a token cannot make tokens", async () => {
    const viewer = await invited(boss, "tokens-viewer@example.com", "viewer");
    const refused = await viewer.call("POST", "/portal/api/api-tokens", { name: "mine", scopes: ["projects:read", "clients:manage"], expiresInDays: 7 });
    expectProblem(refused, 403, "insufficient_scope");
    expect(refused.body.detail).toContain("clients:manage");
    const audited = (await auditOf(boss, `?member=${viewer.memberId}`)).filter((e) => e.operationId === "createApiToken");
    expect(audited.map((e) => e.status)).toEqual([403]);
    const made = await viewer.call("POST", "/portal/api/api-tokens", { name: "mine", scopes: ["projects:read"], expiresInDays: 7 });
    expect(made.status).toBe(201);
    const minted = await call("POST", "/portal/api/api-tokens", { token: made.body.token, body: { name: "x", scopes: ["projects:read"], expiresInDays: 1 } });
    expect(minted.status).toBe(401);
  });

  it("refuses bad input with 400 problems", async () => {
    for (const body of [
      { name: "", scopes: ["projects:read"], expiresInDays: 7 },
      { name: "x", scopes: [], expiresInDays: 7 },
      { name: "x", scopes: ["no-such-scope"], expiresInDays: 7 },
      { name: "x", scopes: ["projects:read"], expiresInDays: 0 },
      { name: "x", scopes: ["projects:read"], expiresInDays: 10_000 },
      { name: "x", scopes: ["projects:read"], expiresInDays: 7, extra: 1 },
    ]) {
      expectProblem(await boss.call("POST", "/portal/api/api-tokens", body), 400, "validation_failed");
    }
    expectProblem(await boss.call("DELETE", "/portal/api/api-tokens/apt_missing"), 404, "not_found");
  });

  it("an expired token is 401 token_expired, a revoked one 401 token_revoked, a forged one 401 unauthorized", async () => {
    const made = (await boss.call("POST", "/portal/api/api-tokens", { name: "short", scopes: ["projects:read"], expiresInDays: 1 })).body;
    const other = (await boss.call("POST", "/portal/api/api-tokens", { name: "revoked", scopes: ["projects:read"], expiresInDays: 1 })).body;
    expect((await bearer(made.token).get("/admin/v1/projects")).status).toBe(200);
    await env.DB.prepare("UPDATE api_tokens SET expires = '2000-01-01T00:00:00.000Z' WHERE id = ?").bind(made.id).run();
    expectProblem(await bearer(made.token).get("/admin/v1/projects"), 401, "token_expired");
    expect((await boss.call("DELETE", `/portal/api/api-tokens/${other.id}`)).status).toBe(204);
    expectProblem(await bearer(other.token).get(`/privacy/v2/projects/${projectId}/configurations/data-groups`), 401, "token_revoked");
    expectProblem(await bearer(`${other.id}.forged`).get("/admin/v1/projects"), 401, "unauthorized");
    expectProblem(await bearer(`apt_nothing.${"x".repeat(43)}`).get("/admin/v1/projects"), 401, "unauthorized");
  });

  it("removing the member revokes their tokens at once", async () => {
    const leaver = await invited(boss, "tokens-leaver@example.com", "admin");
    const { token } = (await leaver.call("POST", "/portal/api/api-tokens", { name: "laptop", scopes: ["projects:read"], expiresInDays: 30 })).body;
    expect((await bearer(token).get("/admin/v1/projects")).status).toBe(200);
    expect((await boss.call("DELETE", `/admin/v1/members/${leaver.memberId}`)).status).toBe(204);
    expectProblem(await bearer(token).get("/admin/v1/projects"), 401, "token_revoked");
  });

  it("a member's tokens follow their role: narrowing the role narrows the token", async () => {
    const changing = await invited(boss, "tokens-changing@example.com", "editor");
    const { token } = (await changing.call("POST", "/portal/api/api-tokens", { name: "ci", scopes: ["blocking:write"], expiresInDays: 30 })).body;
    expect((await bearer(token).put(`/admin/v1/projects/${projectId}/blocking`, { entries: [] })).status).not.toBe(403);
    expect((await boss.call("PUT", `/admin/v1/members/${changing.memberId}`, { role: "viewer" })).status).toBe(204);
    expectProblem(await bearer(token).put(`/admin/v1/projects/${projectId}/blocking`, { entries: [] }), 403, "insufficient_scope");
  });
});
