import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { projects } from "../projects/table";
import type { ClientScope } from "./scopes";

/** The kinds of client (worker/auth/scopes.ts says what each may hold). */
export const clientTypes = ["web", "ios", "android", "backend"] as const;
export type ClientType = (typeof clientTypes)[number];

export const clients = sqliteTable(
  "clients",
  {
    id: text("id").primaryKey(),
    projectId: text("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    type: text("type", { enum: clientTypes }).notNull(),
    /** SHA-256 (hex) of the secret; secrets are 256-bit random, so a fast hash is enough. */
    secretHash: text("secret_hash").notNull(),
    /** Tokens issued before this instant (unix seconds) are refused: set when the secret is regenerated. */
    notBefore: integer("not_before").notNull(),
    allowedOrigins: text("allowed_origins", { mode: "json" }).$type<string[]>().notNull(),
    /** An explicit, narrower scope list; null: the defaults of the client's type (worker/auth/scopes.ts). */
    scopes: text("scopes", { mode: "json" }).$type<ClientScope[]>(),
    created: text("created").notNull(),
    updated: text("updated").notNull(),
    /** Grows by one with every write; the resource's ETag (worker/lib/preconditions.ts). */
    revision: integer("revision").notNull().default(1),
  },
  (t) => [index("clients_project_idx").on(t.projectId, t.id)],
);
