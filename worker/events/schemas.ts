import { z } from "@hono/zod-openapi";
import { Timestamp } from "../lib/schemas";
import { eventTypes } from "./outbox";
import { deliveryStatuses, type deliveries, type deliveryAttempts, type webhooks } from "./table";

export const maxWebhooksPerProject = 20;

const EventTypes = z
  .array(z.enum(eventTypes))
  .min(1)
  .refine((types) => new Set(types).size === types.length, "List each event type once.")
  .openapi({ example: ["permission.created", "permission_state.changed"], description: "Event types to receive." });

export const WebhookInput = z
  .strictObject({
    url: z.url().max(2048).openapi({
      example: "https://shop.example/hooks/assent",
      description: "An https URL on a public host (plain http to loopback is accepted only in local development).",
    }),
    events: EventTypes,
    description: z.string().max(500).optional(),
  })
  .openapi("WebhookInput");

export const Webhook = z
  .object({
    webhookId: z.string().openapi({ example: "whk_01JD7W2H8Q5V3N6X9B1C4E7F2G" }),
    projectId: z.string(),
    url: z.string(),
    events: z.array(z.enum(eventTypes)),
    description: z.string().nullable(),
    previousSecretExpires: Timestamp.nullable().openapi({
      description: "While set and in the future, deliveries are signed with both the current and the previous secret.",
    }),
    created: Timestamp,
    updated: Timestamp,
  })
  .openapi("Webhook");

const Secret = z.string().openapi({
  example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  description: "Shown only in this response. The HMAC key is the base64-decoded part after `whsec_`.",
});

export const CreatedWebhook = Webhook.extend({ secret: Secret }).openapi("CreatedWebhook");

export const RotationInput = z
  .strictObject({
    gracePeriodSeconds: z.number().int().min(0).max(7 * 24 * 3600).optional().openapi({
      description: "How long the previous secret keeps signing (default 86400; 0 retires it at once).",
    }),
  })
  .openapi("SecretRotationInput");

export const RotatedSecret = z
  .object({ webhookId: z.string(), secret: Secret, previousSecretExpires: Timestamp.nullable() })
  .openapi("RotatedSecret");

export const DeliveryAttempt = z
  .object({
    attempt: z.number().int(),
    started: Timestamp,
    statusCode: z.number().int().nullable().openapi({ description: "The endpoint's HTTP status; null when there was no response." }),
    latencyMs: z.number().int(),
    error: z.string().nullable(),
  })
  .openapi("DeliveryAttempt");

export const Delivery = z
  .object({
    deliveryId: z.string().openapi({ example: "dlv_01JD7W2H8Q5V3N6X9B1C4E7F2G" }),
    webhookId: z.string(),
    eventId: z.string().openapi({ description: "Also the `webhook-id` header: the same for every attempt and redelivery." }),
    eventType: z.enum(eventTypes),
    status: z.enum(deliveryStatuses).openapi({
      description:
        "`pending` until the first attempt, `failed` while retries remain (see `nextAttempt`), then `succeeded` or `dead`.",
    }),
    attempts: z.number().int(),
    lastStatusCode: z.number().int().nullable(),
    lastLatencyMs: z.number().int().nullable(),
    lastError: z.string().nullable(),
    nextAttempt: Timestamp.nullable().openapi({ description: "When the next retry is due; null once settled." }),
    redeliveryOf: z.string().nullable().openapi({ description: "The delivery this one repeats, for manual redeliveries." }),
    attemptLog: z.array(DeliveryAttempt),
    created: Timestamp,
    updated: Timestamp,
  })
  .openapi("Delivery");

export const DeliveryPage = z
  .object({
    deliveries: z.array(Delivery),
    nextCursor: z.string().nullable().openapi({ description: "Pass as `cursor` for the next (older) page; null on the last page." }),
  })
  .openapi("DeliveryPage");

export const DeliveryQuery = z.object({
  status: z.enum(deliveryStatuses).optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
  cursor: z.string().max(64).optional().openapi({ description: "`nextCursor` of the previous page." }),
});

export function toWebhook(row: typeof webhooks.$inferSelect): z.infer<typeof Webhook> {
  return {
    webhookId: row.id,
    projectId: row.projectId,
    url: row.url,
    events: row.events as z.infer<typeof Webhook>["events"],
    description: row.description,
    previousSecretExpires: row.previousSecret ? row.previousSecretExpires : null,
    created: row.created,
    updated: row.updated,
  };
}

export function toDelivery(
  row: typeof deliveries.$inferSelect,
  eventType: string,
  attempts: Array<typeof deliveryAttempts.$inferSelect>,
): z.infer<typeof Delivery> {
  return {
    deliveryId: row.id,
    webhookId: row.webhookId,
    eventId: row.eventId,
    eventType: eventType as z.infer<typeof Delivery>["eventType"],
    status: row.status,
    attempts: row.attempts,
    lastStatusCode: row.lastStatusCode,
    lastLatencyMs: row.lastLatencyMs,
    lastError: row.lastError,
    nextAttempt: row.nextAttempt,
    redeliveryOf: row.redeliveryOf,
    attemptLog: attempts
      .filter((a) => a.deliveryId === row.id)
      .sort((a, b) => a.attempt - b.attempt)
      .map((a) => ({ attempt: a.attempt, started: a.started, statusCode: a.statusCode, latencyMs: a.latencyMs, error: a.error })),
    created: row.created,
    updated: row.updated,
  };
}
