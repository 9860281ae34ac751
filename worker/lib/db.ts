import { is, SQL, sql } from "drizzle-orm";
import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { openBookmark, sealBookmark } from "./bookmarks";
import { bindingNamed, databasesOf, defaultDatabase } from "./databases";
import { badRequest } from "./errors";
import { SQLiteAsyncDialect, type SQLiteColumn } from "drizzle-orm/sqlite-core";

export type Db = DrizzleD1Database;

const cache = new WeakMap<D1Database, Db>();

/** One drizzle instance per D1 binding and isolate. */
export function getDb(d1: D1Database): Db {
  let db = cache.get(d1);
  if (!db) {
    db = drizzle(d1);
    cache.set(d1, db);
  }
  return db;
}

/** Whether a D1 failure is a constraint violation (so the caller can answer 409/404 instead of 500). */
export function isConstraintError(error: unknown, kind: "UNIQUE" | "FOREIGN KEY" | "PRIMARY KEY"): boolean {
  const text = `${(error as Error)?.message ?? ""} ${((error as { cause?: Error })?.cause)?.message ?? ""}`;
  return text.includes(`${kind} constraint failed`);
}

const dialect = new SQLiteAsyncDialect();

/** A drizzle query builder (anything with `toSQL`) or a raw `sql` fragment. */
export type Statement = SQL | { toSQL(): { sql: string; params: unknown[] } };

/**
 * Runs statements as one D1 batch: atomic (a transaction), in order. Used instead of `db.batch` wherever raw
 * `sql` statements take part, because drizzle's D1 session cannot batch raw statements that bind parameters.
 * Statements already prepared (worker/lib/compiled.ts) go as they are. Results are D1's own (`results` holds rows
 * of a RETURNING or SELECT, with column names as in the table).
 */
export function atomically(d1: D1Database, statements: (Statement | D1PreparedStatement)[]): Promise<D1Result[]> {
  return d1.batch(
    statements.map((statement) => {
      if ("bind" in statement) return statement;
      const query = is(statement, SQL) ? dialect.sqlToQuery(statement) : statement.toSQL();
      return d1.prepare(query.sql).bind(...query.params);
    }),
  );
}

/**
 * `column IN (…)` with the values bound as one JSON array: D1 allows 100 bound parameters per statement, so a list
 * of any length (purposes naming 200 parties) stays one parameter.
 */
export const inJsonArray = (column: SQLiteColumn, values: readonly string[]) =>
  sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(values)}))`;

/** Request and response header carrying a D1 bookmark (docs/operations.md#read-your-own-writes-from-replicas-d1-sessions-api). */
export const bookmarkHeader = "Assent-Bookmark";

/**
 * Every API call is one D1 session (Sessions API): it starts from the bookmark the caller sent back, so it reads
 * at least what the caller last saw, even on a replica, or anywhere (`first-unconstrained`) without one. Writes go
 * to the primary whatever the start. The session's latest bookmark goes back in the response, sealed (worker/lib/bookmarks.ts). Code below reads
 * `c.var.db`: the session on `DB` until the access check knows the project and puts the project's database there
 * (worker/lib/databases.ts); a session on another database is opened when first asked for (`c.var.databases`).
 */
export const d1Session: MiddlewareHandler<AppEnv> = async (c, next) => {
  const header = c.req.header(bookmarkHeader);
  const sent = header === undefined ? undefined : await openBookmark(c.env, header);
  if (header !== undefined && sent === undefined) {
    throw badRequest("invalid_bookmark", `${bookmarkHeader} must be a bookmark an earlier answer carried, unchanged.`);
  }
  const sessions = new Map<string, D1Database>();
  const databases = databasesOf(c.env, (name) => {
    let session = sessions.get(name);
    if (!session) {
      session = bindingNamed(c.env, name).withSession(sent ?? "first-unconstrained") as unknown as D1Database;
      sessions.set(name, session);
    }
    return session;
  });
  c.set("databases", databases);
  c.set("db", databases.named(defaultDatabase));
  await next();
  const latest = (c.var.db as unknown as D1DatabaseSession).getBookmark?.();
  const sealed = latest ? await sealBookmark(c.env, latest) : undefined;
  if (sealed) c.res.headers.set(bookmarkHeader, sealed);
};
