import { z } from "@hono/zod-openapi";
import { characterCount, hasLoneSurrogate } from "./encoding";
import { smsStatuses } from "./table";

/** E.164: a "+", a country code that does not start with 0, and at most 15 digits in all (at least 7). */
const e164 = /^\+[1-9][0-9]{6,14}$/;

export const TelAddress = z
  .string()
  .regex(/^tel:\+[1-9][0-9]{6,14}$/, "A tel: URI with an E.164 number: tel:+<country code><number>, digits only.")
  .openapi({ example: "tel:+46701234567" });

export const SenderAddress = z
  .string()
  .regex(
    /^tel:(\+[1-9][0-9]{6,14}|[0-9]{3,8})$/,
    "A tel: URI with an E.164 number (tel:+46701234567) or a short code of 3 to 8 digits (tel:72000).",
  )
  .openapi({ example: "tel:+46701234567" });

/** Receivers of the generic payload: E.164 with its "+"; a leading tel: is accepted and dropped. */
export const Receiver = z
  .string()
  .transform((value) => value.replace(/^tel:/, ""))
  .refine((value) => e164.test(value), "A number with its country code in E.164 form: +<country code><number>.")
  .openapi({ type: "string", example: "+46701234567" });

/** Alphanumeric sender ids are limited to 11 characters by GSM; they need a letter, or they read as numbers. */
const alphanumericSender = /^(?=.*[A-Za-z])[A-Za-z0-9 .&_-]{1,11}$/;

export const SenderName = z
  .string()
  .regex(alphanumericSender, "An alphanumeric sender id: 1 to 11 letters, digits, space or . & _ -, with a letter.")
  .openapi({ example: "DemoShop" });

export const Sender = z
  .string()
  .refine(
    (value) => alphanumericSender.test(value) || e164.test(value) || /^[0-9]{3,8}$/.test(value),
    "An alphanumeric sender id (1 to 11 letters, digits, space or . & _ -, with a letter), an E.164 number or a short code.",
  )
  .openapi({ example: "DemoShop" });

const noControlCharacters = (text: string) => !/[\u0000-\u0009\u000B\u000C\u000E-\u001F\u007F]/.test(text);

export const maxDcpMessageCharacters = 160;
export const maxDcpRecipients = 50;

export const OutboundSmsRequest = z
  .strictObject({
    outboundSMSMessageRequest: z.strictObject({
      address: z
        .array(TelAddress)
        .min(1)
        .max(maxDcpRecipients)
        .refine((list) => new Set(list).size === list.length, "Each recipient may appear once.")
        .openapi({ description: `1 to ${maxDcpRecipients} distinct recipients; each gets its own message.` }),
      senderAddress: SenderAddress,
      senderName: SenderName.optional().openapi({ description: "Shown as the sender when given." }),
      outboundSMSTextMessage: z.strictObject({
        message: z
          .string()
          .min(1)
          .refine((text) => characterCount(text) <= maxDcpMessageCharacters, {
            message: `At most ${maxDcpMessageCharacters} characters.`,
            abort: true,
          })
          .refine((text) => !hasLoneSurrogate(text) && noControlCharacters(text), "Plain text: no control characters other than line breaks.")
          .openapi({
            description:
              `Plain text of 1 to ${maxDcpMessageCharacters} characters (Unicode code points, not bytes). ` +
              "Sent as GSM 03.38 when every character fits its alphabet, as UCS-2 otherwise.",
            example: "Your order has shipped.",
          }),
      }),
    }),
  })
  .openapi("OutboundSMSMessageRequest");

export const maxGenericSegments = 10;

export const GenericSmsPayload = z
  .strictObject({
    genericSMSMessagePayload: z.strictObject({
      receiver: Receiver,
      sender: Sender.openapi({ description: "Refused when on the operator's sender blacklist." }),
      message: z
        .string()
        .min(1)
        .refine((text) => !hasLoneSurrogate(text), "Text with no UTF-8 form (a lone surrogate).")
        .openapi({
          description: `UTF-8 text; concatenated when longer than one SMS, up to ${maxGenericSegments} parts.`,
          example: "Your code is 123456",
        }),
      dcs: z
        .enum(["gsm", "ucs"])
        .optional()
        .openapi({ description: "gsm (GSM 03.38) or ucs (UCS-2). When absent: gsm if the text fits its alphabet, else ucs." }),
      provider: z
        .string()
        .default("sms_hub")
        .openapi({ description: "The SMS route that sends the message: one the operator configured (`GET /admin/v1/sms/routes`); sms_hub is the default." }),
      auth: z
        .strictObject({ username: z.string().min(1).max(200), password: z.string().min(1).max(1024) })
        .optional()
        .openapi({
          description:
            "Credentials of a registered sms_hub provider user. Required when the calling client is not registered " +
            "for SMS by the operator; checked whenever present.",
        }),
    }),
  })
  .openapi("GenericSMSMessagePayload");

