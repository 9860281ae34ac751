import { access } from "../auth/scopes";
import { createRoute, z } from "@hono/zod-openapi";
import { and, desc, eq, lt, sql, type SQL } from "drizzle-orm";
import { clients } from "../auth/table";
import { getDb } from "../lib/db";
import { badRequest, notFound, validationError } from "../lib/errors";
import { createRouter, jsonBody, jsonResponse, problems, Timestamp } from "../lib/router";
import { now } from "../lib/time";
import { normalizeSender } from "./access";
import { forgetBillingAccounts } from "./accounts";
import { hashPassword } from "./passwords";
import {
  BillingAccount,
  BillingAccountId,
  BillingAccountImportItem,
  BillingAccountInput,
  SmsMessage,
} from "./schemas";
import { billingAccounts, providerUsers, smsClients, smsMessages, smsSenderBlacklist, smsStatuses } from "./table";

export const hubAdminRoutes = createRouter();

const tags = ["Admin: hub"];
const deleted = { 204: { description: "Deleted." } };

// Outbox

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
  attempts: row.attempts,
  nextAttempt: row.nextAttempt,
  lastError: row.lastError,
  created: row.created,
  updated: row.updated,
});

hubAdminRoutes.openapi(
  createRoute({
    method: "get",
    path: "/admin/v1/messages",
    ...access.admin,
    tags,
    summary: "List the SMS outbox, newest first",
    description: "Keyset pagination: pass `nextCursor` as `cursor` for the next page; it is null on the last page.",
    request: { query: MessagesQuery },
    responses: {
      200: jsonResponse(z.object({ items: z.array(SmsMessage), nextCursor: z.string().nullable() }), "A page of messages."),
      ...problems,
    },
  }),
  async (c) => {
    const { limit, cursor, status, projectId } = c.req.valid("query");
    const filters: SQL[] = [];
    if (cursor) filters.push(lt(smsMessages.id, cursor));
    if (status) filters.push(eq(smsMessages.status, status));
    if (projectId) filters.push(eq(smsMessages.projectId, projectId));
    const rows = await getDb(c.env.DB)
      .select()
      .from(smsMessages)
      .where(and(...filters))
      .orderBy(desc(smsMessages.id))
      .limit(limit + 1);
    const page = rows.slice(0, limit);
    return c.json({ items: page.map(toMessage), nextCursor: rows.length > limit ? page[page.length - 1].id : null }, 200);
  },
);

// Billing accounts

const AccountParam = z.object({ billing_account: BillingAccountId });

const toAccount = (row: typeof billingAccounts.$inferSelect): z.infer<typeof BillingAccount> => ({
  billingAccount: row.id,
  tscid: row.tscid,
  customerCacheId: row.customerCacheId,
  assets: row.assets,
  updated: row.updated,
});

hubAdminRoutes.openapi(
  createRoute({
    method: "put",
    path: "/admin/v1/billing-accounts/{billing_account}",
    ...access.admin,
    tags,
    summary: "Create or replace a billing account",
    description: "Replaces the whole record and drops it from the lookup cache.",
    request: { params: AccountParam, body: jsonBody(BillingAccountInput) },
    responses: {
      200: jsonResponse(BillingAccount, "Replaced."),
      201: jsonResponse(BillingAccount, "Created."),
      ...problems,
    },
  }),
  async (c) => {
    const { billing_account: id } = c.req.valid("param");
    const input = c.req.valid("json");
    const db = getDb(c.env.DB);
    const [existing] = await db.select({ id: billingAccounts.id }).from(billingAccounts).where(eq(billingAccounts.id, id)).limit(1);
    const row = { id, tscid: input.tscid, customerCacheId: input.customerCacheId ?? null, assets: input.assets, updated: now() };
    const { id: _, ...changes } = row;
    await db.insert(billingAccounts).values(row).onConflictDoUpdate({ target: billingAccounts.id, set: changes });
    await forgetBillingAccounts(c.env, [id]);
    return c.json(toAccount(row), existing ? 200 : 201);
  },
);

