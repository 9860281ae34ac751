import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import { access } from "../auth/scopes";
import { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { getDb } from "../lib/db";
import { badRequest, notFound } from "../lib/errors";
import { createRouter, defineRoute } from "../auth/router";
import { jsonBody, jsonResponse, problems, Timestamp } from "../lib/schemas";
import { createdResponse } from "../lib/preconditions";
import { now } from "../lib/time";
import { normalizeSender } from "./access";
import { hashPassword } from "./passwords";
import { clientAnywhere } from "./registrations";
import { providerUsers, smsClients, smsSenderBlacklist } from "./table";

/** Who may send: clients registered for SMS, provider users, the sender blacklist. */
export const senderAdminRoutes = createRouter();

const tags = ["Admin: hub"];
const deleted = { 204: { description: "Deleted." } };

const SmsClient = z.object({ clientId: z.string(), projectId: z.string(), created: Timestamp }).openapi("SmsClient");
const ClientParam = z.object({ clientId: z.string() });

senderAdminRoutes.openapi(
  defineRoute({
    method: "put",
    path: "/clients/{clientId}",
    operationId: "registerSmsClient",
    tags,
    ...access.admin,
    summary: "Register a backend client for SMS",
    description:
      "A registered client may use `POST /v1/dcp/sms`, and `POST /v1/sms` with sms_hub without `auth`. " +
      "Idempotent; the registration goes when the client is deleted.",
    request: { params: ClientParam },
    responses: {
      200: jsonResponse(SmsClient, "Already registered."),
      201: createdResponse(SmsClient, "Registered; `Location` is this URL.", false),
      ...problems,
    },
  }),
  async (c) => {
    const { clientId } = c.req.valid("param");
    const db = getDb(c.var.db);
    const client = await clientAnywhere(c.var.databases, clientId);
    if (!client) throw notFound("Client");
    if (client.type !== "backend") {
      throw badRequest("backend_client_required", "Only backend clients can use the hub; this one is a " + client.type + " client.");
    }
    const inserted = await db
      .insert(smsClients)
      .values({ clientId, projectId: client.projectId, created: now() })
      .onConflictDoNothing()
      .returning();
    if (inserted.length > 0) return c.json(inserted[0], 201, { Location: new URL(c.req.url).pathname });
    const [existing] = await db.select().from(smsClients).where(eq(smsClients.clientId, clientId));
    return c.json(existing, 200);
  },
);

senderAdminRoutes.openapi(
  defineRoute({
    method: "delete",
    path: "/clients/{clientId}",
    operationId: "unregisterSmsClient",
    tags,
    ...access.admin,
    summary: "Withdraw a client's SMS registration",
    request: { params: ClientParam },
    responses: { ...deleted, ...problems },
  }),
  async (c) => {
    const { clientId } = c.req.valid("param");
    const gone = await getDb(c.var.db).delete(smsClients).where(eq(smsClients.clientId, clientId)).returning();
    if (gone.length === 0) throw notFound("SMS registration");
    return c.body(null, 204);
  },
);

senderAdminRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/clients",
    operationId: "listSmsClients",
    tags,
    ...access.admin,
    summary: "List clients registered for SMS",
    responses: { 200: jsonResponse(z.object({ items: z.array(SmsClient) }), "The registrations."), ...problems },
  }),
  async (c) => {
    const rows = await getDb(c.var.db).select().from(smsClients).orderBy(smsClients.clientId);
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

senderAdminRoutes.openapi(
  defineRoute({
    method: "put",
    path: "/provider-users/{username}",
    operationId: "upsertSmsProviderUser",
    tags,
    ...access.admin,
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
      201: createdResponse(ProviderUser, "Created; `Location` is this URL.", false),
      ...problems,
    },
  }),
  async (c) => {
    const { username } = c.req.valid("param");
    const { password } = c.req.valid("json");
    const db = getDb(c.var.db);
    const stamp = now();
    const [existing] = await db.select({ created: providerUsers.created }).from(providerUsers).where(eq(providerUsers.username, username));
    const passwordHash = await hashPassword(password);
    await db
      .insert(providerUsers)
      .values({ username, passwordHash, created: stamp })
      .onConflictDoUpdate({ target: providerUsers.username, set: { passwordHash } });
    if (!existing) c.header("Location", new URL(c.req.url).pathname);
    return c.json({ username, created: existing?.created ?? stamp }, existing ? 200 : 201);
  },
);

