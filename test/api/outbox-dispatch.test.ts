import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { configuredTenant, permissionBody } from "./configuration-fixture";
import { ok, subscribed, webhookReceiver } from "./helpers";

type Tenant = Awaited<ReturnType<typeof configuredTenant>>;

const eventsOf = async (projectId: string) =>
  (await env.DB.prepare("SELECT id, type FROM events WHERE project_id = ? ORDER BY id").bind(projectId).all<{ id: string; type: string }>()).results;

/** A consent write (the compiled statements of worker/requests/statements.ts) and an identity deletion. */
async function writes(t: Tenant) {
  ok(await t.api("POST", "/permissions", permissionBody(t, "approved", "2026-01-22T10:00:00Z")), 201);
  expect((await t.api("DELETE", `/identities/${t.identityId}`)).status).toBe(204);
}

describe("the outbox keeps an event only for a subscriber", () => {
  it("a project without webhooks leaves no outbox row", async () => {
    const t = await configuredTenant();
    await writes(t);
    expect(await eventsOf(t.projectId)).toEqual([]);
  });

  it("a webhook subscribed to other types only leaves none either", async () => {
    const t = await configuredTenant();
    await subscribed(t, ["erasure.created", "sms.status_changed"]);
    await writes(t);
    expect(await eventsOf(t.projectId)).toEqual([]);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM deliveries WHERE project_id = ?").bind(t.projectId).first("n")).toBe(0);
  });

  it("a subscribed type is written pending and delivered; the others leave nothing", async () => {
    const t = await configuredTenant();
    const other = await configuredTenant();
    const { key } = await subscribed(t, ["permission.created", "identity.deleted"]);
    await writes(t);
    await writes(other); // another project's webhook does not keep its events
    const written = await eventsOf(t.projectId);
    expect(written.map((e) => e.type).sort()).toEqual(["identity.deleted", "permission.created"]);
    expect(await eventsOf(other.projectId)).toEqual([]);
    // Delivered: the fan-out reads only pending rows (dispatched NULL), so each was written pending.
    const arrived = await vi.waitFor(
      async () => {
        const calls = (await (await fetch(`${webhookReceiver}/__log/${key}`)).json()) as { headers: Record<string, string> }[];
        expect(calls.length).toBeGreaterThanOrEqual(2);
        return calls;
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(new Set(arrived.map((c) => c.headers["webhook-id"]))).toEqual(new Set(written.map((e) => e.id)));
    const delivered = await env.DB.prepare("SELECT count(*) AS n FROM events WHERE project_id = ? AND dispatched IS NOT NULL").bind(t.projectId).first("n");
    expect(delivered).toBe(2);
  });
});
