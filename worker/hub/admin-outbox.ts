import { access } from "../auth/scopes";
import { z } from "@hono/zod-openapi";
import { and, asc, count, desc, eq, inArray, lt, type SQL } from "drizzle-orm";
import { getDb, inJsonArray, type Db } from "../lib/db";
import { notFound } from "../lib/errors";
import { createRouter, defineRoute } from "../auth/router";
import { jsonResponse, problems } from "../lib/schemas";
import { SmsMessage, SmsRouteInfo, SmsTrailEntry } from "./schemas";
import { loadRoutes, publicCallbackUrl } from "./sms-routes";
import { smsMessages, smsRouteHealth, smsStatuses, smsTrail, waitingStatuses } from "./table";

/** The SMS outbox, each message's trail, and the routes with their health. */
export const outboxAdminRoutes = createRouter();

const tags = ["Admin: hub"];

const MessagesQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().optional().openapi({ description: "`nextCursor` of the previous page." }),
  status: z.enum(smsStatuses).optional(),
  projectId: z.string().optional(),
});

const toMessage = (row: typeof smsMessages.$inferSelect): z.infer<typeof SmsMessage> => ({
  id: row.id,
  projectId: row.projectId,
  clientId: row.clientId,
  receiver: row.receiver,
  sender: row.sender,
  message: row.text,
  dcs: row.encoding,
  segments: row.segments,
  provider: row.provider,
  status: row.status,
  providerRef: row.providerRef,
  errorCode: row.errorCode,
  attempts: row.attempts,
  nextAttempt: row.nextAttempt,
  lastError: row.lastError,
  expires: row.expires,
  textPurged: row.textPurged,
  created: row.created,
  updated: row.updated,
});

const MessageWithTrail = SmsMessage.extend({ trail: z.array(SmsTrailEntry) }).openapi("SmsMessageWithTrail");

const trailColumns = {
  messageId: smsTrail.messageId,
  seq: smsTrail.seq,
  at: smsTrail.at,
  status: smsTrail.status,
  route: smsTrail.route,
  errorCode: smsTrail.errorCode,
  detail: smsTrail.detail,
};

/** The trails of a page of messages in one query (ids travel as one JSON parameter: a page may exceed D1's 100). */
async function trailsOf(db: Db, ids: string[]) {
  const rows = await db
    .select(trailColumns)
    .from(smsTrail)
    .where(inJsonArray(smsTrail.messageId, ids))
    .orderBy(asc(smsTrail.messageId), asc(smsTrail.seq));
  const byMessage = new Map<string, z.infer<typeof SmsTrailEntry>[]>();
  for (const { messageId, ...entry } of rows) byMessage.set(messageId, [...(byMessage.get(messageId) ?? []), entry]);
  return byMessage;
}

outboxAdminRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/messages",
    operationId: "listSmsMessages",
    tags,
    ...access.admin,
    summary: "List the SMS outbox, newest first",
    description:
      "Each message with its trail (every status change, failed attempt and reroute, in order). Keyset pagination: " +
      "pass `nextCursor` as `cursor` for the next page; it is null on the last page.",
    request: { query: MessagesQuery },
    responses: {
      200: jsonResponse(z.object({ items: z.array(MessageWithTrail), nextCursor: z.string().nullable() }), "A page of messages."),
      ...problems,
    },
  }),
  async (c) => {
    const { limit, cursor, status, projectId } = c.req.valid("query");
    const filters: SQL[] = [];
    if (cursor) filters.push(lt(smsMessages.id, cursor));
    if (status) filters.push(eq(smsMessages.status, status));
    if (projectId) filters.push(eq(smsMessages.projectId, projectId));
    const db = getDb(c.var.db);
    const rows = await db
      .select()
      .from(smsMessages)
      .where(and(...filters))
      .orderBy(desc(smsMessages.id))
      .limit(limit + 1);
    const page = rows.slice(0, limit);
    const trails = await trailsOf(db, page.map((row) => row.id));
    return c.json(
      {
        items: page.map((row) => ({ ...toMessage(row), trail: trails.get(row.id) ?? [] })),
        nextCursor: rows.length > limit ? page[page.length - 1].id : null,
      },
      200,
    );
  },
);


outboxAdminRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/messages/{messageId}",
    operationId: "getSmsMessage",
    tags,
    ...access.admin,
    summary: "Read one SMS with its trail",
    description: "The trail lists every change in order: each status, each failed attempt, each reroute to a fallback route.",
    request: { params: z.object({ messageId: z.string() }) },
    responses: {
      200: jsonResponse(MessageWithTrail, "The message."),
      ...problems,
    },
  }),
  async (c) => {
    const { messageId } = c.req.valid("param");
    const db = getDb(c.var.db);
    const [rows, trails] = await Promise.all([
      db.select().from(smsMessages).where(eq(smsMessages.id, messageId)).limit(1),
      trailsOf(db, [messageId]),
    ]);
    if (!rows[0]) throw notFound("Message");
    return c.json({ ...toMessage(rows[0]), trail: trails.get(messageId) ?? [] }, 200);
  },
);

outboxAdminRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/sms/routes",
    operationId: "listSmsRoutes",
    tags,
    ...access.admin,
    summary: "List the SMS routes and their health",
    description:
      "The routes configured in `SMS_ROUTES` (and `sms_hub`, always), each with its adapter, fallback and validity, " +
      "whether its credentials are set (they are never shown), its last success and error, and the messages waiting on it.",
    responses: { 200: jsonResponse(z.object({ items: z.array(SmsRouteInfo) }), "The routes."), ...problems },
  }),
  async (c) => {
    const routes = [...loadRoutes(c.env).values()];
    const db = getDb(c.var.db);
    const names = routes.map((r) => r.name);
    const [health, waiting] = await db.batch([
      db.select().from(smsRouteHealth).where(inArray(smsRouteHealth.route, names)),
      db
        .select({ route: smsMessages.provider, waiting: count() })
        .from(smsMessages)
        .where(and(inArray(smsMessages.provider, names), inArray(smsMessages.status, waitingStatuses)))
        .groupBy(smsMessages.provider),
    ]);
    const items = routes.map((route) => {
      const h = health.find((row) => row.route === route.name);
      return {
        name: route.name,
        adapter: route.adapterName,
        baseUrl: route.baseUrl,
        fallback: route.fallback,
        validityHours: route.validityMs / 3_600_000,
        failoverAfter: route.failoverAfter,
        configured: route.credentials !== null,
        problem: route.problem,
        callbackUrl: publicCallbackUrl(c.env, route.name),
        lastSuccess: h?.lastSuccess ?? null,
        lastError: h?.lastError ?? null,
        lastErrorAt: h?.lastErrorAt ?? null,
        consecutiveFailures: h?.consecutiveFailures ?? 0,
        waiting: waiting.find((row) => row.route === route.name)?.waiting ?? 0,
      };
    });
    return c.json({ items }, 200);
  },
);
