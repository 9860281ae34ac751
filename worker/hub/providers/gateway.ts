import { z } from "@hono/zod-openapi";
import { emptyOk, isPermanentStatus, send, unreachable, type ProviderAdapter } from "./types";

const Report = z.object({
  id: z.string(),
  status: z.enum(["accepted", "delivered", "undelivered", "failed", "expired"]),
  errorCode: z.string().optional(),
});

/**
 * The generic gateway (our own JSON shape, for an operator's existing SMS gateway): POST to the route's base URL
 * with the bearer secret and our outbox id as `Idempotency-Key`, so a repeated hand-off is deduplicated there.
 * Any 2xx is acceptance. Without a base URL (local development) the outbox is the end of the line.
 * Delivery reports: the gateway POSTs `{id, status, errorCode?}` to `statusCallback`.
 */
export const gateway: ProviderAdapter<{ secret?: string }, Record<string, never>> = {
  credentials: z.object({ secret: z.string().min(1).optional() }),
  options: z.object({}).strict(),
  defaultBaseUrl: () => null,
  async handOff({ message, credentials, baseUrl, callbackUrl }) {
    if (!baseUrl) return { outcome: "outbox_only" };
    if (!credentials.secret) {
      return { outcome: "failed", permanent: false, errorCode: null, error: "SMS_HUB_UPSTREAM_SECRET is not set." };
    }
    const response = await send(baseUrl, {
      method: "POST",
      headers: { authorization: `Bearer ${credentials.secret}`, "content-type": "application/json", "idempotency-key": message.id },
      body: JSON.stringify({
        id: message.id,
        receiver: message.receiver,
        sender: message.sender,
        message: message.text,
        dcs: message.encoding,
        segments: message.segments,
        ...(callbackUrl ? { statusCallback: callbackUrl } : {}),
      }),
    });
    if ("networkError" in response) return unreachable("The upstream gateway", response.networkError);
    await response.body?.cancel();
    if (response.ok) return { outcome: "accepted", providerRef: message.id };
    return {
      outcome: "failed",
      permanent: isPermanentStatus(response.status),
      errorCode: String(response.status),
      error: `The upstream gateway answered ${response.status}.`,
    };
  },
  reportSignature: () => null,
  readReport({ params }) {
    const report = Report.safeParse(params);
    if (!report.success) return null;
    const { id, status, errorCode } = report.data;
    return { messageId: id, providerRef: id, status, errorCode: errorCode ?? null, detail: `The gateway reported ${status}.` };
  },
  reportAnswer: emptyOk,
};
