import { access } from "../auth/scopes";
import { z } from "@hono/zod-openapi";
import { accepts } from "hono/accepts";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { defaultDatabase } from "../lib/databases";
import { ApiError, badRequest, notFound } from "../lib/errors";
import { createRouter, defineRoute } from "../auth/router";
import { jsonBody, jsonResponse, Problem, problems } from "../lib/schemas";
import { smsAccess } from "./access";
import { lookupBillingAccount } from "./accounts";
import { chooseDcs, firstNonGsm, segmentCount } from "./encoding";
import { committerOf } from "../events/commit";
import { sendThroughOutbox } from "./outbox";
import { defaultRoute, loadRoutes } from "./sms-routes";
import { passwordMatches } from "./passwords";
import { BillingAccountId, CustomerLookupResult, GenericSmsPayload, maxGenericSegments, OutboundSmsRequest } from "./schemas";

/** The hub's API for backend clients (the interface's `{hub_url}`), mounted at `/v1`. */
export const hubRoutes = createRouter();

const tags = ["Hub"];
const problem = (description: string) => ({ description, content: { "application/problem+json": { schema: Problem } } });
const accepted = { 200: { description: "Accepted: written to the outbox and handed on. No body." } };
const unhandled = { 500: problem("An unhandled error (logged).") };

/**
 * 406 unless the Accept header admits application/json (hono's accepts; an absent header admits everything). The
 * any-type wildcard is listed as supported because hono's default match leaves a bare wildcard to the default, which
 * here is the refusal.
 */
const acceptsJson = createMiddleware<AppEnv>(async (c, next) => {
  const refused = "";
  if (c.req.header("accept") && accepts(c, { header: "Accept", supports: ["application/json", "*/*"], default: refused }) === refused) {
    throw new ApiError(406, "not_acceptable", "This resource is available as application/json only.");
  }
  await next();
});

/**
 * The hub's tables are global, in `DB` whoever calls (worker/lib/databases.ts): the hub's own routes keep the call
 * there, where the access check had put the caller's project's database.
 */
const onHubTables = createMiddleware<AppEnv>(async (c, next) => {
  c.set("db", c.var.databases.named(defaultDatabase));
  await next();
});

const fieldError = (status: 400 | 403, code: string, path: string, detail: string) =>
  new ApiError(status, code, detail, { errors: [{ path, message: detail, code }] });

const smsAccessRules =
  "Needs the scope `hub:sms`, which only backend clients hold (others, and identity-scoped tokens, get 403 " +
  "`insufficient_scope`). Every accepted " +
  "message is written to the outbox before it is handed to its provider; a failed hand-off is retried by a cron " +
  "pass until it succeeds, so the 200 means accepted, not delivered. Senders on the operator's blacklist " +
  "(`/admin/v1/sms/blacklist`) are refused with 400 `sender_blacklisted`.";

hubRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/dcp/sms",
    operationId: "sendDcpSms",
    ...access.client("hub:sms"),
    middleware: [onHubTables],
    tags,
    summary: "Send an SMS (outbound SMS request)",
    description:
      `${smsAccessRules} This endpoint has no per-message credentials, so only clients the operator has registered ` +
      "for SMS (`PUT /admin/v1/sms/clients/{clientId}`) may use it; others get 403 `sms_not_enabled`. " +
      "The message is at most 160 characters, counted in Unicode code points (not bytes); it is sent as GSM 03.38 " +
      "when every character fits that alphabet and as UCS-2 otherwise (so 160 non-GSM characters take 3 parts). " +
      "Each address gets its own message. `outboundSMSTextMessage` is required here: an SMS without text cannot be sent.",
    request: { body: jsonBody(OutboundSmsRequest) },
    responses: { ...accepted, ...problems, ...unhandled },
  }),
  async (c) => {
    const caller = c.get("caller");
    const request = c.req.valid("json").outboundSMSMessageRequest;
    const senderNumber = request.senderAddress.slice("tel:".length);
    const sending = await smsAccess(c.var.db, caller.clientId, [senderNumber, ...(request.senderName ? [request.senderName] : [])]);
    if (!sending.registered) {
      throw new ApiError(403, "sms_not_enabled", "This client is not registered for SMS; ask the operator to register it.");
    }
    if (request.senderName && sending.isBlacklisted(request.senderName)) {
      throw fieldError(400, "sender_blacklisted", "outboundSMSMessageRequest.senderName", "This sender is blacklisted.");
    }
    if (sending.isBlacklisted(senderNumber)) {
      throw fieldError(400, "sender_blacklisted", "outboundSMSMessageRequest.senderAddress", "This sender is blacklisted.");
    }
    const text = request.outboundSMSTextMessage.message;
    const dcs = chooseDcs(text);
    const segments = segmentCount(text, dcs);
    const sender = request.senderName ?? senderNumber;
    await sendThroughOutbox(
      committerOf(c),
      caller,
      request.address.map((address) => ({
        receiver: address.slice("tel:".length),
        sender,
        text,
        dcs,
        segments,
        provider: defaultRoute,
      })),
    );
    return c.body(null, 200);
  },
);

hubRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/sms",
    operationId: "sendSms",
    ...access.client("hub:sms"),
    middleware: [onHubTables],
    tags,
    summary: "Send an SMS through a provider (generic payload)",
    description:
      `${smsAccessRules} \`provider\` names one of the operator's SMS routes (\`GET /admin/v1/sms/routes\`); ` +
      "`sms_hub` is the default. A name that is not configured is 400 `unknown_provider`, naming the configured ones. " +
      "Who may use sms_hub: a client the operator has registered for SMS sends without `auth`; any other backend " +
      "client must send `auth` with a registered provider user's name and password (absent: 400 " +
      "`provider_auth_required`; wrong: 403 `provider_auth_failed`). `auth` is checked whenever it is present. " +
      "`dcs: gsm` with a character outside GSM 03.38 is 400 `not_gsm_encodable`; a text longer than " +
      `${maxGenericSegments} parts is 400 \`message_too_long\`.`,
    request: { body: jsonBody(GenericSmsPayload) },
    responses: { ...accepted, ...problems, ...unhandled },
  }),
  async (c) => {
    const caller = c.get("caller");
    const payload = c.req.valid("json").genericSMSMessagePayload;
    const at = (field: string) => `genericSMSMessagePayload.${field}`;
    const routes = loadRoutes(c.env);
    if (!routes.has(payload.provider)) {
      throw fieldError(400, "unknown_provider", at("provider"), `Unknown provider ${JSON.stringify(payload.provider)}; configured: ${[...routes.keys()].join(", ")}.`);
    }
    if (payload.dcs === "gsm") {
      const outside = firstNonGsm(payload.message);
      if (outside !== undefined) {
        throw fieldError(400, "not_gsm_encodable", at("message"), `${JSON.stringify(outside)} is not in the GSM 03.38 alphabet; send dcs ucs or leave dcs out.`);
      }
    }
    const dcs = payload.dcs ?? chooseDcs(payload.message);
    const segments = segmentCount(payload.message, dcs);
    if (segments > maxGenericSegments) {
      throw fieldError(400, "message_too_long", at("message"), `The text takes ${segments} SMS parts; at most ${maxGenericSegments} are sent.`);
    }
    const sending = await smsAccess(c.var.db, caller.clientId, [payload.sender], payload.auth?.username);
    if (sending.isBlacklisted(payload.sender)) {
      throw fieldError(400, "sender_blacklisted", at("sender"), "This sender is blacklisted.");
    }
    if (payload.auth) {
      if (!(await passwordMatches(payload.auth.password, sending.passwordHash))) {
        throw fieldError(403, "provider_auth_failed", at("auth"), "Unknown provider user or wrong password.");
      }
    } else if (!sending.registered) {
      throw badRequest("provider_auth_required", "This client is not registered for SMS: send `auth` with a provider user's credentials.", [
        { path: at("auth"), message: "Required for clients not registered for SMS.", code: "provider_auth_required" },
      ]);
    }
    await sendThroughOutbox(committerOf(c), caller, [
      { receiver: payload.receiver, sender: payload.sender, text: payload.message, dcs, segments, provider: payload.provider },
    ]);
    return c.body(null, 200);
  },
);

hubRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/customerLookup/servicehub/{billing_account}",
    operationId: "lookupCustomer",
    ...access.client("hub:lookup"),
    tags,
    summary: "Look up a billing account's customer and assets",
    description:
      "Needs the scope `hub:lookup` (backend clients only). The `tscid` returned is the customer cache id mapped to the billing account, which can " +
      "differ from the account's actual tscid (it falls back to the actual one when no mapping is stored). Billing " +
      "accounts are operator data shared by all projects: read through from the operator's billing system when " +
      "`BILLING_UPSTREAM_URL` is set, else loaded through the admin API (read directly, so a change is seen at once). " +
      "The billing system's answers are kept in D1 (found: at most 10 min, missing: 1 min; never older) and admin " +
      "writes drop them. A failing billing system is 502 `upstream_failed`, a slow one 504 `upstream_timeout`.",
    middleware: [onHubTables, acceptsJson],
    request: { params: z.object({ billing_account: BillingAccountId }) },
    responses: {
      200: jsonResponse(CustomerLookupResult, "The customer lookup result."),
      ...problems,
      404: problem("No such billing account."),
      406: problem("The Accept header excludes application/json."),
      502: problem("The billing system failed or answered something that is not a billing account."),
      504: problem("The billing system did not answer in time."),
    },
  }),
  async (c) => {
    const result = await lookupBillingAccount(c.env, c.var.db, c.req.valid("param").billing_account);
    if (!result) throw notFound("Billing account");
    return c.json(result, 200);
  },
);

