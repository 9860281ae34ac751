// Operators as people (issue 34): roles as data through the one access check, sign-in by one-time link, sessions
// per member, and the audit trail of who did what.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { adminToken, call, expectProblem, origin } from "./helpers";
import { auditOf, invited, mailedLink, owner, signInWith, type Member } from "./accounts-helpers";

let boss: Awaited<ReturnType<typeof owner>>;
let projectId: string;

beforeAll(async () => {
  boss = await owner();
  projectId = (await boss.call("POST", "/admin/v1/projects", { name: "Shop", controller: { name: "Shop AB" } })).body.projectId;
});

describe("roles as data, through the one access check", () => {
  it("an editor edits the blocking list but reads no clients and invites nobody; each refusal is audited", async () => {
    const editor = await invited(boss, "editor@example.com", "editor");
    const put = await editor.call("PUT", `/admin/v1/projects/${projectId}/blocking`, { entries: [] });
    expect(put.status, JSON.stringify(put.body)).not.toBe(403);
    expectProblem(await editor.call("GET", `/admin/v1/projects/${projectId}/clients`), 403, "insufficient_scope");
    expectProblem(await editor.call("POST", "/admin/v1/members", { email: "new-owner@example.com", role: "owner" }), 403, "insufficient_scope");
    const refused = (await auditOf(boss, `?member=${editor.memberId}`)).filter((entry) => entry.status === 403);
    expect(refused.map((entry) => entry.operationId).sort()).toEqual(["inviteMember", "listClients"]);
    expect(refused.every((entry) => entry.role === "editor" && entry.credential === "email-link")).toBe(true);
  });

  it("a request handler reads identities but not clients", async () => {
    const handler = await invited(boss, "dpo@example.com", "request_handler");
    expectProblem(await handler.call("GET", `/admin/v1/projects/${projectId}/clients`), 403, "insufficient_scope");
    const identity = await handler.call("POST", `/privacy/v2/projects/${projectId}/identities`, {});
    expect(identity.status, JSON.stringify(identity.body)).toBe(201);
    const read = await handler.call("GET", `/privacy/v2/projects/${projectId}/identities/${identity.body.identityId}`);
    expect(read.status).toBe(200);
  });

  it("only owners manage members, and a project role replaces the organization role there", async () => {
    const admin = await invited(boss, "admin@example.com", "admin");
    expectProblem(await admin.call("POST", "/admin/v1/members", { email: "x@example.com", role: "owner" }), 403, "insufficient_scope");
    const viewer = await invited(boss, "viewer@example.com", "viewer", [{ projectId, role: "editor" }]);
    const other = (await boss.call("POST", "/admin/v1/projects", { name: "Blog", controller: { name: "Blog AB" } })).body.projectId;
    expect((await viewer.call("PUT", `/admin/v1/projects/${projectId}/blocking`, { entries: [] })).status).not.toBe(403);
    expectProblem(await viewer.call("PUT", `/admin/v1/projects/${other}/blocking`, { entries: [] }), 403, "insufficient_scope");
  });

  it("a viewer reads projects but no personal data (identities, requests, the log)", async () => {
    const viewer = await invited(boss, "viewer2@example.com", "viewer");
    expect((await viewer.call("GET", `/admin/v1/projects/${projectId}`)).status).toBe(200);
    expectProblem(await viewer.call("GET", `/privacy/v2/projects/${projectId}/identities/idn_x`), 403, "insufficient_scope");
    expectProblem(await viewer.call("GET", `/privacy/v2/projects/${projectId}/log/entries`), 403, "insufficient_scope");
  });

  it("a member of another organization finds neither its projects nor its members (404), and that is audited", async () => {
    const made = await call("POST", "/admin/v1/organizations", { token: adminToken, body: { name: "Agency client", ownerEmail: "other@example.org" } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const stranger = await signInWith(await mailedLink("other@example.org"));
    expectProblem(await stranger.call("GET", `/admin/v1/projects/${projectId}`), 404, "not_found");
    expectProblem(await stranger.call("GET", `/privacy/v2/projects/${projectId}/identities/idn_x`), 404, "not_found");
    expectProblem(await stranger.call("DELETE", `/admin/v1/members/${boss.memberId}`), 404, "not_found");
    expect(((await stranger.call("GET", "/admin/v1/projects")).body as { items: unknown[] }).items).toEqual([]);
    const own = await auditOf(stranger);
    expect(own.filter((entry) => entry.status === 404).length).toBe(3);
    expect(await auditOf(boss, `?member=${made.body.ownerId}`)).toEqual([]);
  });
});

describe("sign-in by one-time link", () => {
  it("answers the same for a member and a stranger, mails only the member, and a link signs in once", async () => {
    const ip = { origin, "cf-connecting-ip": "198.51.100.9" };
    const known = await call("POST", "/portal/api/sign-in-links", { body: { email: "OWNER@example.com" }, headers: ip });
    const unknown = await call("POST", "/portal/api/sign-in-links", { body: { email: "nobody@example.com" }, headers: ip });
    expect([known.status, unknown.status]).toEqual([202, 202]);
    expect([known.body, unknown.body]).toEqual([null, null]);
    const link = await mailedLink("owner@example.com");
    await signInWith(link);
    expectProblem(await call("POST", "/portal/api/session", { body: { link }, headers: ip }), 401, "unauthorized");
    const strangers = await env.DB.prepare("SELECT count(*) AS n FROM email_outbox WHERE \"to\" = 'nobody@example.com'").first<{ n: number }>();
    expect(strangers!.n).toBe(0);
  });

  it("refuses an expired link", async () => {
    await call("POST", "/portal/api/sign-in-links", { body: { email: "owner@example.com" }, headers: { origin, "cf-connecting-ip": "198.51.100.10" } });
    const link = await mailedLink("owner@example.com");
    await env.DB.prepare("UPDATE sign_in_links SET expires = '2000-01-01T00:00:00.000Z' WHERE used IS NULL").run();
    expectProblem(await call("POST", "/portal/api/session", { body: { link }, headers: { origin, "cf-connecting-ip": "198.51.100.11" } }), 401, "unauthorized");
  });
});

describe("sessions per member", () => {
  it("lists the member's sessions, ends one, and removing a member ends theirs at once", async () => {
    const member = await invited(boss, "leaver@example.com", "editor");
    await call("POST", "/portal/api/sign-in-links", { body: { email: "leaver@example.com" }, headers: { origin, "cf-connecting-ip": "198.51.100.12" } });
    const second: Member = await signInWith(await mailedLink("leaver@example.com"));
    const listed = (await member.call("GET", "/portal/api/sessions")).body.items as { id: string; current: boolean }[];
    expect(listed.length).toBe(2);
    const other = listed.find((s) => !s.current)!;
    expect((await member.call("DELETE", `/portal/api/sessions/${other.id}`)).status).toBe(204);
    expectProblem(await second.call("GET", "/portal/api/session"), 401, "unauthorized");
    expect((await boss.call("DELETE", `/admin/v1/members/${member.memberId}`)).status).toBe(204);
    expectProblem(await member.call("GET", `/admin/v1/projects/${projectId}`), 401, "unauthorized");
  });

  it("keeps one owner", async () => {
    expectProblem(await boss.call("DELETE", `/admin/v1/members/${boss.memberId}`), 409, "last_owner");
    expectProblem(await boss.call("PUT", `/admin/v1/members/${boss.memberId}`, { role: "admin" }), 409, "last_owner");
  });
});

/** A whole Consent Mode settings body, as PUT takes it. */
const consentMode = (enabled: boolean) => ({ enabled, waitForUpdate: 500, urlPassthrough: false, adsDataRedaction: true });

describe("the audit trail", () => {
  it("records a write with who, what, which object, the configuration set, when and from where", async () => {
    const before = new Date().toISOString();
    const reply = await boss.call("PUT", `/admin/v1/projects/${projectId}/consent-mode`, consentMode(false));
    const [entry] = await auditOf(boss, `?object=/admin/v1/projects/${projectId}/consent-mode`);
    expect(entry).toMatchObject({
      memberId: boss.memberId,
      role: "owner",
      credential: "email-link",
      operationId: "updateConsentModeSettings",
      method: "PUT",
      object: `/admin/v1/projects/${projectId}/consent-mode`,
      projectId,
      status: reply.status,
      address: "192.0.2.7",
    });
    expect(entry.at >= before).toBe(true);
    expect(reply.status).toBe(200);
    expect(entry.after).toEqual(consentMode(false));
  });

  it("keeps a configuration change's state before it, as a read of the object answered just then", async () => {
    const path = `/admin/v1/projects/${projectId}/consent-mode`;
    expect((await boss.call("PUT", path, consentMode(true))).status).toBe(200);
    const shown = (await boss.call("GET", path)).body;
    expect(shown).toMatchObject({ enabled: true });
    expect((await boss.call("PUT", path, consentMode(false))).status).toBe(200);
    const [latest] = await auditOf(boss, `?object=${path}`);
    expect(latest).toMatchObject({ method: "PUT", before: shown, after: consentMode(false) });
    // The read that took `before` is not an entry of its own.
    expect((await auditOf(boss, `?object=${path}`)).filter((entry) => entry.method === "GET")).toEqual([]);
  });

  it("records personal-data reads (an identity looked up, an export)", async () => {
    const identity = (await boss.call("POST", `/privacy/v2/projects/${projectId}/identities`, {})).body.identityId as string;
    await boss.call("GET", `/privacy/v2/projects/${projectId}/identities/${identity}`);
    await boss.call("GET", `/privacy/v2/projects/${projectId}/identities/${identity}/data`);
    const reads = (await auditOf(boss, `?object=/privacy/v2/projects/${projectId}/identities/${identity}`)).map((e) => e.operationId);
    expect(reads).toEqual(["exportIdentityData", "getIdentity"].filter((id) => reads.includes(id)));
    expect(reads.length).toBe(2);
  });

  it("chains each entry to the one before, filters by member and time, and downloads as CSV and JSON lines", async () => {
    const entries = await auditOf(boss, "?limit=1000");
    for (let i = 0; i < entries.length - 1; i++) expect(entries[i].previous).toBe(entries[i + 1].entryHash);
    const mine = await auditOf(boss, `?member=${boss.memberId}`);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((entry) => entry.memberId === boss.memberId)).toBe(true);
    expect(await auditOf(boss, "?from=2999-01-01T00:00:00Z")).toEqual([]);
    const csv = await boss.call("GET", "/admin/v1/audit?format=csv&limit=5");
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
    expect((csv.body as string).split("\r\n")[0]).toBe("seq,at,memberId,role,credential,operationId,method,object,projectId,status,address,entryHash,previous");
    const lines = await boss.call("GET", "/admin/v1/audit?format=jsonl&limit=5");
    const parsed = String(lines.body).trim().split("\n").map((line) => JSON.parse(line));
    expect(parsed.map((entry) => entry.seq)).toEqual(entries.slice(0, parsed.length).map((entry) => entry.seq));
  });
});
