// Another member's sessions and personal API tokens (issue 34): an owner lists them and ends or revokes them from the
// admin API, each write leaving an audit entry that names the member (the path) and what ended (`before`); other
// roles are refused, and another organization's members are not found.
import { beforeAll, describe, expect, it } from "vitest";
import { adminToken, call, expectProblem, origin } from "./helpers";
import { auditOf, invited, mailedLink, owner, signInWith, type Member } from "./accounts-helpers";

let boss: Awaited<ReturnType<typeof owner>>;
let projectId: string;

beforeAll(async () => {
  boss = await owner();
  projectId = (await boss.call("POST", "/admin/v1/projects", { name: "Shop", controller: { name: "Shop AB" } })).body.projectId;
});

/** A second session of `email`, through a fresh sign-in link. */
async function secondSession(email: string): Promise<Member> {
  await call("POST", "/portal/api/sign-in-links", { body: { email }, headers: { origin, "cf-connecting-ip": "198.51.100.40" } });
  return signInWith(await mailedLink(email));
}

const bearerGet = (token: string, path: string) => call("GET", path, { token });

describe("an owner and another member's sessions", () => {
  it("lists them, ends one, then all, each write audited naming the member and what ended", async () => {
    const editor = await invited(boss, "sessions-editor@example.com", "editor");
    const laptop = await secondSession("sessions-editor@example.com");
    const path = `/admin/v1/members/${editor.memberId}/sessions`;
    const listed = await boss.call("GET", path);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    const items = listed.body.items as { id: string; credential: string; address: string | null; current: boolean }[];
    expect(items.length).toBe(2);
    expect(items.every((s) => s.credential === "email-link" && s.current === false)).toBe(true);
    // Which session is the laptop's: the one the editor's own list does not mark current.
    const own = (await editor.call("GET", "/portal/api/sessions")).body.items as { id: string; current: boolean }[];
    const laptopId = own.find((s) => !s.current)!.id;

    expect((await boss.call("DELETE", `${path}/${laptopId}`)).status).toBe(204);
    expectProblem(await laptop.call("GET", "/portal/api/session"), 401, "unauthorized");
    expect((await editor.call("GET", "/portal/api/session")).status).toBe(200);
    expectProblem(await boss.call("DELETE", `${path}/${laptopId}`), 404, "not_found");

    expect((await boss.call("DELETE", path)).status).toBe(204);
    expectProblem(await editor.call("GET", "/portal/api/session"), 401, "unauthorized");
    expect((await boss.call("GET", path)).body.items).toEqual([]);

    const entries = await auditOf(boss, `?object=${path}`);
    expect(entries.map((e) => [e.operationId, e.status, e.memberId])).toEqual([
      ["endMemberSessions", 204, boss.memberId],
      ["endMemberSession", 404, boss.memberId],
      ["endMemberSession", 204, boss.memberId],
    ]);
    expect(entries[2].object).toBe(`${path}/${laptopId}`);
    expect(entries[2].before).toMatchObject({ id: laptopId, credential: "email-link" });
    expect(entries[0].before).toEqual({ items: [expect.objectContaining({ credential: "email-link" })] });
  });
});

describe("an owner and another member's personal API tokens", () => {
  it("lists them without the secret and revokes one, audited naming the member and the token", async () => {
    const admin = await invited(boss, "tokens-admin@example.com", "admin");
    const kept = (await admin.call("POST", "/portal/api/api-tokens", { name: "ci", scopes: ["projects:read"], expiresInDays: 30 })).body;
    const lost = (await admin.call("POST", "/portal/api/api-tokens", { name: "lost laptop", scopes: ["projects:read"], expiresInDays: 30 })).body;
    const path = `/admin/v1/members/${admin.memberId}/api-tokens`;
    const listed = await boss.call("GET", path);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect((listed.body.items as { name: string }[]).map((t) => t.name).sort()).toEqual(["ci", "lost laptop"]);
    expect(JSON.stringify(listed.body)).not.toContain(lost.token.split(".")[1]);

    expect((await boss.call("DELETE", `${path}/${lost.id}`)).status).toBe(204);
    expectProblem(await bearerGet(lost.token, "/admin/v1/projects"), 401, "token_revoked");
    expect((await bearerGet(kept.token, "/admin/v1/projects")).status).toBe(200);
    expect((await boss.call("GET", path)).body.items).toEqual([expect.objectContaining({ id: kept.id })]);
    // Revoked already, and another member's token named under this member: not found.
    expectProblem(await boss.call("DELETE", `${path}/${lost.id}`), 404, "not_found");
    const bossToken = (await boss.call("POST", "/portal/api/api-tokens", { name: "mine", scopes: ["projects:read"], expiresInDays: 1 })).body;
    expectProblem(await boss.call("DELETE", `${path}/${bossToken.id}`), 404, "not_found");
    expect((await bearerGet(bossToken.token, "/admin/v1/projects")).status).toBe(200);

    const [entry] = (await auditOf(boss, `?object=${path}/${lost.id}`)).filter((e) => e.status === 204);
    expect(entry).toMatchObject({ operationId: "revokeMemberApiToken", memberId: boss.memberId, method: "DELETE" });
    expect(entry.before).toMatchObject({ id: lost.id, name: "lost laptop", scopes: ["projects:read"] });
    expect(JSON.stringify(entry)).not.toContain(lost.token.split(".")[1]);
  });
});

describe("who may", () => {
  it("only owners (members:manage); an admin's attempt is refused and audited", async () => {
    const admin = await invited(boss, "nosy-admin@example.com", "admin");
    for (const [method, path] of [
      ["GET", `/admin/v1/members/${boss.memberId}/sessions`],
      ["GET", `/admin/v1/members/${boss.memberId}/api-tokens`],
      ["DELETE", `/admin/v1/members/${boss.memberId}/sessions`],
      ["DELETE", `/admin/v1/members/${boss.memberId}/api-tokens/apt_x`],
    ] as const) {
      expectProblem(await admin.call(method, path), 403, "insufficient_scope");
    }
    const refused = (await auditOf(boss, `?member=${admin.memberId}`)).filter((e) => e.status === 403).map((e) => e.operationId);
    expect(refused.sort()).toEqual(["endMemberSessions", "listMemberApiTokens", "listMemberSessions", "revokeMemberApiToken"]);
    expect((await boss.call("GET", `/admin/v1/projects/${projectId}`)).status).toBe(200);
  });

  it("another organization's owner finds none of this organization's members (404)", async () => {
    const made = await call("POST", "/admin/v1/organizations", { token: adminToken, body: { name: "Other", ownerEmail: "owner@other.example" } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const stranger = await signInWith(await mailedLink("owner@other.example"));
    expectProblem(await stranger.call("GET", `/admin/v1/members/${boss.memberId}/sessions`), 404, "not_found");
    expectProblem(await stranger.call("GET", `/admin/v1/members/${boss.memberId}/api-tokens`), 404, "not_found");
    expectProblem(await stranger.call("DELETE", `/admin/v1/members/${boss.memberId}/sessions`), 404, "not_found");
    expect((await boss.call("GET", "/portal/api/session")).status).toBe(200);
  });
});
