import { primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * How far a walking cron job has got in one database: the last row it examined (an id; ids sort by creation time).
 * The row names the binding it was written under, so a database restored or copied under another binding starts its
 * walk over instead of skipping rows it never examined there.
 */
export const jobWatermarks = sqliteTable(
  "job_watermarks",
  {
    job: text("job").notNull(),
    database: text("database").notNull(),
    watermark: text("watermark").notNull(),
    updated: text("updated").notNull(),
  },
  (t) => [primaryKey({ columns: [t.job, t.database] })],
);
