import { z } from "@hono/zod-openapi";
import { signatureMatches, vonageSignature } from "./signatures";
import { clamp, digitsOnly, isPermanentStatus, readJson, send, unreachable, type ProviderAdapter, type ReportedStatus } from "./types";

const Credentials = z.object({
  apiKey: z.string().min(1),
  apiSecret: z.string().min(1),
  /** With signed callbacks enabled on the account (method SHA-256 HMAC), reports are checked against it. */
  signatureSecret: z.string().min(1).optional(),
});

/** SMS API answer codes that may succeed later: throttled, internal error, too many existing binds. */
const transientCodes = new Set(["1", "5", "10"]);

const statuses: Record<string, ReportedStatus> = {
  accepted: "accepted",
  buffered: "accepted",
  delivered: "delivered",
  expired: "expired",
  failed: "failed",
  rejected: "failed",
};

type VonagePart = { status?: string; "message-id"?: string; "error-text"?: string };

/**
 * Vonage SMS API: `POST /sms/json`, form-encoded `api_key`, `api_secret`, `from`, `to` (digits, no "+"), `text`,
 * `type` (`unicode` for UCS-2, `text` for GSM), `client-ref` (our outbox id), `ttl` and `callback` (the delivery-receipt
 * URL). Each part of a long text is its own message in the answer and gets its own receipt; the receipts carry
 * `client-ref`, which is how they are matched. Vonage does not deduplicate on `client-ref`.
 */
export const vonage: ProviderAdapter<z.infer<typeof Credentials>, Record<string, never>> = {
  credentials: Credentials,
  options: z.object({}).strict(),
  defaultBaseUrl: () => "https://rest.nexmo.com",
  async handOff({ message, credentials, baseUrl, callbackUrl, validForMs }) {
    const form = new URLSearchParams({
      api_key: credentials.apiKey,
      api_secret: credentials.apiSecret,
      from: message.sender.startsWith("+") ? digitsOnly(message.sender) : message.sender,
      to: digitsOnly(message.receiver),
      text: message.text,
      type: message.encoding === "ucs" ? "unicode" : "text",
      "client-ref": message.id,
      // ttl: milliseconds Vonage keeps attempting delivery (20 000 to 604 800 000); our remaining validity.
      ttl: String(clamp(validForMs, 20_000, 604_800_000)),
    });
    if (callbackUrl) form.set("callback", callbackUrl);
    const response = await send(`${baseUrl}/sms/json`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form.toString(),
    });
    if ("networkError" in response) return unreachable("Vonage", response.networkError);
    const body = await readJson(response);
    const parts = Array.isArray(body?.messages) ? (body.messages as VonagePart[]) : [];
    if (!response.ok || parts.length === 0) {
      return {
        outcome: "failed",
        permanent: isPermanentStatus(response.status),
        errorCode: String(response.status),
        error: `Vonage answered ${response.status}.`,
      };
    }
    const refused = parts.find((part) => part.status !== "0");
    if (!refused) return { outcome: "accepted", providerRef: parts[0]["message-id"] ?? null };
    const code = refused.status ?? "unknown";
    return {
      outcome: "failed",
      permanent: !transientCodes.has(code),
      errorCode: code,
      error: `Vonage refused the message (status ${code}): ${refused["error-text"] ?? "no error text"}`,
    };
  },
  reportSignature: (credentials) => {
    const secret = credentials.signatureSecret;
    if (!secret) return null;
    return async ({ params }) => signatureMatches(params.sig, await vonageSignature(secret, params));
  },
  readReport({ params }) {
    const status = statuses[params.status ?? ""];
    if (!status || !(params["client-ref"] || params.messageId)) return null;
    const errorCode = params["err-code"] && params["err-code"] !== "0" ? params["err-code"] : null;
    return {
      messageId: params["client-ref"] || undefined,
      providerRef: params.messageId,
      status,
      errorCode,
      detail: `Vonage reported ${params.status} for part ${params.messageId ?? "?"}.`,
    };
  },
  reportAnswer: () => new Response(null, { status: 204 }),
};