senderAdminRoutes.openapi(
  defineRoute({
    method: "delete",
    path: "/provider-users/{username}",
    operationId: "deleteSmsProviderUser",
    tags,
    ...access.admin,
    summary: "Delete a provider user",
    request: { params: UsernameParam },
    responses: { ...deleted, ...problems },
  }),
  async (c) => {
    const { username } = c.req.valid("param");
    const gone = await getDb(c.var.db).delete(providerUsers).where(eq(providerUsers.username, username)).returning();
    if (gone.length === 0) throw notFound("Provider user");
    return c.body(null, 204);
  },
);

senderAdminRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/provider-users",
    operationId: "listSmsProviderUsers",
    tags,
    ...access.admin,
    summary: "List provider users (never their passwords)",
    responses: { 200: jsonResponse(z.object({ items: z.array(ProviderUser) }), "The users."), ...problems },
  }),
  async (c) => {
    const rows = await getDb(c.var.db)
      .select({ username: providerUsers.username, created: providerUsers.created })
      .from(providerUsers)
      .orderBy(providerUsers.username);
    return c.json({ items: rows }, 200);
  },
);

const BlacklistEntry = z
  .object({ sender: z.string().openapi({ description: "Lower-case: the match ignores case." }), created: Timestamp })
  .openapi("BlacklistedSender");
/** A sender is a name (letters, digits, spaces, `._&'-`) or a phone number valid for its country; nothing else is stored. */
const SenderParam = z.object({
  sender: z
    .string()
    .min(1)
    .max(64)
    .refine(
      (sender) => (sender.startsWith("+") ? Boolean(parsePhoneNumberFromString(sender)?.isValid()) : /^[\p{L}\p{N}][\p{L}\p{N} ._&'-]*$/u.test(sender)),
      "A sender name (letters, digits, spaces and ._&'-) or a phone number in E.164 valid for its country.",
    )
    .openapi({ description: "A sender name or number (+46701234567), URL-encoded." }),
});

senderAdminRoutes.openapi(
  defineRoute({
    method: "put",
    path: "/blacklist/{sender}",
    operationId: "blacklistSmsSender",
    tags,
    ...access.admin,
    summary: "Blacklist a sender",
    description:
      "Both SMS endpoints refuse a blacklisted sender with 400 `sender_blacklisted`: the generic payload's `sender`, " +
      "and the outbound request's `senderName` or `senderAddress` number (without `tel:`). Matching ignores case. Idempotent.",
    request: { params: SenderParam },
    responses: {
      200: jsonResponse(BlacklistEntry, "Already blacklisted."),
      201: createdResponse(BlacklistEntry, "Blacklisted; `Location` is this URL.", false),
      ...problems,
    },
  }),
  async (c) => {
    const sender = normalizeSender(c.req.valid("param").sender);
    const db = getDb(c.var.db);
    const inserted = await db.insert(smsSenderBlacklist).values({ sender, created: now() }).onConflictDoNothing().returning();
    if (inserted.length > 0) return c.json(inserted[0], 201, { Location: new URL(c.req.url).pathname });
    const [existing] = await db.select().from(smsSenderBlacklist).where(eq(smsSenderBlacklist.sender, sender));
    return c.json(existing, 200);
  },
);

senderAdminRoutes.openapi(
  defineRoute({
    method: "delete",
    path: "/blacklist/{sender}",
    operationId: "unblacklistSmsSender",
    tags,
    ...access.admin,
    summary: "Take a sender off the blacklist",
    request: { params: SenderParam },
    responses: { ...deleted, ...problems },
  }),
  async (c) => {
    const sender = normalizeSender(c.req.valid("param").sender);
    const gone = await getDb(c.var.db).delete(smsSenderBlacklist).where(eq(smsSenderBlacklist.sender, sender)).returning();
    if (gone.length === 0) throw notFound("Blacklisted sender");
    return c.body(null, 204);
  },
);

senderAdminRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/blacklist",
    operationId: "listBlacklistedSmsSenders",
    tags,
    ...access.admin,
    summary: "List blacklisted senders",
    responses: { 200: jsonResponse(z.object({ items: z.array(BlacklistEntry) }), "The blacklist."), ...problems },
  }),
  async (c) => {
    const rows = await getDb(c.var.db).select().from(smsSenderBlacklist).orderBy(smsSenderBlacklist.sender);
    return c.json({ items: rows }, 200);
  },
);