hubAdminRoutes.openapi(
  createRoute({
    method: "get",
    path: "/admin/v1/billing-accounts/{billing_account}",
    ...access.admin,
    tags,
    summary: "Read a billing account (with its actual tscid)",
    request: { params: AccountParam },
    responses: { 200: jsonResponse(BillingAccount, "The account."), ...problems },
  }),
  async (c) => {
    const { billing_account: id } = c.req.valid("param");
    const [row] = await getDb(c.env.DB).select().from(billingAccounts).where(eq(billingAccounts.id, id)).limit(1);
    if (!row) throw notFound("Billing account");
    return c.json(toAccount(row), 200);
  },
);

hubAdminRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/admin/v1/billing-accounts/{billing_account}",
    ...access.admin,
    tags,
    summary: "Delete a billing account",
    request: { params: AccountParam },
    responses: { ...deleted, ...problems },
  }),
  async (c) => {
    const { billing_account: id } = c.req.valid("param");
    const gone = await getDb(c.env.DB).delete(billingAccounts).where(eq(billingAccounts.id, id)).returning({ id: billingAccounts.id });
    if (gone.length === 0) throw notFound("Billing account");
    await forgetBillingAccounts(c.env, [id]);
    return c.body(null, 204);
  },
);

export const maxImportItems = 500;
/** Rows per INSERT: D1 binds at most 100 parameters per statement, and a row takes 5. */
const rowsPerInsert = 20;

const ImportItems = z
  .array(BillingAccountImportItem)
  .min(1)
  .max(maxImportItems)
  .refine((items) => new Set(items.map((i) => i.billingAccount)).size === items.length, "Each billingAccount may appear once.");

/** NDJSON: one JSON value per line; blank lines are skipped. */
function parseNdjson(text: string): unknown[] {
  const items: unknown[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((line, index) => {
    if (line.trim() === "") return;
    try {
      items.push(JSON.parse(line));
    } catch {
      throw badRequest("malformed_json", `Line ${index + 1} is not valid JSON.`, [
        { path: String(items.length), message: `Line ${index + 1} is not valid JSON.`, code: "malformed_json" },
      ]);
    }
  });
  return items;
}

// The import body is validated in the handler (it may be NDJSON), so its item schema is registered by hand.
hubAdminRoutes.openAPIRegistry.register("BillingAccountImportItem", BillingAccountImportItem);

hubAdminRoutes.openapi(
  createRoute({
    method: "post",
    path: "/admin/v1/billing-accounts/import",
    ...access.admin,
    tags,
    summary: "Bulk import billing accounts (JSON array or NDJSON)",
    description:
      "Creates or replaces up to 500 accounts in one request, all or nothing (one D1 batch), and drops them from the " +
      "lookup cache. Send a JSON array as `application/json`, or one account per line as `application/x-ndjson` " +
      "(blank lines are skipped). Error paths start with the item's 0-based index (for NDJSON, among non-blank lines). " +
      "Split larger files into several requests (the body limit is 1 MB).",
    request: {
      body: {
        required: true,
        content: {
          "application/json": { schema: { type: "array", items: { $ref: "#/components/schemas/BillingAccountImportItem" } } },
          "application/x-ndjson": { schema: { type: "string", description: "One BillingAccountImportItem per line." } },
        },
      },
    },
    responses: { 200: jsonResponse(z.object({ imported: z.number().int() }), "Imported."), ...problems },
  }),
  async (c) => {
    const mediaType = (c.req.header("content-type") ?? "").split(";")[0].trim().toLowerCase();
    let raw: unknown;
    if (mediaType === "application/x-ndjson") raw = parseNdjson(await c.req.text());
    else if (c.req.bodyCache.json) raw = await c.req.json<unknown>();
    else throw badRequest("body_required", "Send the accounts as a JSON array or as NDJSON.");
    const parsed = ImportItems.safeParse(raw);
    if (!parsed.success) throw validationError(parsed.error);
    const stamp = now();
    const rows = parsed.data.map((item) => ({
      id: item.billingAccount,
      tscid: item.tscid,
      customerCacheId: item.customerCacheId ?? null,
      assets: item.assets,
      updated: stamp,
    }));
    const db = getDb(c.env.DB);
    const upserts = [];
    for (let i = 0; i < rows.length; i += rowsPerInsert) {
      upserts.push(
        db
          .insert(billingAccounts)
          .values(rows.slice(i, i + rowsPerInsert))
          .onConflictDoUpdate({
            target: billingAccounts.id,
            set: {
              tscid: sql`excluded.tscid`,
              customerCacheId: sql`excluded.customer_cache_id`,
              assets: sql`excluded.assets`,
              updated: sql`excluded.updated`,
            },
          }),
      );
    }
    await db.batch(upserts as [(typeof upserts)[0], ...typeof upserts]);
    await forgetBillingAccounts(c.env, rows.map((row) => row.id));
    return c.json({ imported: rows.length }, 200);
  },
);

// Who may send: clients registered for SMS, provider users, the sender blacklist

const SmsClient = z.object({ clientId: z.string(), projectId: z.string(), created: Timestamp }).openapi("SmsClient");
const ClientParam = z.object({ clientId: z.string() });

hubAdminRoutes.openapi(
  createRoute({
    method: "put",
    path: "/admin/v1/sms/clients/{clientId}",
    ...access.admin,
    tags,
    summary: "Register a backend client for SMS",
    description:
      "A registered client may use `POST /v1/dcp/sms`, and `POST /v1/sms` with sms_hub without `auth`. " +
      "Idempotent; the registration goes when the client is deleted.",
    request: { params: ClientParam },
    responses: {
      200: jsonResponse(SmsClient, "Already registered."),
      201: jsonResponse(SmsClient, "Registered."),
      ...problems,
    },
  }),
  async (c) => {
    const { clientId } = c.req.valid("param");
    const db = getDb(c.env.DB);
    const [client] = await db.select({ projectId: clients.projectId, type: clients.type }).from(clients).where(eq(clients.id, clientId)).limit(1);
    if (!client) throw notFound("Client");
    if (client.type !== "backend") {
      throw badRequest("backend_client_required", "Only backend clients can use the hub; this one is a " + client.type + " client.");
    }
    const inserted = await db
      .insert(smsClients)
      .values({ clientId, projectId: client.projectId, created: now() })
      .onConflictDoNothing()
      .returning();
    if (inserted.length > 0) return c.json(inserted[0], 201);
    const [existing] = await db.select().from(smsClients).where(eq(smsClients.clientId, clientId));
    return c.json(existing, 200);
  },
);

hubAdminRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/admin/v1/sms/clients/{clientId}",
    ...access.admin,
    tags,
    summary: "Withdraw a client's SMS registration",
    request: { params: ClientParam },
    responses: { ...deleted, ...problems },
  }),
  async (c) => {
    const { clientId } = c.req.valid("param");
    const gone = await getDb(c.env.DB).delete(smsClients).where(eq(smsClients.clientId, clientId)).returning();
    if (gone.length === 0) throw notFound("SMS registration");
    return c.body(null, 204);
  },
);

