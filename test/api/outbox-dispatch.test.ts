import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { newTenant } from "./helpers";

const pendingOf = async (projectId: string) =>
  (
    await env.DB.prepare("SELECT type, dispatched IS NULL AS pending FROM events WHERE project_id = ? ORDER BY id")
      .bind(projectId)
      .all<{ type: string; pending: number }>()
  ).results;

describe("outbox rows nobody subscribes to are born dispatched", () => {
  it("a project without webhooks leaves no fan-out work behind", async () => {
    const t = await newTenant();
    const { body: identity } = await t.api("POST", "/identities", {});
    expect((await t.api("DELETE", `/identities/${identity.identityId}`)).status).toBe(204);
    expect(await pendingOf(t.projectId)).toEqual([{ type: "identity.deleted", pending: 0 }]);
  });

  it("only the types a webhook of the project subscribes to wait for fan-out", async () => {
    const t = await newTenant();
    const hook = await t.api("POST", "/webhooks", { url: "https://hooks.customer.example/ok/x", events: ["identity.deleted"] });
    expect(hook.status).toBe(201);
    const erasureOnly = await newTenant();
    await erasureOnly.api("POST", "/webhooks", { url: "https://hooks.customer.example/ok/y", events: ["erasure.created"] });

    for (const tenant of [t, erasureOnly]) {
      const { body: identity } = await tenant.api("POST", "/identities", {});
      await tenant.api("DELETE", `/identities/${identity.identityId}`);
    }
    // Subscribed: written pending (the dispatcher may already have fanned it out by now, marking it dispatched).
    const subscribed = await env.DB.prepare(
      "SELECT count(*) AS n FROM deliveries WHERE project_id = ? UNION ALL SELECT count(*) FROM events WHERE project_id = ? AND dispatched IS NULL",
    )
      .bind(t.projectId, t.projectId)
      .all<{ n: number }>();
    expect(subscribed.results.reduce((sum, r) => sum + r.n, 0)).toBeGreaterThan(0);
    // Another project's webhook, or one for another type, does not make the event wait.
    expect(await pendingOf(erasureOnly.projectId)).toEqual([{ type: "identity.deleted", pending: 0 }]);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM deliveries WHERE project_id = ?").bind(erasureOnly.projectId).first("n")).toBe(0);
  });
});
