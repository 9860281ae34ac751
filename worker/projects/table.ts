import { sqliteTable, text } from "drizzle-orm/sqlite-core";

export type Translation = { language: string; text: string };
export type Policies = { privacy?: string; terms?: string; cookie?: string };
export type Controller = { name: string; email?: string; address?: string; nationalId?: string; phone?: string };

export const projects = sqliteTable("projects", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  controller: text("controller", { mode: "json" }).$type<Controller>(),
  policies: text("policies", { mode: "json" }).$type<Policies>().notNull(),
  jurisdiction: text("jurisdiction"),
  defaultLanguage: text("default_language").notNull(),
  created: text("created").notNull(),
  updated: text("updated").notNull(),
});
