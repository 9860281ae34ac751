import { access } from "../auth/scopes";
import { z } from "@hono/zod-openapi";
import { and, count, eq } from "drizzle-orm";
import { getDb } from "../lib/db";
import { conflict } from "../lib/errors";
import { newId } from "../lib/ids";
import { createRouter, defineRoute } from "../auth/router";
import { conflictProblem, jsonBody, jsonResponse, problems } from "../lib/schemas";
import { ProjectParams } from "../lib/params";
import { acceptedRevisions, createdResponse, IfMatch, nextRevision, notModified, preconditionProblem, refusal, revisionMatches, tagged, taggedResponse } from "../lib/preconditions";
import { now } from "../lib/time";
import { forgetWebhookPresence } from "./outbox";
import { CreatedWebhook, maxWebhooksPerProject, RotatedSecret, RotationInput, toWebhook, Webhook, WebhookInput } from "./schemas";
import { encryptSecret, newWebhookSecret } from "./secrets";
import { checkUrl, findWebhook, tags, WebhookParams } from "./route-parts";
import { webhooks } from "./table";

/** Webhook subscriptions: create, list, read, change, delete, rotate the secret. */
export const webhookRoutes = createRouter();

const defaultGraceSeconds = 24 * 3600;

webhookRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/",
    operationId: "createWebhook",
    ...access.project("webhooks:manage"),
    tags,
    summary: "Subscribe a URL to events",
    description:
      "Returns the signing secret (`whsec_…`) once; store it. Deliveries are signed per Standard Webhooks (`webhook-id`, " +
      "`webhook-timestamp`, `webhook-signature`), retried with exponential backoff and logged (see the deliveries routes). " +
      "The webhook receives the events of changes made after it is created; an event no webhook of the project subscribes " +
      "to is not kept (the list endpoints' `updatedSince` catches up on earlier changes). " +
      "The URL must be https on a public host; loopback over http is accepted only when the server runs with " +
      `ALLOW_LOOPBACK_WEBHOOKS=true (\`npm start\`). A project has at most ${maxWebhooksPerProject} webhooks (409 \`webhook_limit_reached\`). ` +
      "Only backend clients manage webhooks.",
    request: { params: ProjectParams, body: jsonBody(WebhookInput) },
    responses: { 201: createdResponse(CreatedWebhook, "The webhook and its secret."), ...problems, ...conflictProblem },
  }),
  async (c) => {
    const { projectId } = c.get("caller");
    const input = c.req.valid("json");
    checkUrl(c.env, input.url);
    const db = getDb(c.var.db);
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
      revision: 1,
    };
    await db.insert(webhooks).values(row);
    forgetWebhookPresence(projectId);
    tagged(c, row.revision);
    c.header("Location", `/privacy/v2/projects/${projectId}/webhooks/${id}`);
    return c.json({ ...toWebhook(row), secret }, 201);
  },
);

webhookRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/",
    operationId: "listWebhooks",
    ...access.project("webhooks:manage"),
    tags,
    summary: "List the project's webhooks",
    request: { params: ProjectParams },
    responses: { 200: jsonResponse(z.object({ webhooks: z.array(Webhook) }), "Oldest first; secrets are never shown again."), ...problems },
  }),
  async (c) => {
    const rows = await getDb(c.var.db)
      .select()
      .from(webhooks)
      .where(eq(webhooks.projectId, c.get("caller").projectId))
      .orderBy(webhooks.id);
    return c.json({ webhooks: rows.map(toWebhook) }, 200);
  },
);

webhookRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/{webhook_id}",
    operationId: "getWebhook",
    ...access.project("webhooks:manage"),
    tags,
    summary: "Read a webhook",
    request: { params: WebhookParams },
    responses: { 200: taggedResponse(Webhook, "The webhook."), ...notModified, ...problems },
  }),
  async (c) => {
    const row = await findWebhook(c.var.db, c.get("caller").projectId, c.req.valid("param").webhook_id);
    return tagged(c, row.revision) ?? c.json(toWebhook(row), 200);
  },
);

