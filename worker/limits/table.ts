import { index, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Addresses refused for a while after too many failures (worker/limits/rate-limits.ts `countFailure`), in `DB`.
 * The address is kept as its SHA-256 only, and the row is deleted by the cron once `until` has passed
 * (worker/retention/expiring.ts).
 */
export const addressBlocks = sqliteTable(
  "address_blocks",
  {
    limiter: text("limiter").notNull(),
    addressHash: text("address_hash").notNull(),
    until: text("until").notNull(),
  },
  (t) => [primaryKey({ columns: [t.limiter, t.addressHash] }), index("address_blocks_until_idx").on(t.until)],
);
