// An existing deployment upgraded to operators as people (issue 34): a database at migration 0029 (projects, a portal
// session the admin token opened, no organizations) takes the migrations from 0030 on. Its session still works, and
// the old ADMIN_TOKEN's first sign-in naming an address makes the first owner, whose organization holds the projects;
// after that the token signs in as break-glass and makes no one.
import { applyD1Migrations, reset } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "../../worker/lib/crypto";
import { adminToken, call, origin } from "./helpers";

const legacySession = "legacy-session-id-0123456789abcdef";
const cookie = `__Host-assent_portal=${legacySession}`;
const stamp = new Date().toISOString();

beforeAll(async () => {
  await reset();
  const upTo0029 = env.TEST_MIGRATIONS.filter((migration) => migration.name < "0030");
  expect(upTo0029.length).toBeLessThan(env.TEST_MIGRATIONS.length);
  await applyD1Migrations(env.DB, upTo0029);
  await applyD1Migrations(env.DB_SHARD_1, env.TEST_MIGRATIONS);
  // What such a deployment holds: its projects, and a portal session the admin token opened (no member then).
  await env.DB.batch([
    env.DB.prepare("INSERT INTO projects (id, name, policies, default_language, created, updated) VALUES ('prj_before_a', 'Shop', '{}', 'en', ?1, ?1)").bind(stamp),
    env.DB.prepare("INSERT INTO projects (id, name, policies, default_language, created, updated) VALUES ('prj_before_b', 'Blog', '{}', 'en', ?1, ?1)").bind(stamp),
    env.DB.prepare("INSERT INTO portal_sessions (id_hash, csrf_token, admin_fingerprint, created, expires) VALUES (?, 'csrf', ?, ?, ?)").bind(
      await sha256Hex(legacySession),
      await sha256Hex(adminToken),
      stamp,
      new Date(Date.now() + 3600_000).toISOString(),
    ),
  ]);
  await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
});

describe("a database from before organizations, migrated", () => {
  it("keeps the admin token's open session, which sees every project", async () => {
    expect((await call("GET", "/portal/api/session", { headers: { cookie } })).status).toBe(200);
    const listed = await call("GET", "/admin/v1/projects", { headers: { cookie } });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect((listed.body as { items: { projectId: string }[] }).items.map((p) => p.projectId).sort()).toEqual(["prj_before_a", "prj_before_b"]);
  });

  it("the old token's first sign-in with an address makes the first owner, with the projects; later ones make no one", async () => {
    const signIn = (email: string, ip: string) =>
      call("POST", "/portal/api/session", { body: { adminToken, email }, headers: { origin, "cf-connecting-ip": ip } });
    expect((await signIn("first@example.com", "198.51.100.21")).status).toBe(201);
    const members = await env.DB.prepare("SELECT email, role, organization_id AS org FROM members").all<{ email: string; role: string; org: string }>();
    expect(members.results.map(({ email, role }) => [email, role])).toEqual([["first@example.com", "owner"]]);
    const owned = await env.DB.prepare("SELECT project_id AS id FROM organization_projects WHERE organization_id = ? ORDER BY 1").bind(members.results[0].org).all();
    expect(owned.results.map((row) => row.id)).toEqual(["prj_before_a", "prj_before_b"]);

    expect((await signIn("second@example.com", "198.51.100.22")).status).toBe(201);
    expect((await env.DB.prepare("SELECT count(*) AS n FROM members").first<{ n: number }>())!.n).toBe(1);
  });
});
