import { z } from "@hono/zod-openapi";
import { basicAuth, emptyOk, isPermanentStatus, readJson, send, unreachable, type ProviderAdapter, type ReportedStatus } from "./types";

const Credentials = z.object({ username: z.string().min(1), password: z.string().min(1) });

const statuses: Record<string, ReportedStatus> = { sent: "accepted", delivered: "delivered", failed: "failed" };

/**
 * 46elks: `POST /a1/sms`, form-encoded `from`, `to` (E.164), `message` and `whendelivered` (the delivery-report URL);
 * HTTP Basic with the API username and password. 46elks picks GSM or UCS-2 from the text (no flag), takes no client
 * reference and does not deduplicate; its errors are plain text (403 "Not enough credits", 400 "Invalid to number" …).
 */
export const elks46: ProviderAdapter<z.infer<typeof Credentials>, Record<string, never>> = {
  credentials: Credentials,
  options: z.object({}).strict(),
  defaultBaseUrl: () => "https://api.46elks.com",
  async handOff({ message, credentials, baseUrl, callbackUrl }) {
    const form = new URLSearchParams({ from: message.sender, to: message.receiver, message: message.text });
    if (callbackUrl) form.set("whendelivered", callbackUrl);
    const response = await send(`${baseUrl}/a1/sms`, {
      method: "POST",
      headers: { authorization: basicAuth(credentials.username, credentials.password), "content-type": "application/x-www-form-urlencoded" },
      body: form.toString(),
    });
    if ("networkError" in response) return unreachable("46elks", response.networkError);
    if (response.ok) {
      const body = await readJson(response);
      if (typeof body?.id === "string") return { outcome: "accepted", providerRef: body.id };
    }
    const text = response.ok ? "an answer without an id" : (await response.text()).slice(0, 200);
    return {
      outcome: "failed",
      permanent: isPermanentStatus(response.status),
      errorCode: String(response.status),
      error: `46elks answered ${response.status}: ${text}`,
    };
  },
  reportSignature: () => null,
  readReport({ params }) {
    const status = statuses[params.status ?? ""];
    if (!status || !params.id) return null;
    return { providerRef: params.id, status, errorCode: null, detail: `46elks reported ${params.status}.` };
  },
  reportAnswer: emptyOk,
};
