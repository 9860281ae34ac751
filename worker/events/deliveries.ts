import { access } from "../auth/scopes";
import { z } from "@hono/zod-openapi";
import { and, desc, eq, inArray, lt } from "drizzle-orm";
import { getDb } from "../lib/db";
import { notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { createRouter, defineRoute } from "../auth/router";
import { jsonResponse, problems } from "../lib/schemas";
import { now } from "../lib/time";
import { enqueueDeliveries } from "./outbox";
import { Delivery, DeliveryPage, DeliveryQuery, toDelivery } from "./schemas";
import { checkUrl, findWebhook, tags, WebhookParams } from "./route-parts";
import { deliveries, deliveryAttempts, events } from "./table";
import { logger } from "../lib/logger";
import { requestFields } from "../lib/request-log";

/** The delivery log of a webhook, and redelivery. */
export const deliveryRoutes = createRouter();

const DeliveryParams = WebhookParams.extend({ delivery_id: z.string() });

/** Deliveries with their event types and attempt logs, in the order given. */
async function withDetails(d1: D1Database, projectId: string, rows: Array<typeof deliveries.$inferSelect>) {
  if (rows.length === 0) return [];
  const db = getDb(d1);
  const eventIds = [...new Set(rows.map((r) => r.eventId))];
  const [types, attempts] = await Promise.all([
    db.select({ id: events.id, type: events.type }).from(events).where(and(eq(events.projectId, projectId), inArray(events.id, eventIds))),
    db
      .select()
      .from(deliveryAttempts)
      .where(and(eq(deliveryAttempts.projectId, projectId), inArray(deliveryAttempts.deliveryId, rows.map((r) => r.id)))),
  ]);
  const typeOf = new Map(types.map((t) => [t.id, t.type]));
  return rows.map((row) => toDelivery(row, typeOf.get(row.eventId) ?? "unknown", attempts));
}

deliveryRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/{webhook_id}/deliveries",
    operationId: "listWebhookDeliveries",
    ...access.project("webhooks:manage"),
    tags,
    summary: "The delivery log",
    description:
      "Newest first, each with its attempts (status code, latency, error) and, while retrying, `nextAttempt`. A failed " +
      "attempt (no 2xx within the timeout, redirects included) is retried after 30 s, 2 min, 8 min, 32 min, 2 h 8 min, " +
      "8 h 32 min and 12 h; after the 8th attempt the delivery is `dead`. Filter with `status`; page with `cursor`.",
    request: { params: WebhookParams, query: DeliveryQuery },
    responses: { 200: jsonResponse(DeliveryPage, "A page of deliveries."), ...problems },
  }),
  async (c) => {
    const { projectId } = c.get("caller");
    const { webhook_id } = c.req.valid("param");
    const { status, limit, cursor } = c.req.valid("query");
    await findWebhook(c.var.db, projectId, webhook_id);
    const rows = await getDb(c.var.db)
      .select()
      .from(deliveries)
      .where(
        and(
          eq(deliveries.projectId, projectId),
          eq(deliveries.webhookId, webhook_id),
          status ? eq(deliveries.status, status) : undefined,
          cursor ? lt(deliveries.id, cursor) : undefined,
        ),
      )
      .orderBy(desc(deliveries.id))
      .limit(limit + 1);
    const page = rows.slice(0, limit);
    return c.json(
      { deliveries: await withDetails(c.var.db, projectId, page), nextCursor: rows.length > limit ? page[page.length - 1].id : null },
      200,
    );
  },
);

async function findDelivery(d1: D1Database, projectId: string, webhookId: string, deliveryId: string) {
  const row = await getDb(d1)
    .select()
    .from(deliveries)
    .where(and(eq(deliveries.projectId, projectId), eq(deliveries.webhookId, webhookId), eq(deliveries.id, deliveryId)))
    .get();
  if (!row) throw notFound("Delivery");
  return row;
}

deliveryRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/{webhook_id}/deliveries/{delivery_id}",
    operationId: "getWebhookDelivery",
    ...access.project("webhooks:manage"),
    tags,
    summary: "One delivery with its attempts",
    request: { params: DeliveryParams },
    responses: { 200: jsonResponse(Delivery, "The delivery."), ...problems },
  }),
  async (c) => {
    const { projectId } = c.get("caller");
    const { webhook_id, delivery_id } = c.req.valid("param");
    const [delivery] = await withDetails(c.var.db, projectId, [await findDelivery(c.var.db, projectId, webhook_id, delivery_id)]);
    return c.json(delivery, 200);
  },
);

deliveryRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/{webhook_id}/deliveries/{delivery_id}/redeliver",
    operationId: "redeliverWebhookDelivery",
    ...access.project("webhooks:manage"),
    tags,
    summary: "Deliver an event again",
    description:
      "Creates a new delivery of the same event (same `webhook-id`, a fresh signature and timestamp, a full set of attempts) " +
      "to the webhook's current URL, whatever the state of the original. Returns it as `pending`; follow it in the log.",
    request: { params: DeliveryParams },
    responses: { 202: jsonResponse(Delivery, "The new delivery."), ...problems },
  }),
  async (c) => {
    const { projectId } = c.get("caller");
    const { webhook_id, delivery_id } = c.req.valid("param");
    const hook = await findWebhook(c.var.db, projectId, webhook_id);
    checkUrl(c.env, hook.url);
    const original = await findDelivery(c.var.db, projectId, webhook_id, delivery_id);
    const stamp = now();
    const row = {
      id: newId("dlv"),
      projectId,
      webhookId: webhook_id,
      eventId: original.eventId,
      status: "pending" as const,
      attempts: 0,
      lastStatusCode: null,
      lastLatencyMs: null,
      lastError: null,
      nextAttempt: stamp,
      redeliveryOf: original.id,
      queued: null,
      created: stamp,
      updated: stamp,
    };
    await getDb(c.var.db).insert(deliveries).values(row);
    c.executionCtx.waitUntil(
      enqueueDeliveries(c.env, c.var.db).catch((error) => logger.error("redelivery_hand_off_failed", { ...requestFields(c), job: "redelivery" }, error)),
    );
    const [delivery] = await withDetails(c.var.db, projectId, [row]);
    return c.json(delivery, 202);
  },
);