webhookRoutes.openapi(
  defineRoute({
    method: "put",
    path: "/{webhook_id}",
    operationId: "updateWebhook",
    ...access.project("webhooks:manage"),
    tags,
    summary: "Replace a webhook's URL, events and description",
    description:
      "The secret is unchanged (rotate it with `POST …/secret`). Deliveries still retrying go to the new URL; events " +
      "already fanned out keep going to this webhook even if their type is no longer subscribed.",
    request: { params: WebhookParams, headers: IfMatch, body: jsonBody(WebhookInput) },
    responses: { 200: taggedResponse(Webhook, "The webhook."), ...problems, ...preconditionProblem },
  }),
  async (c) => {
    const { projectId } = c.get("caller");
    const { webhook_id: id } = c.req.valid("param");
    const input = c.req.valid("json");
    checkUrl(c.env, input.url);
    const accepted = acceptedRevisions(c);
    const row = await getDb(c.var.db)
      .update(webhooks)
      .set({ url: input.url, events: input.events, description: input.description ?? null, updated: now(), revision: nextRevision(webhooks.revision) })
      .where(and(eq(webhooks.projectId, projectId), eq(webhooks.id, id), revisionMatches(webhooks.revision, accepted)))
      .returning()
      .get();
    if (!row) throw await refusal(accepted, () => findWebhook(c.var.db, projectId, id).catch(() => undefined), "Webhook");
    tagged(c, row.revision);
    return c.json(toWebhook(row), 200);
  },
);

webhookRoutes.openapi(
  defineRoute({
    method: "delete",
    path: "/{webhook_id}",
    operationId: "deleteWebhook",
    ...access.project("webhooks:manage"),
    tags,
    summary: "Delete a webhook and its delivery log",
    description: "Deliveries not yet made are dropped.",
    request: { params: WebhookParams, headers: IfMatch },
    responses: { 204: { description: "Deleted." }, ...problems, ...preconditionProblem },
  }),
  async (c) => {
    const { projectId } = c.get("caller");
    const { webhook_id: id } = c.req.valid("param");
    const accepted = acceptedRevisions(c);
    const deleted = await getDb(c.var.db)
      .delete(webhooks)
      .where(and(eq(webhooks.projectId, projectId), eq(webhooks.id, id), revisionMatches(webhooks.revision, accepted)))
      .returning({ id: webhooks.id });
    if (deleted.length === 0) throw await refusal(accepted, () => findWebhook(c.var.db, projectId, id).catch(() => undefined), "Webhook");
    forgetWebhookPresence(c.get("caller").projectId);
    return c.body(null, 204);
  },
);

webhookRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/{webhook_id}/secret",
    operationId: "rotateWebhookSecret",
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
    const hook = await findWebhook(c.var.db, projectId, webhook_id);
    const secret = newWebhookSecret();
    const stamp = now();
    const previousSecretExpires = grace > 0 ? new Date(Date.parse(stamp) + grace * 1000).toISOString() : null;
    const row = await getDb(c.var.db)
      .update(webhooks)
      .set({
        secret: await encryptSecret(c.env.WEBHOOK_SECRETS_KEY, hook.id, secret),
        previousSecret: grace > 0 ? hook.secret : null,
        previousSecretExpires,
        updated: stamp,
        revision: nextRevision(webhooks.revision),
      })
      // Only if nobody rotated in between, so a concurrent rotation cannot be silently lost.
      .where(and(eq(webhooks.projectId, projectId), eq(webhooks.id, hook.id), eq(webhooks.secret, hook.secret)))
      .returning({ id: webhooks.id })
      .get();
    if (!row) throw conflict("concurrent_rotation", "The secret was rotated by another request at the same time; try again.");
    return c.json({ webhookId: hook.id, secret, previousSecretExpires }, 200);
  },
);

