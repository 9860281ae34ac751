// Rotating the operator's secrets without downtime (docs/operations.md#rotating-secrets): during a rotation the
// Worker accepts the previous value beside the new one, and stops once the previous one is removed.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { app } from "../../worker/app";
import type { Env } from "../../worker/env";
import { adminToken, origin } from "./helpers";

/** GET /admin/v1/projects with `token`, on a Worker whose env differs from the suite's by `settings`. */
async function listProjects(token: string, settings: Partial<Env>) {
  const ctx = createExecutionContext();
  const reply = await app.fetch(new Request(`${origin}/admin/v1/projects`, { headers: { authorization: `Bearer ${token}` } }), { ...env, ...settings }, ctx);
  await waitOnExecutionContext(ctx);
  return reply.status;
}

describe("admin token rotation", () => {
  const next = "next-admin-token";

  it("accepts the new token and the previous one while ADMIN_TOKEN_PREVIOUS names it, and nothing else", async () => {
    const during = { ADMIN_TOKEN: next, ADMIN_TOKEN_PREVIOUS: adminToken };
    expect(await listProjects(next, during)).toBe(200);
    expect(await listProjects(adminToken, during)).toBe(200);
    expect(await listProjects("some-other-token", during)).toBe(401);
  });

  it("refuses the previous token once ADMIN_TOKEN_PREVIOUS is removed", async () => {
    expect(await listProjects(adminToken, { ADMIN_TOKEN: next })).toBe(401);
    expect(await listProjects(next, { ADMIN_TOKEN: next })).toBe(200);
    // An empty value (a secret put with nothing) accepts nothing extra.
    expect(await listProjects("", { ADMIN_TOKEN: next, ADMIN_TOKEN_PREVIOUS: "" })).toBe(401);
  });
});