hubAdminRoutes.openapi(
  createRoute({
    method: "get",
    path: "/admin/v1/sms/clients",
    ...access.admin,
    tags,
    summary: "List clients registered for SMS",
    responses: { 200: jsonResponse(z.object({ items: z.array(SmsClient) }), "The registrations."), ...problems },
  }),
  async (c) => {
    const rows = await getDb(c.env.DB).select().from(smsClients).orderBy(smsClients.clientId);
    return c.json({ items: rows }, 200);
  },
);

const ProviderUser = z.object({ username: z.string(), created: Timestamp }).openapi("ProviderUser");
const UsernameParam = z.object({
  username: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[A-Za-z0-9._@+-]+$/, "Use letters, digits and . _ @ + - only."),
});

hubAdminRoutes.openapi(
  createRoute({
    method: "put",
    path: "/admin/v1/sms/provider-users/{username}",
    ...access.admin,
    tags,
    summary: "Create a provider user of sms_hub or set its password",
    description:
      "Clients not registered for SMS send `auth: {username, password}` of such a user. The password is stored as " +
      "PBKDF2-SHA256 (100 000 iterations, random salt) and compared in constant time; it is never returned.",
    request: {
      params: UsernameParam,
      body: jsonBody(z.strictObject({ password: z.string().min(12).max(1024) }).openapi("ProviderUserInput")),
    },
    responses: {
      200: jsonResponse(ProviderUser, "Password replaced."),
      201: jsonResponse(ProviderUser, "Created."),
      ...problems,
    },
  }),
  async (c) => {
    const { username } = c.req.valid("param");
    const { password } = c.req.valid("json");
    const db = getDb(c.env.DB);
    const stamp = now();
    const [existing] = await db.select({ created: providerUsers.created }).from(providerUsers).where(eq(providerUsers.username, username));
    const passwordHash = await hashPassword(password);
    await db
      .insert(providerUsers)
      .values({ username, passwordHash, created: stamp })
      .onConflictDoUpdate({ target: providerUsers.username, set: { passwordHash } });
    return c.json({ username, created: existing?.created ?? stamp }, existing ? 200 : 201);
  },
);

hubAdminRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/admin/v1/sms/provider-users/{username}",
    ...access.admin,
    tags,
    summary: "Delete a provider user",
    request: { params: UsernameParam },
    responses: { ...deleted, ...problems },
  }),
  async (c) => {
    const { username } = c.req.valid("param");
    const gone = await getDb(c.env.DB).delete(providerUsers).where(eq(providerUsers.username, username)).returning();
    if (gone.length === 0) throw notFound("Provider user");
    return c.body(null, 204);
  },
);

hubAdminRoutes.openapi(
  createRoute({
    method: "get",
    path: "/admin/v1/sms/provider-users",
    ...access.admin,
    tags,
    summary: "List provider users (never their passwords)",
    responses: { 200: jsonResponse(z.object({ items: z.array(ProviderUser) }), "The users."), ...problems },
  }),
  async (c) => {
    const rows = await getDb(c.env.DB)
      .select({ username: providerUsers.username, created: providerUsers.created })
      .from(providerUsers)
      .orderBy(providerUsers.username);
    return c.json({ items: rows }, 200);
  },
);

const BlacklistEntry = z
  .object({ sender: z.string().openapi({ description: "Lower-case: the match ignores case." }), created: Timestamp })
  .openapi("BlacklistedSender");
const SenderParam = z.object({
  sender: z.string().min(1).max(64).openapi({ description: "A sender name or number (+46701234567), URL-encoded." }),
});

hubAdminRoutes.openapi(
  createRoute({
    method: "put",
    path: "/admin/v1/sms/blacklist/{sender}",
    ...access.admin,
    tags,
    summary: "Blacklist a sender",
    description:
      "Both SMS endpoints refuse a blacklisted sender with 400 `sender_blacklisted`: the generic payload's `sender`, " +
      "and the outbound request's `senderName` or `senderAddress` number (without `tel:`). Matching ignores case. Idempotent.",
    request: { params: SenderParam },
    responses: {
      200: jsonResponse(BlacklistEntry, "Already blacklisted."),
      201: jsonResponse(BlacklistEntry, "Blacklisted."),
      ...problems,
    },
  }),
  async (c) => {
    const sender = normalizeSender(c.req.valid("param").sender);
    const db = getDb(c.env.DB);
    const inserted = await db.insert(smsSenderBlacklist).values({ sender, created: now() }).onConflictDoNothing().returning();
    if (inserted.length > 0) return c.json(inserted[0], 201);
    const [existing] = await db.select().from(smsSenderBlacklist).where(eq(smsSenderBlacklist.sender, sender));
    return c.json(existing, 200);
  },
);

hubAdminRoutes.openapi(
  createRoute({
    method: "delete",
    path: "/admin/v1/sms/blacklist/{sender}",
    ...access.admin,
    tags,
    summary: "Take a sender off the blacklist",
    request: { params: SenderParam },
    responses: { ...deleted, ...problems },
  }),
  async (c) => {
    const sender = normalizeSender(c.req.valid("param").sender);
    const gone = await getDb(c.env.DB).delete(smsSenderBlacklist).where(eq(smsSenderBlacklist.sender, sender)).returning();
    if (gone.length === 0) throw notFound("Blacklisted sender");
    return c.body(null, 204);
  },
);

hubAdminRoutes.openapi(
  createRoute({
    method: "get",
    path: "/admin/v1/sms/blacklist",
    ...access.admin,
    tags,
    summary: "List blacklisted senders",
    responses: { 200: jsonResponse(z.object({ items: z.array(BlacklistEntry) }), "The blacklist."), ...problems },
  }),
  async (c) => {
    const rows = await getDb(c.env.DB).select().from(smsSenderBlacklist).orderBy(smsSenderBlacklist.sender);
    return c.json({ items: rows }, 200);
  },
);

