import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createHmac, timingSafeEqual } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { deadLetterQueue, retryDelaySeconds } from "../../worker/events/delivery";
import { dispatchPending, eventInsert } from "../../worker/events/outbox";
import { events } from "../../worker/events/table";
import worker from "../../worker/index";
import { identities } from "../../worker/identities/table";
import { getDb } from "../../worker/lib/db";
import { newId } from "../../worker/lib/ids";
import { now } from "../../worker/lib/time";
import { configuredTenant, permissionBody } from "./configuration-fixture";
import { runCron } from "./cron";
import { newTenant, ok } from "./helpers";

const receiver = "https://hooks.customer.example";
type Received = { url: string; headers: Record<string, string>; body: string };
type Tenant = Awaited<ReturnType<typeof newTenant>>;

/** What the stand-in customer endpoint received for a key. */
async function received(key: string): Promise<Received[]> {
  return (await fetch(`${receiver}/__log/${key}`)).json();
}

/** The verification of docs/webhooks.md#signatures, verbatim apart from types: Standard Webhooks, any of the `v1,` signatures may match. */
function verify(secret: string, headers: Record<string, string>, body: string): boolean {
  const id = headers["webhook-id"];
  const timestamp = headers["webhook-timestamp"];
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest();
  return headers["webhook-signature"].split(" ").some((signature) => {
    const given = Buffer.from(signature.slice(3), "base64");
    return signature.startsWith("v1,") && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

async function subscribe(t: Tenant, scenario: string, events: string[] = ["permission.created"]) {
  const key = crypto.randomUUID();
  const reply = await t.api("POST", "/webhooks", { url: `${receiver}/${scenario}/${key}`, events });
  expect(reply.status).toBe(201);
  return { key, webhookId: reply.body.webhookId as string, secret: reply.body.secret as string };
}

/**
 * Writes one event as a change's batch would, then dispatches it as `dispatchSoon` does after the response; returns
 * its id, undefined when no webhook of the project subscribes to the type (then no row is written).
 */
async function emit(projectId: string, type: Parameters<typeof eventInsert>[2] = "permission.created", data: unknown = { requestId: "req_1" }) {
  const db = getDb(env.DB);
  const [[written]] = await db.batch([eventInsert(db, projectId, type, data).returning({ id: events.id })]);
  await dispatchPending(env, env.DB);
  return written?.id as string;
}

async function deliveriesOf(t: Tenant, webhookId: string, query: `?${string}` | "" = "") {
  const reply = await t.api("GET", `/webhooks/${webhookId}/deliveries${query}`);
  expect(reply.status).toBe(200);
  return reply.body.deliveries;
}

/** Polls the delivery log until the delivery of `eventId` is settled (the real queue runs the consumer). */
async function settled(t: Tenant, webhookId: string, eventId: string, redelivery = false) {
  return vi.waitFor(
    async () => {
      const delivery = (await deliveriesOf(t, webhookId)).find((d) => d.eventId === eventId && (d.redeliveryOf !== null) === redelivery);
      expect(delivery?.status).toMatch(/^(succeeded|dead)$/);
      return delivery;
    },
    { timeout: 30_000, interval: 100 },
  );
}

describe("transactional outbox", () => {
  it("writes the event with its change, or neither", async () => {
    const t = await newTenant();
    await subscribe(t, "ok", ["identity.deleted"]); // the outbox keeps events only for a subscriber
    const db = getDb(env.DB);
    const stamp = now();
    const identity = { id: newId("idn"), projectId: t.projectId, referenceId: null, created: stamp, updated: stamp };
    await expect(
      db.batch([
        db.insert(identities).values(identity),
        eventInsert(db, t.projectId, "identity.deleted", { identityId: identity.id }),
        db.insert(identities).values(identity), // the same primary key again: the batch fails
      ]),
    ).rejects.toThrow();
    const countOf = async (table: string) =>
      (await env.DB.prepare(`select count(*) as n from ${table} where project_id = ?`).bind(t.projectId).first<{ n: number }>())?.n;
    expect(await countOf("identities")).toBe(0);
    expect(await countOf("events")).toBe(0);

    await db.batch([db.insert(identities).values(identity), eventInsert(db, t.projectId, "identity.deleted", { identityId: identity.id })]);
    expect(await countOf("identities")).toBe(1);
    expect(await countOf("events")).toBe(1);
  });
});

describe("delivery", { timeout: 60_000 }, () => {
  it("posts the signed payload to subscribed webhooks only", async () => {
    const t = await newTenant();
    const other = await newTenant();
    const hook = await subscribe(t, "ok");
    const unrelated = await subscribe(t, "ok", ["erasure.created"]);
    const data = { requestId: "req_42", identityId: "idn_7", permissionStatus: "completed" };
    const eventId = await emit(t.projectId, "permission.created", data);
    expect(await emit(other.projectId, "permission.created", data)).toBeUndefined(); // nobody there subscribes

    const delivery = await settled(t, hook.webhookId, eventId);
    expect(delivery).toMatchObject({ status: "succeeded", attempts: 1, lastStatusCode: 200, eventType: "permission.created", nextAttempt: null });
    const [request] = await received(hook.key);
    expect(JSON.parse(request.body)).toEqual({
      id: eventId,
      type: "permission.created",
      projectId: t.projectId,
      created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      data,
    });
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.headers["webhook-id"]).toBe(eventId);
    expect(request.headers["webhook-timestamp"]).toMatch(/^\d+$/);
    expect(request.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(verify(hook.secret, request.headers, request.body)).toBe(true);
    expect(verify(hook.secret, request.headers, request.body.replace("req_42", "req_43"))).toBe(false);
    expect(verify(unrelated.secret, request.headers, request.body)).toBe(false);

    expect(await received(hook.key)).toHaveLength(1);
    expect(await deliveriesOf(t, unrelated.webhookId)).toEqual([]);
    expect(await received(unrelated.key)).toEqual([]);
  });

  it("retries after 500s until the endpoint accepts", async () => {
    const t = await newTenant();
    const hook = await subscribe(t, "fail-2");
    const eventId = await emit(t.projectId);
    const delivery = await settled(t, hook.webhookId, eventId);
    expect(delivery).toMatchObject({ status: "succeeded", attempts: 3, lastStatusCode: 200, lastError: null });
    expect(delivery!.attemptLog.map((a: any) => [a.attempt, a.statusCode, a.error])).toEqual([
      [1, 500, "HTTP 500"],
      [2, 500, "HTTP 500"],
      [3, 200, null],
    ]);
    const requests = await received(hook.key);
    expect(requests.map((r) => r.headers["webhook-id"])).toEqual([eventId, eventId, eventId]);
    for (const request of requests) expect(verify(hook.secret, request.headers, request.body)).toBe(true);
  });

  it("retries after a timeout", async () => {
    const t = await newTenant();
    const hook = await subscribe(t, "slow-1");
    const eventId = await emit(t.projectId);
    const delivery = await settled(t, hook.webhookId, eventId);
    expect(delivery).toMatchObject({ status: "succeeded", attempts: 2 });
    expect(delivery!.attemptLog[0]).toMatchObject({ attempt: 1, statusCode: null, error: "No response within 1000 ms" });
    expect(delivery!.attemptLog[0].latencyMs).toBeGreaterThanOrEqual(1000);
    expect(delivery!.attemptLog[1]).toMatchObject({ attempt: 2, statusCode: 200, error: null });
  });

  it("does not follow redirects", async () => {
    const t = await newTenant();
    const hook = await subscribe(t, "redirect");
    const eventId = await emit(t.projectId);
    const delivery = await settled(t, hook.webhookId, eventId);
    expect(delivery!.status).toBe("dead");
    expect(delivery!.attemptLog.map((a: any) => a.statusCode)).toEqual([302, 302, 302]);
  });

  it("dead-letters after the attempt limit", async () => {
    const t = await newTenant();
    const hook = await subscribe(t, "always-500");
    const eventId = await emit(t.projectId);
    const delivery = await settled(t, hook.webhookId, eventId);
    expect(delivery).toMatchObject({ status: "dead", attempts: 3, lastStatusCode: 500, lastError: "HTTP 500", nextAttempt: null });
    expect(delivery!.attemptLog).toHaveLength(3);
    expect(await received(hook.key)).toHaveLength(3);
    expect((await deliveriesOf(t, hook.webhookId, "?status=dead")).map((d) => d.deliveryId)).toEqual([delivery!.deliveryId]);
    expect(await deliveriesOf(t, hook.webhookId, "?status=succeeded")).toEqual([]);
  });

  it("redelivers on request, with the same webhook-id and a fresh signature", async () => {
    const t = await newTenant();
    const hook = await subscribe(t, "fail-3");
    const eventId = await emit(t.projectId);
    const original = await settled(t, hook.webhookId, eventId);
    expect(original!.status).toBe("dead");

    const redelivered = await t.api("POST", `/webhooks/${hook.webhookId}/deliveries/${original!.deliveryId}/redeliver`);
    expect(redelivered.status).toBe(202);
    expect(redelivered.body).toMatchObject({ status: "pending", attempts: 0, eventId, redeliveryOf: original!.deliveryId, attemptLog: [] });
    const again = await settled(t, hook.webhookId, eventId, true);
    expect(again).toMatchObject({ deliveryId: redelivered.body.deliveryId, status: "succeeded", attempts: 1 });
    const requests = await received(hook.key);
    expect(requests).toHaveLength(4);
    expect(requests[3].headers["webhook-id"]).toBe(eventId);
    expect(verify(hook.secret, requests[3].headers, requests[3].body)).toBe(true);
    // The original stays in the log as it was.
    const log = await deliveriesOf(t, hook.webhookId);
    expect(log.find((d) => d.deliveryId === original!.deliveryId)).toMatchObject({ status: "dead", attempts: 3 });

    const other = await newTenant();
    expect((await other.api("POST", `/webhooks/${hook.webhookId}/deliveries/${original!.deliveryId}/redeliver`)).status).toBe(404);
    expect((await t.api("POST", `/webhooks/${hook.webhookId}/deliveries/dlv_missing/redeliver`)).status).toBe(404);
  });

  it("signs with both secrets during the grace period, then with the new one only", async () => {
    const t = await newTenant();
    const hook = await subscribe(t, "ok");
    const rotated = await t.api("POST", `/webhooks/${hook.webhookId}/secret`);
    const during = await emit(t.projectId);
    await settled(t, hook.webhookId, during);
    const [first] = await received(hook.key);
    expect(first.headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(verify(rotated.body.secret, first.headers, first.body)).toBe(true);
    expect(verify(hook.secret, first.headers, first.body)).toBe(true);

    // The grace period ends (moved into the past rather than waiting a day).
    await env.DB.prepare("update webhooks set previous_secret_expires = ? where id = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), hook.webhookId)
      .run();
    const after = await emit(t.projectId);
    await settled(t, hook.webhookId, after);
    const [, second] = await received(hook.key);
    expect(second.headers["webhook-signature"].split(" ")).toHaveLength(1);
    expect(verify(rotated.body.secret, second.headers, second.body)).toBe(true);
    expect(verify(hook.secret, second.headers, second.body)).toBe(false);
  });

  it("refuses at delivery time a URL the SSRF guard would refuse now", async () => {
    const t = await newTenant();
    const hook = await subscribe(t, "ok");
    // As if the row had been written under a looser configuration (for example copied from a dev database).
    await env.DB.prepare("update webhooks set url = ? where id = ?").bind("http://127.0.0.1:8080/hook", hook.webhookId).run();
    const eventId = await emit(t.projectId);
    const delivery = await settled(t, hook.webhookId, eventId);
    expect(delivery).toMatchObject({ status: "dead", attempts: 1, lastStatusCode: null });
    expect(delivery!.lastError).toMatch(/^Refused by the SSRF guard/);
  });

  it("pages the delivery log newest first", async () => {
    const t = await newTenant();
    const hook = await subscribe(t, "ok");
    const ids = [await emit(t.projectId), await emit(t.projectId), await emit(t.projectId)];
    for (const id of ids) await settled(t, hook.webhookId, id);
    const first = await t.api("GET", `/webhooks/${hook.webhookId}/deliveries?limit=2`);
    expect(first.body.deliveries.map((d: any) => d.eventId)).toEqual([ids[2], ids[1]]);
    const second = await t.api("GET", `/webhooks/${hook.webhookId}/deliveries?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.deliveries.map((d: any) => d.eventId)).toEqual([ids[0]]);
    expect(second.body.nextCursor).toBeNull();
    const one = await t.api("GET", `/webhooks/${hook.webhookId}/deliveries/${second.body.deliveries[0].deliveryId}`);
    expect(one.body).toEqual(second.body.deliveries[0]);
    expect((await t.api("GET", `/webhooks/${hook.webhookId}/deliveries?limit=51`)).status).toBe(400);
  });
});

describe("end to end", { timeout: 60_000 }, () => {
  it("a recorded permission reaches the subscriber as signed permission.created and permission_state.changed", async () => {
    const t = await configuredTenant();
    const hook = await subscribe(t, "ok", ["permission.created", "permission_state.changed"]);
    const record = ok(await t.api("POST", "/permissions", permissionBody(t, "approved", "2026-11-22T10:15:30.123+01:00")), 201);

    const requests = await vi.waitFor(
      async () => {
        const got = await received(hook.key);
        expect(got).toHaveLength(2);
        return got;
      },
      { timeout: 30_000, interval: 100 },
    );
    for (const request of requests) expect(verify(hook.secret, request.headers, request.body)).toBe(true);
    const payloads = requests.map((r) => JSON.parse(r.body));
    const created = payloads.find((p) => p.type === "permission.created");
    const state = payloads.find((p) => p.type === "permission_state.changed");
    expect(created).toMatchObject({ projectId: t.projectId, data: record });
    expect(state).toMatchObject({ projectId: t.projectId, data: { identityId: t.identityId } });
    expect(state.data.purposes).toEqual([expect.objectContaining({ purposeId: t.marketing, status: "approved", requestId: record.requestId })]);
  });

  it("deleting an identity reaches the subscriber as identity.deleted", async () => {
    const t = await configuredTenant();
    const hook = await subscribe(t, "ok", ["identity.deleted"]);
    expect((await t.api("DELETE", `/identities/${t.identityId}`)).status).toBe(204);
    const [request] = await vi.waitFor(
      async () => {
        const got = await received(hook.key);
        expect(got).toHaveLength(1);
        return got;
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(verify(hook.secret, request.headers, request.body)).toBe(true);
    expect(JSON.parse(request.body)).toMatchObject({ type: "identity.deleted", projectId: t.projectId, data: { identityId: t.identityId } });
  });
});

describe("queue and cron", { timeout: 60_000 }, () => {
  it("the cron hands over events that were never dispatched", async () => {
    const t = await newTenant();
    const hook = await subscribe(t, "ok", ["permission.updated"]);
    const db = getDb(env.DB);
    // A change whose request ended before dispatchSoon ran.
    const [[{ id: eventId }]] = await db.batch([eventInsert(db, t.projectId, "permission.updated", { requestId: "req_9" }).returning({ id: events.id })]);
    expect(await deliveriesOf(t, hook.webhookId)).toEqual([]);

    await runCron();
    const delivery = await settled(t, hook.webhookId, eventId);
    expect(delivery!.status).toBe("succeeded");
    const dispatched = await env.DB.prepare("select dispatched from events where id = ?").bind(eventId).first<{ dispatched: string | null }>();
    expect(dispatched?.dispatched).not.toBeNull();
  });

  /** A delivery row that only the handler under test will touch (already `failed`, so no dispatcher picks it up). */
  async function parkedDelivery(t: Tenant, webhookId: string) {
    const db = getDb(env.DB);
    const [[{ id: eventId }]] = await db.batch([eventInsert(db, t.projectId, "access.created", { requestId: "req_5" }).returning({ id: events.id })]);
    const stamp = now();
    const deliveryId = newId("dlv");
    await env.DB.prepare(
      "update events set dispatched = ?1 where id = ?2",
    ).bind(stamp, eventId).run();
    await env.DB.prepare(
      "insert into deliveries (id, project_id, webhook_id, event_id, status, attempts, created, updated, queued) values (?1, ?2, ?3, ?4, 'failed', 1, ?5, ?5, ?5)",
    ).bind(deliveryId, t.projectId, webhookId, eventId, stamp).run();
    return deliveryId;
  }

  it("schedules a retry with exponential backoff through the queue", async () => {
    const t = await newTenant();
    const hook = await subscribe(t, "always-500", ["access.created"]);
    const deliveryId = await parkedDelivery(t, hook.webhookId);
    const batch = createMessageBatch("assent-webhooks", [{ id: "msg-1", timestamp: new Date(), attempts: 2, body: { deliveryId } }]);
    const ctx = createExecutionContext();
    // The production schedule (base 30 s) instead of the tests' immediate retries.
    await worker.queue(batch, { ...env, WEBHOOK_RETRY_BASE_SECONDS: "30", WEBHOOK_MAX_ATTEMPTS: "8" });
    const result = await getQueueResult(batch, ctx);
    // The test harness's message does not record retry options, so the delay is read back from the log.
    expect(result.retryMessages.map((m) => m.msgId)).toEqual(["msg-1"]);
    const [delivery] = await deliveriesOf(t, hook.webhookId);
    expect(delivery).toMatchObject({ status: "failed", attempts: 2, lastStatusCode: 500 });
    const wait = Date.parse(delivery!.nextAttempt!) - Date.parse(delivery!.updated);
    expect(wait).toBe(120_000);
  });

  it("marks deliveries the queue dead-lettered as dead", async () => {
    const t = await newTenant();
    const hook = await subscribe(t, "ok", ["access.created"]);
    const deliveryId = await parkedDelivery(t, hook.webhookId);
    const batch = createMessageBatch(deadLetterQueue, [{ id: "msg-2", timestamp: new Date(), attempts: 21, body: { deliveryId } }]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env);
    expect((await getQueueResult(batch, ctx)).ackAll).toBe(true);
    const [delivery] = await deliveriesOf(t, hook.webhookId);
    expect(delivery).toMatchObject({ status: "dead", nextAttempt: null, lastError: "Abandoned after the queue's retries ran out." });
    expect(await received(hook.key)).toEqual([]);
  });

  it("backs off 4× per attempt from the base, capped at the queue's 12 h", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => retryDelaySeconds(n, 30))).toEqual([30, 120, 480, 1920, 7680, 30720, 43200, 43200]);
  });
});
