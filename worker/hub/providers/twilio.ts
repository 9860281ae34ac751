import { z } from "@hono/zod-openapi";
import { twilioSignature, signatureMatches } from "./signatures";
import { basicAuth, clamp, isPermanentStatus, readJson, send, unreachable, type ProviderAdapter, type ReportedStatus } from "./types";

const Credentials = z.object({
  accountSid: z.string().regex(/^AC[0-9a-zA-Z]+$/, "An account SID starts with AC."),
  /** Signs the status callbacks, and authenticates the request unless an API key is given. */
  authToken: z.string().min(1),
  apiKeySid: z.string().regex(/^SK[0-9a-zA-Z]+$/, "An API key SID starts with SK.").optional(),
  apiKeySecret: z.string().min(1).optional(),
});

const Options = z
  .object({
    /** Send through a Messaging Service (its sender pool) instead of the message's own sender. */
    messagingServiceSid: z.string().regex(/^MG[0-9a-zA-Z]+$/, "A Messaging Service SID starts with MG.").optional(),
  })
  .strict();

/** Twilio's MessageStatus values that we track; the rest (scheduled, canceled, receiving …) are left alone. */
const statuses: Record<string, ReportedStatus> = {
  accepted: "accepted",
  queued: "accepted",
  sending: "accepted",
  sent: "accepted",
  delivered: "delivered",
  undelivered: "undelivered",
  failed: "failed",
};

/**
 * Twilio Programmable Messaging: `POST /2010-04-01/Accounts/{AccountSid}/Messages.json`, form-encoded `To`, `From`
 * (or `MessagingServiceSid`), `Body`, `StatusCallback`, `ValidityPeriod`; HTTP Basic with the account SID and auth token, or an API key
 * SID and secret. Twilio picks GSM or UCS-2 from the text itself (no flag) and takes no client reference, so a
 * repeated hand-off after a lost answer can send twice.
 */
export const twilio: ProviderAdapter<z.infer<typeof Credentials>, z.infer<typeof Options>> = {
  credentials: Credentials,
  options: Options,
  defaultBaseUrl: () => "https://api.twilio.com",
  async handOff({ message, credentials, options, baseUrl, callbackUrl, validForMs }) {
    // ValidityPeriod: seconds the message may wait in Twilio's queue (1 to 36000); our remaining validity.
    const form = new URLSearchParams({ To: message.receiver, Body: message.text, ValidityPeriod: String(clamp(validForMs / 1000, 1, 36_000)) });
    if (options.messagingServiceSid) form.set("MessagingServiceSid", options.messagingServiceSid);
    else form.set("From", message.sender);
    if (callbackUrl) form.set("StatusCallback", callbackUrl);
    const [user, password] =
      credentials.apiKeySid && credentials.apiKeySecret
        ? [credentials.apiKeySid, credentials.apiKeySecret]
        : [credentials.accountSid, credentials.authToken];
    const response = await send(`${baseUrl}/2010-04-01/Accounts/${encodeURIComponent(credentials.accountSid)}/Messages.json`, {
      method: "POST",
      headers: { authorization: basicAuth(user, password), "content-type": "application/x-www-form-urlencoded" },
      body: form.toString(),
    });
    if ("networkError" in response) return unreachable("Twilio", response.networkError);
    const body = await readJson(response);
    if (response.ok && typeof body?.sid === "string") return { outcome: "accepted", providerRef: body.sid };
    const code = body?.code === undefined || body?.code === null ? String(response.status) : String(body.code);
    return {
      outcome: "failed",
      permanent: isPermanentStatus(response.status),
      errorCode: code,
      error: `Twilio answered ${response.status}: ${typeof body?.message === "string" ? body.message : "no message"}`,
    };
  },
  reportSignature: (credentials) => async (callback) => {
    const expected = await twilioSignature(credentials.authToken, callback.url, callback.bodyParams);
    return signatureMatches(callback.headers.get("x-twilio-signature"), expected);
  },
  readReport({ bodyParams }) {
    const status = statuses[bodyParams.MessageStatus ?? ""];
    if (!status || !bodyParams.MessageSid) return null;
    const errorCode = bodyParams.ErrorCode && bodyParams.ErrorCode !== "0" ? bodyParams.ErrorCode : null;
    return { providerRef: bodyParams.MessageSid, status, errorCode, detail: `Twilio reported ${bodyParams.MessageStatus}.` };
  },
  reportAnswer: () => new Response("<Response/>", { status: 200, headers: { "content-type": "text/xml" } }),
};
