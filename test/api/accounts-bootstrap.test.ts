// ADMIN_TOKEN as the bootstrap of an existing deployment: projects made before organizations existed move into the
// first one at the token's first sign-in, which makes the first owner; afterwards each use is break-glass.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { app } from "../../worker/app";
import { adminToken, call, origin } from "./helpers";
import { alertsAt, opsWebhook } from "./ops-helpers";
import { mailedLink, signInWith } from "./accounts-helpers";

const signIn = (body: Record<string, string>, ip: string) => call("POST", "/portal/api/session", { body, headers: { origin, "cf-connecting-ip": ip } });

describe("an existing deployment, before any organization", () => {
  it("moves its projects into the first organization at the token's first sign-in, which makes the first owner", async () => {
    // Projects as a deployment before migration 0030 has them: rows of their own, no organization anywhere.
    const stamp = new Date().toISOString();
    for (const id of ["prj_legacy_a", "prj_legacy_b"]) {
      await env.DB.prepare("INSERT INTO projects (id, name, policies, default_language, created, updated) VALUES (?, ?, '{}', 'en', ?, ?)")
        .bind(id, `Legacy ${id}`, stamp, stamp)
        .run();
    }
    expect((await env.DB.prepare("SELECT count(*) AS n FROM organizations").first<{ n: number }>())!.n).toBe(0);

    const first = await signIn({ adminToken, email: "Founder@Example.com" }, "198.51.100.1");
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const owner = await env.DB.prepare("SELECT id, email, role, organization_id AS org FROM members").all<{ id: string; email: string; role: string; org: string }>();
    expect(owner.results).toEqual([expect.objectContaining({ email: "founder@example.com", role: "owner" })]);
    const moved = await env.DB.prepare("SELECT project_id AS id FROM organization_projects WHERE organization_id = ? ORDER BY 1").bind(owner.results[0].org).all();
    expect(moved.results.map((row) => row.id)).toEqual(["prj_legacy_a", "prj_legacy_b"]);
    const session = await env.DB.prepare("SELECT member_id AS member, credential FROM portal_sessions").all();
    expect(session.results).toEqual([{ member: owner.results[0].id, credential: "admin-token" }]);

    // The owner now signs in by link and sees the moved projects as theirs.
    await call("POST", "/portal/api/sign-in-links", { body: { email: "founder@example.com" }, headers: { origin, "cf-connecting-ip": "198.51.100.2" } });
    const founder = await signInWith(await mailedLink("founder@example.com"));
    const listed = (await founder.call("GET", "/admin/v1/projects")).body as { items: { projectId: string }[] };
    expect(listed.items.map((p) => p.projectId)).toEqual(["prj_legacy_a", "prj_legacy_b"]);
  });

  it("after that the token is break-glass: it still signs in, makes no owner, is audited and raises ops.alert", async () => {
    const { key, settings } = opsWebhook();
    const ctx = createExecutionContext();
    const reply = await app.fetch(
      new Request(`${origin}/portal/api/session`, {
        method: "POST",
        headers: { origin, "content-type": "application/json", "cf-connecting-ip": "198.51.100.3" },
        body: JSON.stringify({ adminToken, email: "intruder@example.com" }),
      }),
      { ...env, ...settings },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(reply.status).toBe(201);
    expect((await env.DB.prepare("SELECT count(*) AS n FROM members").first<{ n: number }>())!.n).toBe(1);
    const alerts = await alertsAt(key);
    expect(alerts.map((alert) => [alert.type, alert.data.rule])).toEqual([["ops.alert", "break_glass"]]);
    const entries = await env.DB.prepare("SELECT payload FROM audit_entries ORDER BY seq").all<{ payload: string }>();
    const breakGlass = entries.results.map((row) => JSON.parse(row.payload)).filter((entry) => entry.memberId === null);
    expect(breakGlass.map((entry) => [entry.operationId, entry.credential, entry.address])).toEqual([["signIn", "admin-token", "198.51.100.3"]]);
  });
});
