import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * pending and retrying wait for a hand-off; accepted waits for the provider's delivery report; the others are final
 * (outbox_only: nowhere to send it, local development).
 */
export const smsStatuses = ["pending", "retrying", "accepted", "delivered", "undelivered", "failed", "expired", "outbox_only"] as const;
export type SmsStatus = (typeof smsStatuses)[number];
export const waitingStatuses = ["pending", "retrying"] as const satisfies SmsStatus[];
export const finalStatuses = ["delivered", "undelivered", "failed", "expired", "outbox_only"] as const satisfies SmsStatus[];

/** Every accepted SMS is written here before it is handed to a provider. */
export const smsMessages = sqliteTable(
  "sms_messages",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id").notNull(),
    clientId: text("client_id").notNull(),
    receiver: text("receiver").notNull(),
    sender: text("sender").notNull(),
    text: text("text").notNull(),
    encoding: text("encoding", { enum: ["gsm", "ucs"] }).notNull(),
    segments: integer("segments").notNull(),
    /** The route that carries the message now (the client's `provider`, or its fallback after a failover). */
    provider: text("provider").notNull(),
    status: text("status", { enum: smsStatuses }).notNull(),
    /** The provider's id for the message (Twilio's SID, Sinch's batch id …): delivery reports name it. */
    providerRef: text("provider_ref"),
    /** The provider's error code of the last failure or failed delivery report. */
    errorCode: text("error_code"),
    /** End of the validity period: a message still waiting for a hand-off then becomes `expired`. */
    expires: text("expires").notNull().default("9999-12-31T23:59:59.999Z"),
    /** Number of trail entries: each change takes the next one, so two concurrent changes cannot both land. */
    revision: integer("revision").notNull().default(0),
    /** When the text was blanked after its retention period (docs/hub.md#sms-routes-and-providers). */
    textPurged: text("text_purged"),
    /**
     * The text is a secret (a one-time code): blanked as soon as a provider has taken the message, and a day after it
     * settled where none does (outbox only).
     */
    secret: integer("secret", { mode: "boolean" }).notNull().default(false),
    attempts: integer("attempts").notNull(),
    /** When the retry pass may next try a hand-off (also the lease of an attempt in flight); null once settled. */
    nextAttempt: text("next_attempt"),
    lastError: text("last_error"),
    created: text("created").notNull(),
    updated: text("updated").notNull(),
  },
  (t) => [
    index("sms_messages_status_idx").on(t.status, t.id),
    index("sms_messages_due_idx").on(t.nextAttempt),
    index("sms_messages_project_idx").on(t.projectId, t.id),
    index("sms_messages_ref_idx").on(t.provider, t.providerRef),
    index("sms_messages_route_idx").on(t.provider, t.status),
  ],
);

/** Every change of an outbox message: status changes and reroutes, in order (`seq` is the message's revision). */
export const smsTrail = sqliteTable(
  "sms_trail",
  {
    messageId: text("message_id")
      .notNull()
      .references(() => smsMessages.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    at: text("at").notNull(),
    status: text("status", { enum: smsStatuses }).notNull(),
    route: text("route").notNull(),
    errorCode: text("error_code"),
    detail: text("detail"),
  },
  (t) => [primaryKey({ columns: [t.messageId, t.seq] })],
);

/** How each route has fared lately; drives failover and the routes' health in the admin API. */
export const smsRouteHealth = sqliteTable("sms_route_health", {
  route: text("route").primaryKey(),
  lastSuccess: text("last_success"),
  lastError: text("last_error"),
  lastErrorAt: text("last_error_at"),
  /** Transient hand-off failures since the last success; at the route's `failoverAfter` its waiting messages move. */
  consecutiveFailures: integer("consecutive_failures").notNull().default(0),
});

export const billingAccounts = sqliteTable("billing_accounts", {
  id: text("id").primaryKey(),
  tscid: text("tscid").notNull(),
  /** The customer cache id returned as `tscid` by the lookup; it can differ from the account's actual tscid. */
  customerCacheId: text("customer_cache_id"),
  assets: text("assets", { mode: "json" }).$type<{ id: string; display_name?: string; asset_code?: string }[]>().notNull(),
  updated: text("updated").notNull(),
});

/**
 * Answers of the operator's billing system (`BILLING_UPSTREAM_URL`) kept for a while (worker/hub/accounts.ts): found
 * for 10 minutes, not found (`result` null) for one. Never served past `until`; deleted by the cron after it
 * (worker/retention/expiring.ts).
 */
export const billingLookups = sqliteTable(
  "billing_lookups",
  {
    billingAccount: text("billing_account").primaryKey(),
    /** The lookup's answer (`CustomerLookupResult`); null: the billing system does not know the account. */
    result: text("result", { mode: "json" }).$type<{ tscid?: string; assets?: { id: string; display_name?: string; asset_code?: string }[] }>(),
    until: text("until").notNull(),
  },
  (t) => [index("billing_lookups_until_idx").on(t.until)],
);

/** Registered users of the sms_hub provider, for unregistered clients that authenticate per message. */
export const providerUsers = sqliteTable("provider_users", {
  username: text("username").primaryKey(),
  /** `pbkdf2-sha256$<iterations>$<salt>$<hash>` (base64url): people choose these passwords, so a slow hash. */
  passwordHash: text("password_hash").notNull(),
  created: text("created").notNull(),
});

/**
 * Clients the operator has registered for SMS: they send through sms_hub without per-message `auth`. No foreign key
 * to `clients`: a client lives in its project's database, which need not be DB; deleting a client or its project
 * deletes its registration (worker/hub/registrations.ts).
 */
export const smsClients = sqliteTable("sms_clients", {
  clientId: text("client_id").primaryKey(),
  projectId: text("project_id").notNull(),
  created: text("created").notNull(),
});

/** Sender names and numbers the operator refuses, stored lower-case so the match ignores case. */
export const smsSenderBlacklist = sqliteTable("sms_sender_blacklist", {
  sender: text("sender").primaryKey(),
  created: text("created").notNull(),
});

export type OutboxMessage = typeof smsMessages.$inferSelect;
