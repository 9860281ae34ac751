import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

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
    status: text("status").notNull(),
    attempts: integer("attempts").notNull(),
    created: text("created").notNull(),
    updated: text("updated").notNull(),
  },
  (t) => [index("sms_messages_status_idx").on(t.status, t.id)],
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
  passwordHash: text("password_hash").notNull(),
  created: text("created").notNull(),
});