export const Asset = z
  .strictObject({
    id: z.string().min(1).max(128),
    display_name: z.string().max(200).optional(),
    asset_code: z.string().max(64).optional(),
  })
  .openapi("Asset");

export const CustomerLookupResult = z
  .object({
    tscid: z.string().optional().openapi({
      description: "The customer cache id mapped to the billing account; it can differ from the account's actual tscid.",
    }),
    assets: z.array(Asset).optional(),
  })
  .openapi("CustomerLookupResult");

/** Billing-account ids travel in paths: URL-friendly and bounded. */
export const BillingAccountId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9._~-]+$/, "Use letters, digits and - . _ ~ only.")
  .openapi({ example: "1000123456" });

export const BillingAccountInput = z
  .strictObject({
    tscid: z.string().min(1).max(128).openapi({ description: "The account's actual tscid." }),
    customerCacheId: z
      .string()
      .min(1)
      .max(128)
      .optional()
      .openapi({ description: "Returned as `tscid` by the lookup; when absent the lookup returns the actual tscid." }),
    assets: z
      .array(Asset)
      .max(1000)
      .refine((list) => new Set(list.map((a) => a.id)).size === list.length, "Asset ids must be unique within an account."),
  })
  .openapi("BillingAccountInput");

// Spread, not .extend(): extending a registered closed schema publishes an allOf no object can satisfy.
export const BillingAccountImportItem = z
  .strictObject({ ...BillingAccountInput.shape, billingAccount: BillingAccountId })
  .openapi("BillingAccountImportItem");

export const BillingAccount = z
  .object({
    billingAccount: z.string(),
    tscid: z.string(),
    customerCacheId: z.string().nullable(),
    assets: z.array(Asset),
    updated: z.string(),
  })
  .openapi("BillingAccount");

export const SmsMessage = z
  .object({
    id: z.string(),
    projectId: z.string(),
    clientId: z.string(),
    receiver: z.string().openapi({ example: "+46701234567" }),
    sender: z.string(),
    message: z.string(),
    dcs: z.enum(["gsm", "ucs"]),
    segments: z.number().int(),
    provider: z.string(),
    status: z.enum(smsStatuses).openapi({
      description:
        "pending: written, hand-off in progress. retrying: a hand-off failed transiently; the cron pass tries again " +
        "(`nextAttempt`). accepted: the provider took it; its delivery report is awaited. delivered, undelivered, " +
        "failed (with the provider's `errorCode`; also a hand-off error that cannot succeed on retry), expired (the " +
        "validity period ended before any hand-off succeeded): final. outbox_only: no upstream is configured (local " +
        "development), so the outbox is the end of the line.",
    }),
    providerRef: z.string().nullable().openapi({ description: "The provider's id for the message (Twilio SID, Sinch batch id …)." }),
    errorCode: z.string().nullable().openapi({ description: "The provider's error code of the last failure or failed report." }),
    attempts: z.number().int().openapi({ description: "Hand-offs tried so far." }),
    nextAttempt: z.string().nullable(),
    lastError: z.string().nullable(),
    expires: z.string().openapi({ description: "End of the validity period: a message still waiting then expires." }),
    textPurged: z.string().nullable().openapi({ description: "When the text was blanked after its retention period." }),
    created: z.string(),
    updated: z.string(),
  })
  .openapi("SmsMessage");

export const SmsTrailEntry = z
  .object({
    seq: z.number().int(),
    at: z.string(),
    status: z.enum(smsStatuses),
    route: z.string().openapi({ description: "The route that carried the message at that point (it changes on failover)." }),
    errorCode: z.string().nullable(),
    detail: z.string().nullable(),
  })
  .openapi("SmsTrailEntry");

export const SmsRouteInfo = z
  .object({
    name: z.string().openapi({ example: "sms_hub" }),
    adapter: z.string().openapi({ example: "46elks" }),
    baseUrl: z.string().nullable(),
    fallback: z.string().nullable(),
    validityHours: z.number(),
    failoverAfter: z.number().int(),
    configured: z.boolean().openapi({ description: "Whether its credentials are present and well-formed (never shown)." }),
    problem: z.string().nullable(),
    callbackUrl: z.string().nullable().openapi({ description: "Delivery reports arrive here (a secret token is added per message where the provider does not sign)." }),
    lastSuccess: z.string().nullable(),
    lastError: z.string().nullable(),
    lastErrorAt: z.string().nullable(),
    consecutiveFailures: z.number().int(),
    waiting: z.number().int().openapi({ description: "Messages pending or retrying on this route." }),
  })
  .openapi("SmsRoute");
