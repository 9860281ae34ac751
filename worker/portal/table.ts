import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Portal sessions (worker/portal/session.ts), in `DB`: only the SHA-256 of the session id is stored, so the table
 * cannot be replayed. Rows past `expires` are refused on read and deleted by the cron (worker/retention/expiring.ts).
 */
export const portalSessions = sqliteTable(
  "portal_sessions",
  {
    idHash: text("id_hash").primaryKey(),
    csrfToken: text("csrf_token").notNull(),
    /** SHA-256 of the admin token that signed in: rotating ADMIN_TOKEN ends every session. */
    adminFingerprint: text("admin_fingerprint").notNull(),
    created: text("created").notNull(),
    expires: text("expires").notNull(),
  },
  (t) => [index("portal_sessions_expires_idx").on(t.expires)],
);
