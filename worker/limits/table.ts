import { index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

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

/**
 * Exact counts per UTC day, for caps the approximate Rate Limiting binding cannot hold (worker/limits/daily.ts):
 * guesses per address and per client address, codes per address, SMS per project. `key` names what is counted by
 * a hash (an address never in clear); rows of past days are deleted by the cron.
 */
export const dailyCounts = sqliteTable(
  "daily_counts",
  {
    counter: text("counter").notNull(),
    key: text("key").notNull(),
    day: text("day").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.counter, t.key, t.day] }), index("daily_counts_day_idx").on(t.day)],
);
