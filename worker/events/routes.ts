import { access } from "../auth/scopes";
import { createRoute, z } from "@hono/zod-openapi";
import { and, count, desc, eq, inArray, lt } from "drizzle-orm";
import type { AppEnv } from "../env";
import { getDb } from "../lib/db";
import { badRequest, conflict, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { conflictProblem, createRouter, jsonBody, jsonResponse, problems } from "../lib/router";
import { now } from "../lib/time";
import { enqueueDeliveries, forgetWebhookPresence } from "./outbox";
import {
  CreatedWebhook,
  Delivery,
  DeliveryPage,
  DeliveryQuery,
  maxWebhooksPerProject,
  RotatedSecret,
  RotationInput,
  toDelivery,
  toWebhook,
  Webhook,
  WebhookInput,
} from "./schemas";
import { encryptSecret, newWebhookSecret } from "./secrets";
import { loopbackAllowed, webhookUrlProblem } from "./ssrf";
import { deliveries, deliveryAttempts, events, webhooks } from "./table";

export const eventRoutes = createRouter();

const tags = ["Webhooks"];
const base = "/privacy/v2/projects/{project_id}/webhooks";
const ProjectParams = z.object({ project_id: z.string() });
const WebhookParams = ProjectParams.extend({ webhook_id: z.string() });
const DeliveryParams = WebhookParams.extend({ delivery_id: z.string() });
const defaultGraceSeconds = 24 * 3600;

function checkUrl(env: AppEnv["Bindings"], url: string) {
  const problem = webhookUrlProblem(url, loopbackAllowed(env));
  if (problem) throw badRequest("webhook_url_not_allowed", problem, [{ path: "url", message: problem, code: "webhook_url_not_allowed" }]);
}

async function findWebhook(d1: D1Database, projectId: string, webhookId: string) {
  const row = await getDb(d1)
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.projectId, projectId), eq(webhooks.id, webhookId)))
    .get();
  if (!row) throw notFound("Webhook");
  return row;
}

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

eventRoutes.openapi(
  createRoute({
    method: "post",
    path: base,
    ...access.project("webhooks:manage"),
    tags,
    summary: "Subscribe a URL to events",
    description:
      "Returns the signing secret (`whsec_…`) once; store it. Deliveries are signed per Standard Webhooks (`webhook-id`, " +
      "`webhook-timestamp`, `webhook-signature`), retried with exponential backoff and logged (see the deliveries routes). " +
      "The URL must be https on a public host; loopback over http is accepted only when the server runs with " +
      `ALLOW_LOOPBACK_WEBHOOKS=true (\`npm start\`). A project has at most ${maxWebhooksPerProject} webhooks (409 \`webhook_limit_reached\`). ` +
      "Only backend clients manage webhooks.",
    request: { params: ProjectParams, body: jsonBody(WebhookInput) },
    responses: { 201: jsonResponse(CreatedWebhook, "The webhook and its secret."), ...problems, ...conflictProblem },
  }),
  async (c) => {
    const { projectId } = c.get("caller");
    const input = c.req.valid("json");
    checkUrl(c.env, input.url);
    const db = getDb(c.env.DB);
    const [{ total }] = await db.select({ total: count() }).from(webhooks).where(eq(webhooks.projectId, projectId));
    if (total >= maxWebhooksPerProject) {
      throw conflict("webhook_limit_reached", `A project has at most ${maxWebhooksPerProject} webhooks; delete one first.`);
    }
    const id = newId("whk");
    const secret = newWebhookSecret();
    const stamp = now();
    const row = {
      id,
      projectId,
      url: input.url,
      events: input.events,
      description: input.description ?? null,
      secret: await encryptSecret(c.env.WEBHOOK_SECRETS_KEY, id, secret),
      previousSecret: null,
      previousSecretExpires: null,
      created: stamp,
      updated: stamp,
    };
    await db.insert(webhooks).values(row);
    forgetWebhookPresence(projectId);
    return c.json({ ...toWebhook(row), secret }, 201);
  },
);

eventRoutes.openapi(
  createRoute({
    method: "get",
    path: base,
    ...access.project("webhooks:manage"),
    tags,
    summary: "List the project's webhooks",
    request: { params: ProjectParams },
    responses: { 200: jsonResponse(z.object({ webhooks: z.array(Webhook) }), "Oldest first; secrets are never shown again."), ...problems },
  }),
  async (c) => {
    const rows = await getDb(c.env.DB)
      .select()
      .from(webhooks)
      .where(eq(webhooks.projectId, c.get("caller").projectId))
      .orderBy(webhooks.id);
    return c.json({ webhooks: rows.map(toWebhook) }, 200);
  },
);

eventRoutes.openapi(
  createRoute({
    method: "get",
    path: `${base}/{webhook_id}`,
    ...access.project("webhooks:manage"),
    tags,
    summary: "Read a webhook",
    request: { params: WebhookParams },
    responses: { 200: jsonResponse(Webhook, "The webhook."), ...problems },
  }),
  async (c) => c.json(toWebhook(await findWebhook(c.env.DB, c.get("caller").projectId, c.req.valid("param").webhook_id)), 200),
);

