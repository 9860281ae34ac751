// What the portal knows of its session (docs/portal.md#roles-in-the-portal): `GET /portal/api/session` says what the
// signed-in member may do, their role's scopes in the organization and a project role's where one is set, so a page
// shows a viewer read-only from the start instead of after a refused save. The access check stays the service's.
import { describe, expect, it } from "vitest";
import { roleScopes } from "../../worker/auth/roles";
import { operatorScopes } from "../../worker/auth/scopes";
import { invited, owner } from "./accounts-helpers";
import { adminToken, call, newProject, origin } from "./helpers";

describe("the portal session's grants", () => {
  it("are the member's role's scopes, and a project role's scopes for that project", async () => {
    const boss = await owner("grants-owner@example.com");
    const { projectId } = await newProject();
    const viewer = await invited(boss, "grants-viewer@agency.example", "viewer");
    const editorThere = await invited(boss, "grants-editor@agency.example", "viewer", [{ projectId, role: "admin" }]);

    const grants = async (member: { call: (m: "GET", p: "/portal/api/session") => Promise<{ status: number; body: any }> }) => {
      const reply = await member.call("GET", "/portal/api/session");
      expect(reply.status).toBe(200);
      return reply.body as { role: string; scopes: string[]; projectScopes: Record<string, string[]> };
    };
    expect(await grants(viewer)).toMatchObject({ role: "viewer", scopes: [...roleScopes.viewer], projectScopes: {} });
    expect((await grants(viewer)).scopes).not.toContain("projects:write");
    const there = await grants(editorThere);
    expect(there).toMatchObject({ role: "viewer", scopes: [...roleScopes.viewer] });
    expect(there.projectScopes).toEqual({ [projectId]: [...roleScopes.admin] });
    expect(await grants(boss)).toMatchObject({ role: "owner", scopes: [...operatorScopes] });

    // The break-glass admin token's session acts as an owner.
    const signedIn = await call("POST", "/portal/api/session", { body: { adminToken }, headers: { origin } });
    const cookie = /__Host-assent_portal=[^;]+/.exec(signedIn.headers.get("set-cookie") ?? "")![0];
    expect((await call("GET", "/portal/api/session", { headers: { cookie } })).body).toMatchObject({ role: "owner", scopes: [...operatorScopes], projectScopes: {} });
  });
});
