import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { clients } from "../auth/table";

export const smsStatuses = ["pending", "retrying", "sent", "outbox_only"] as const;
export type SmsStatus = (typeof smsStatuses)[number];

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
    provider: text("provider").notNull(),
    status: text("status", { enum: smsStatuses }).notNull(),
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
  ],
);

export const billingAccounts = sqliteTable("billing_accounts", {
  id: text("id").primaryKey(),
  tscid: text("tscid").notNull(),
  /** The customer cache id returned as `tscid` by the lookup; it can differ from the account's actual tscid. */
  customerCacheId: text("customer_cache_id"),
  assets: text("assets", { mode: "json" }).$type<{ id: string; display_name?: string; asset_code?: string }[]>().notNull(),
  updated: text("updated").notNull(),
});

/** Registered users of the sms_hub provider, for unregistered clients that authenticate per message. */
export const providerUsers = sqliteTable("provider_users", {
  username: text("username").primaryKey(),
  /** `pbkdf2-sha256$<iterations>$<salt>$<hash>` (base64url): people choose these passwords, so a slow hash. */
  passwordHash: text("password_hash").notNull(),
  created: text("created").notNull(),
});

/** Clients the operator has registered for SMS: they send through sms_hub without per-message `auth`. */
export const smsClients = sqliteTable("sms_clients", {
  clientId: text("client_id")
    .primaryKey()
    .references(() => clients.id, { onDelete: "cascade" }),
  projectId: text("project_id").notNull(),
  created: text("created").notNull(),
});

/** Sender names and numbers the operator refuses, stored lower-case so the match ignores case. */
export const smsSenderBlacklist = sqliteTable("sms_sender_blacklist", {
  sender: text("sender").primaryKey(),
  created: text("created").notNull(),
});
