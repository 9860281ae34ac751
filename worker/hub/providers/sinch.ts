import { z } from "@hono/zod-openapi";
import { emptyOk, isPermanentStatus, readJson, send, unreachable, type ProviderAdapter, type ReportedStatus } from "./types";

const Credentials = z.object({ servicePlanId: z.string().min(1), apiToken: z.string().min(1) });

const Options = z
  .object({ region: z.enum(["us", "eu", "au", "br", "ca"]).default("us").openapi({ description: "Sinch's SMS region." }) })
  .strict();

const statuses: Record<string, ReportedStatus> = {
  Queued: "accepted",
  Dispatched: "accepted",
  Delivered: "delivered",
  Expired: "expired",
  Failed: "failed",
  Rejected: "failed",
  Aborted: "failed",
  Cancelled: "failed",
};

/**
 * Sinch SMS REST API: `POST /xms/v1/{service_plan_id}/batches` on the region's host, bearer API token, JSON `from`,
 * `to` (one recipient), `body`, `delivery_report: "per_recipient"`, `callback_url`, `client_reference` (our
 * outbox id, echoed in reports) and `expire_at`. Sinch picks GSM or UCS-2 from the text (no flag) and does not deduplicate.
 */
export const sinch: ProviderAdapter<z.infer<typeof Credentials>, z.infer<typeof Options>> = {
  credentials: Credentials,
  options: Options,
  defaultBaseUrl: (options) => `https://${options.region}.sms.api.sinch.com`,
  async handOff({ message, credentials, baseUrl, callbackUrl, validForMs }) {
    // expire_at: when Sinch stops trying to deliver (at most 3 days after sending); our validity's end.
    const expireAt = new Date(Date.now() + Math.min(Math.max(validForMs, 60_000), 3 * 86_400_000)).toISOString();
    const response = await send(`${baseUrl}/xms/v1/${encodeURIComponent(credentials.servicePlanId)}/batches`, {
      method: "POST",
      headers: { authorization: `Bearer ${credentials.apiToken}`, "content-type": "application/json" },
      body: JSON.stringify({
        from: message.sender,
        to: [message.receiver],
        body: message.text,
        delivery_report: callbackUrl ? "per_recipient" : "none",
        ...(callbackUrl ? { callback_url: callbackUrl } : {}),
        client_reference: message.id,
        expire_at: expireAt,
      }),
    });
    if ("networkError" in response) return unreachable("Sinch", response.networkError);
    const body = await readJson(response);
    if (response.ok && typeof body?.id === "string") return { outcome: "accepted", providerRef: body.id };
    return {
      outcome: "failed",
      permanent: isPermanentStatus(response.status),
      errorCode: typeof body?.code === "string" ? body.code : String(response.status),
      error: `Sinch answered ${response.status}: ${typeof body?.text === "string" ? body.text : "no text"}`,
    };
  },
  reportSignature: () => null,
  readReport({ params }) {
    const status = statuses[params.status ?? ""];
    if (params.type !== "recipient_delivery_report_sms" || !status || !params.batch_id) return null;
    const errorCode = params.code && !["0", "400", "401"].includes(params.code) ? params.code : null;
    return {
      providerRef: params.batch_id,
      messageId: params.client_reference || undefined,
      status,
      errorCode,
      detail: `Sinch reported ${params.status} (code ${params.code ?? "none"}).`,
    };
  },
  reportAnswer: emptyOk,
};
