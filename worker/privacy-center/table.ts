import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { projects } from "../projects/table";

/** The ways a person proves they hold an alias: a code sent by email or by SMS (worker/privacy-center/channels.ts). */
export const channels = ["email", "sms"] as const;
export type Channel = (typeof channels)[number];

/**
 * One-time codes, hashed at rest (SHA-256 of a per-code salt and the code). `addressHash` names the address the
 * code went to without storing it; a code is spent once verified, dead after its attempts or its expiry.
 */
export const verificationCodes = sqliteTable(
  "verification_codes",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    channel: text("channel", { enum: channels }).notNull(),
    addressHash: text("address_hash").notNull(),
    salt: text("salt").notNull(),
    codeHash: text("code_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    expires: text("expires").notNull(),
    spent: text("spent"),
    created: text("created").notNull(),
    /** Which client address asked (hashed): a new code replaces only that client's earlier one (issue 37). */
    clientHash: text("client_hash"),
  },
  (t) => [
    index("verification_codes_address_idx").on(t.projectId, t.addressHash, t.created),
    // The retention's seek: codes go a day after they expire.
    index("verification_codes_expires_idx").on(t.expires),
  ],
);

/**
 * A verification: who proved holding which alias, how and when. It is also the person's session on the privacy
 * center while it lasts (`tokenHash`, `expires`); the record stays for the project's retention.
 */
export const verifications = sqliteTable(
  "verifications",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    channel: text("channel", { enum: channels }).notNull(),
    /** The identity the alias named when it was verified; null: none (the person sees the empty state). */
    identityId: text("identity_id"),
    tokenHash: text("token_hash").notNull().unique(),
    verifiedAt: text("verified_at").notNull(),
    expires: text("expires").notNull(),
    /** When the retention deletes the record: `verifiedAt` plus the project's `retentionDays` at the time. */
    purgeAfter: text("purge_after").notNull(),
  },
  (t) => [index("verifications_project_idx").on(t.projectId, t.verifiedAt), index("verifications_purge_idx").on(t.purgeAfter)],
);