eventRoutes.openapi(
  createRoute({
    method: "put",
    path: `${base}/{webhook_id}`,
    ...access.project("webhooks:manage"),
    tags,
    summary: "Replace a webhook's URL, events and description",
    description:
      "The secret is unchanged (rotate it with `POST …/secret`). Deliveries still retrying go to the new URL; events " +
      "already fanned out keep going to this webhook even if their type is no longer subscribed.",
    request: { params: WebhookParams, body: jsonBody(WebhookInput) },
    responses: { 200: jsonResponse(Webhook, "The webhook."), ...problems },
  }),
  async (c) => {
    const { projectId } = c.get("caller");
    const input = c.req.valid("json");
    checkUrl(c.env, input.url);
    const row = await getDb(c.env.DB)
      .update(webhooks)
      .set({ url: input.url, events: input.events, description: input.description ?? null, updated: now() })
      .where(and(eq(webhooks.projectId, projectId), eq(webhooks.id, c.req.valid("param").webhook_id)))
      .returning()
      .get();
    if (!row) throw notFound("Webhook");
    return c.json(toWebhook(row), 200);
  },
);

eventRoutes.openapi(
  createRoute({
    method: "delete",
    path: `${base}/{webhook_id}`,
    ...access.project("webhooks:manage"),
    tags,
    summary: "Delete a webhook and its delivery log",
    description: "Deliveries not yet made are dropped.",
    request: { params: WebhookParams },
    responses: { 204: { description: "Deleted." }, ...problems },
  }),
  async (c) => {
    const deleted = await getDb(c.env.DB)
      .delete(webhooks)
      .where(and(eq(webhooks.projectId, c.get("caller").projectId), eq(webhooks.id, c.req.valid("param").webhook_id)))
      .returning({ id: webhooks.id });
    if (deleted.length === 0) throw notFound("Webhook");
    forgetWebhookPresence(c.get("caller").projectId);
    return c.body(null, 204);
  },
);

eventRoutes.openapi(
  createRoute({
    method: "post",
    path: `${base}/{webhook_id}/secret`,
    ...access.project("webhooks:manage"),
    tags,
    summary: "Rotate the signing secret",
    description:
      "Returns the new secret once. For `gracePeriodSeconds` (default 86400, at most 7 days, 0 to retire it at once) the " +
      "previous secret keeps signing too: `webhook-signature` then carries two `v1,` signatures, so the receiver can switch " +
      "to the new secret at any moment in that window. Rotating again drops the older previous secret.",
    request: { params: WebhookParams, body: { ...jsonBody(RotationInput), required: false } },
    responses: { 200: jsonResponse(RotatedSecret, "The new secret."), ...problems },
  }),
  async (c) => {
    const { projectId } = c.get("caller");
    const { webhook_id } = c.req.valid("param");
    const grace = c.req.valid("json").gracePeriodSeconds ?? defaultGraceSeconds;
    const hook = await findWebhook(c.env.DB, projectId, webhook_id);
    const secret = newWebhookSecret();
    const stamp = now();
    const previousSecretExpires = grace > 0 ? new Date(Date.parse(stamp) + grace * 1000).toISOString() : null;
    const row = await getDb(c.env.DB)
      .update(webhooks)
      .set({
        secret: await encryptSecret(c.env.WEBHOOK_SECRETS_KEY, hook.id, secret),
        previousSecret: grace > 0 ? hook.secret : null,
        previousSecretExpires,
        updated: stamp,
      })
      // Only if nobody rotated in between, so a concurrent rotation cannot be silently lost.
      .where(and(eq(webhooks.projectId, projectId), eq(webhooks.id, hook.id), eq(webhooks.secret, hook.secret)))
      .returning({ id: webhooks.id })
      .get();
    if (!row) throw conflict("concurrent_rotation", "The secret was rotated by another request at the same time; try again.");
    return c.json({ webhookId: hook.id, secret, previousSecretExpires }, 200);
  },
);

eventRoutes.openapi(
  createRoute({
    method: "get",
    path: `${base}/{webhook_id}/deliveries`,
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
    await findWebhook(c.env.DB, projectId, webhook_id);
    const rows = await getDb(c.env.DB)
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
      { deliveries: await withDetails(c.env.DB, projectId, page), nextCursor: rows.length > limit ? page[page.length - 1].id : null },
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

eventRoutes.openapi(
  createRoute({
    method: "get",
    path: `${base}/{webhook_id}/deliveries/{delivery_id}`,
    ...access.project("webhooks:manage"),
    tags,
    summary: "One delivery with its attempts",
    request: { params: DeliveryParams },
    responses: { 200: jsonResponse(Delivery, "The delivery."), ...problems },
  }),
  async (c) => {
    const { projectId } = c.get("caller");
    const { webhook_id, delivery_id } = c.req.valid("param");
    const [delivery] = await withDetails(c.env.DB, projectId, [await findDelivery(c.env.DB, projectId, webhook_id, delivery_id)]);
    return c.json(delivery, 200);
  },
);

eventRoutes.openapi(
  createRoute({
    method: "post",
    path: `${base}/{webhook_id}/deliveries/{delivery_id}/redeliver`,
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
    const hook = await findWebhook(c.env.DB, projectId, webhook_id);
    checkUrl(c.env, hook.url);
    const original = await findDelivery(c.env.DB, projectId, webhook_id, delivery_id);
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
    await getDb(c.env.DB).insert(deliveries).values(row);
    c.executionCtx.waitUntil(
      enqueueDeliveries(c.env).catch((error) => console.error("redelivery hand-off failed; the cron will retry:", error)),
    );
    const [delivery] = await withDetails(c.env.DB, projectId, [row]);
    return c.json(delivery, 202);
  },
);
