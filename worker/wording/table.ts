import { primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { projects } from "../projects/table";

/**
 * A project's own wording of the consent widget, per language: overrides of the shipped strings, or every string of
 * a language the widget does not ship. One row per language; D1 triggers bump the project's configuration version
 * on every change (drizzle/*_ui_strings_config_version.sql), so the bootstrap's edge cache never serves old words.
 */
export const uiStrings = sqliteTable(
  "ui_strings",
  {
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    /** BCP 47, in its canonical case (`zh-Hant-TW`). */
    language: text("language").notNull(),
    strings: text("strings", { mode: "json" }).$type<Record<string, string>>().notNull(),
    updated: text("updated").notNull(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.language] })],
);
