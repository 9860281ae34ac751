import { blob, index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Every version of the lists the service hosts for TCF (in `DB`, docs/tcf.md#the-hosted-lists): `gvl` (IAB's Global
 * Vendor List v3, by `vendorListVersion`), `purposes-{lang}` (its translations, by the GVL version they came with) and
 * `atp` (Google's Additional Consent providers, numbered here as they change). Bodies are gzip-compressed JSON: the
 * GVL is about a megabyte and D1 holds at most 2 MB in a row. Nothing personal: public lists only.
 */
export const tcfLists = sqliteTable(
  "tcf_lists",
  {
    list: text("list").notNull(),
    version: integer("version").notNull(),
    body: blob("body", { mode: "buffer" }).notNull(),
    fetched: text("fetched").notNull(),
  },
  (t) => [primaryKey({ columns: [t.list, t.version] })],
);

/**
 * Each list's last refresh (in `DB`): when it was last tried, and since when it has failed (null: the last try kept
 * or confirmed a good version). The operator's counter `tcfListFailingSeconds` reads the oldest `failing_since`.
 */
export const tcfRefreshes = sqliteTable(
  "tcf_refreshes",
  {
    source: text("source").primaryKey(),
    checked: text("checked").notNull(),
    failingSince: text("failing_since"),
    error: text("error"),
  },
  (t) => [index("tcf_refreshes_failing_idx").on(t.failingSince)],
);
