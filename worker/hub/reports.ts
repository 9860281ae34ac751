import { z } from "@hono/zod-openapi";
import { access } from "../auth/scopes";
import { and, eq, or } from "drizzle-orm";
import { bodyLimit } from "hono/body-limit";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { committerOf } from "../events/commit";
import { constantTimeEqual } from "../lib/crypto";
import { getDb } from "../lib/db";
import { ApiError, notFound } from "../lib/errors";
import { createRouter, defineRoute } from "../auth/router";
import { Problem } from "../lib/schemas";
import type { Callback, DeliveryReport } from "./providers/types";
import { callbackToken, loadRoutes, type SmsRoute } from "./sms-routes";
import { applyChange } from "./status";
import { smsMessages, type OutboxMessage, type SmsStatus } from "./table";

export const deliveryReportRoutes = createRouter();

const maxReportBytes = 64 * 1024;

/** Statuses only move forward: waiting, then accepted, then a final one; a report that would go back changes nothing. */
const rank: Record<SmsStatus, number> = {
  pending: 0,
  retrying: 0,
  accepted: 1,
  delivered: 2,
  undelivered: 2,
  failed: 2,
  expired: 2,
  outbox_only: 2,
};

/** Query parameters, then a form or JSON body's top-level fields (as strings: JSON numbers such as Sinch's `code`). */
async function readCallback(c: Context<AppEnv>): Promise<Callback> {
  const query = Object.fromEntries(new URL(c.req.url).searchParams);
  const bodyParams: Record<string, string> = {};
  const type = (c.req.header("content-type") ?? "").split(";")[0].trim().toLowerCase();
  const text = c.req.method === "POST" ? new TextDecoder().decode(await c.req.arrayBuffer()) : "";
  if (type === "application/x-www-form-urlencoded") {
    for (const [key, value] of new URLSearchParams(text)) bodyParams[key] = value;
  } else if (type === "application/json" && text) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ApiError(400, "malformed_json", "The delivery report is not valid JSON.");
    }
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
      for (const [key, value] of Object.entries(parsed)) {
        if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") bodyParams[key] = String(value);
      }
    }
  }
  return { url: c.req.url, headers: c.req.raw.headers, bodyParams, params: { ...query, ...bodyParams } };
}

async function authentic(route: SmsRoute, callback: Callback): Promise<boolean> {
  if (route.credentials === null) return false;
  const signature = route.adapter.reportSignature(route.credentials);
  if (signature) return signature(callback);
  const presented = new URL(callback.url).searchParams.get("token");
  return presented !== null && constantTimeEqual(presented, await callbackToken(route));
}

/** The message a report is about, on this route: by our outbox id where the provider echoes it, else by its own id. */
async function findMessage(c: Context<AppEnv>, route: string, report: DeliveryReport): Promise<OutboxMessage | undefined> {
  const matches = [
    ...(report.messageId ? [eq(smsMessages.id, report.messageId)] : []),
    ...(report.providerRef ? [eq(smsMessages.providerRef, report.providerRef)] : []),
  ];
  if (matches.length === 0) return undefined;
  const [row] = await getDb(c.var.db)
    .select()
    .from(smsMessages)
    .where(and(eq(smsMessages.provider, route), or(...matches)))
    .limit(1);
  return row;
}

const reportBodies = {
  "application/x-www-form-urlencoded": { schema: { type: "object" as const, additionalProperties: { type: "string" as const } } },
  "application/json": { schema: { type: "object" as const } },
};

const reportRoute = (method: "get" | "post") =>
  defineRoute({
    method,
    path: "/{route}",
    operationId: method === "post" ? "receiveSmsDeliveryReport" : "receiveSmsDeliveryReportByGet",
    tags: ["Hub"],
    ...access.public,
    summary: `Delivery report of an SMS provider (${method.toUpperCase()})`,
    description:
      "Called by the route's provider, not by clients: each message handed off names this URL (Twilio `StatusCallback`, " +
      "Vonage `callback`, Sinch `callback_url`, 46elks `whendelivered`, the gateway's `statusCallback`). No bearer " +
      "token: Twilio reports must carry a valid `X-Twilio-Signature`, Vonage reports a valid `sig` when the route has a " +
      "`signatureSecret`, all others the route's secret `token` query parameter; otherwise 403 `invalid_signature` and " +
      "nothing changes. Reports of unknown messages, replays and reports that would move a status backwards change " +
      "nothing and get the provider's usual success answer, so it does not resend them. Vonage may use GET.",
    request: {
      params: z.object({ route: z.string() }),
      // Each provider's own shape, read raw (signatures cover the exact parameters): plain schemas, no validator.
      ...(method === "post" ? { body: { required: false, content: reportBodies } } : {}),
    },
    responses: {
      200: { description: "Taken (or ignored: unknown message, replay, untracked status)." },
      204: { description: "Taken (Vonage)." },
      403: { description: "Forged: the signature or token does not match.", content: { "application/problem+json": { schema: Problem } } },
      404: { description: "No such route.", content: { "application/problem+json": { schema: Problem } } },
      413: { description: "Larger than 64 KiB.", content: { "application/problem+json": { schema: Problem } } },
    },
  });

async function takeReport(c: Context<AppEnv>, routeName: string): Promise<Response> {
  const route = loadRoutes(c.env).get(routeName);
  if (!route) throw notFound("SMS route");
  const callback = await readCallback(c);
  if (!(await authentic(route, callback))) {
    throw new ApiError(403, "invalid_signature", "The delivery report's signature or token does not match this route.");
  }
  const report = route.adapter.readReport(callback);
  const row = report ? await findMessage(c, route.name, report) : undefined;
  if (report && row && rank[report.status] > rank[row.status]) {
    await applyChange(
      committerOf(c),
      row,
      {
        status: report.status,
        detail: report.detail,
        errorCode: report.errorCode,
        set: { nextAttempt: null, ...(report.errorCode ? { lastError: report.detail } : {}) },
      },
      new Date().toISOString(),
    );
  }
  return route.adapter.reportAnswer();
}

const limit = bodyLimit({
  maxSize: maxReportBytes,
  onError: () => {
    throw new ApiError(413, "payload_too_large", `A delivery report is at most ${maxReportBytes} bytes.`);
  },
});

deliveryReportRoutes.use("*", limit);
deliveryReportRoutes.openapi(reportRoute("post"), (c) => takeReport(c, c.req.valid("param").route));
deliveryReportRoutes.openapi(reportRoute("get"), (c) => takeReport(c, c.req.valid("param").route));
