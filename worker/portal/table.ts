import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { credentialKinds, members } from "../accounts/table";

/**
 * Portal sessions (worker/portal/session.ts), in `DB`: only the SHA-256 of the session id is stored, so the table
 * cannot be replayed. Rows past `expires` are refused on read and deleted by the cron (worker/retention/expiring.ts).
 */
export const portalSessions = sqliteTable(
  "portal_sessions",
  {
    idHash: text("id_hash").primaryKey(),
    csrfToken: text("csrf_token").notNull(),
    /** SHA-256 of the admin token that signed in (break-glass sessions): rotating ADMIN_TOKEN ends them. */
    adminFingerprint: text("admin_fingerprint").notNull(),
    /** The member signed in; null for a break-glass session (the admin token). Removing the member ends it (cascade). */
    memberId: text("member_id").references(() => members.id, { onDelete: "cascade" }),
    /** How the session was opened (worker/accounts/table.ts): recorded with every action in the audit trail. */
    credential: text("credential", { enum: credentialKinds }).notNull().default("admin-token"),
    /** The address that signed in, for the member's list of sessions. */
    address: text("address"),
    created: text("created").notNull(),
    expires: text("expires").notNull(),
  },
  (t) => [index("portal_sessions_expires_idx").on(t.expires), index("portal_sessions_member_idx").on(t.memberId)],
);
