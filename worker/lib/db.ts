import { getTableColumns, is, SQL, sql } from "drizzle-orm";
import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { databaseNamed, defaultDatabase, sessionOpener } from "./databases";
import { badRequest } from "./errors";
import { SQLiteAsyncDialect, type SQLiteColumn, type SQLiteTable } from "drizzle-orm/sqlite-core";

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

type Prepared<V, R> = { all(values: V): Promise<R> };

/**
 * A read built once per isolate, with `sql.placeholder`s for its values, and run on whatever binding or session the
 * call has: building the SQL through drizzle was about half of a hot read's JavaScript (BENCHMARKS.md "Where the
 * time goes"). Only the D1 statement is made per call; drizzle maps the rows as usual.
 */
export function builtOnce<V extends Record<string, unknown>, R>(build: (db: Db) => { prepare(): Prepared<V, R> }) {
  let template: (Prepared<V, R> & { query: { sql: string } }) | undefined;
  return (d1: D1Database, values: V): Promise<R> => {
    template ??= build(getDb(d1)).prepare() as Prepared<V, R> & { query: { sql: string } };
    const run = Object.create(template) as Prepared<V, R> & { stmt: D1PreparedStatement };
    run.stmt = d1.prepare(template.query.sql);
    return run.all(values);
  };
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
 * Results are D1's own (`results` holds rows of a RETURNING or SELECT, with column names as in the table).
 */
export function atomically(d1: D1Database, statements: Statement[]): Promise<D1Result[]> {
  return d1.batch(
    statements.map((statement) => {
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

/**
 * `INSERT INTO table SELECT <row> WHERE <when>`: the row is written only if `when` holds when the batch reaches it
 * (a guard checked inside the transaction, instead of a read round trip before it). Values are mapped as drizzle
 * maps them (JSON columns stringified).
 */
export function insertWhen<T extends SQLiteTable>(db: Db, table: T, row: T["$inferInsert"], when: SQL) {
  const columns = getTableColumns(table) as Record<string, SQLiteColumn>;
  const selection = Object.fromEntries(
    Object.entries(row as Record<string, unknown>)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => [key, sql`${value === null ? null : columns[key].mapToDriverValue(value)}`.as(columns[key].name)]),
  );
  return db.insert(table).select(db.select(selection).from(sql`(SELECT 1)`).where(when) as never);
}

/** Request and response header carrying a D1 bookmark (README "Scaling": read your own writes from replicas). */
export const bookmarkHeader = "Assent-Bookmark";

/** What D1 bookmarks look like (`00000085-0000024c-00004c6d-8e61…`: hex fields, sortable as text); nothing else reaches D1. */
const bookmarkPattern = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{1,64}$/i;

/**
 * Every API call is one D1 session (Sessions API): it starts from the bookmark the caller sent back, so it reads
 * at least what the caller last saw, even on a replica, or anywhere (`first-unconstrained`) without one. Writes go
 * to the primary whatever the start. The session's latest bookmark goes back in the response. Code below reads
 * `c.env.DB` as before: it is the session, on `DB` until the access check knows the project and moves it to the
 * project's database (worker/lib/databases.ts); a session on another database is opened when first asked for.
 */
export const d1Session: MiddlewareHandler<AppEnv> = async (c, next) => {
  const sent = c.req.header(bookmarkHeader);
  if (sent !== undefined && !bookmarkPattern.test(sent)) {
    throw badRequest("invalid_bookmark", `${bookmarkHeader} must be a bookmark an earlier answer carried.`);
  }
  const bindings = c.env;
  const sessions = new Map<string, D1Database>();
  const open = (name: string) => {
    let session = sessions.get(name);
    if (!session) {
      session = databaseNamed(bindings, name).withSession(sent ?? "first-unconstrained") as unknown as D1Database;
      sessions.set(name, session);
    }
    return session;
  };
  c.env = { ...bindings, DB: open(defaultDatabase), [sessionOpener]: open } as AppEnv["Bindings"];
  await next();
  const latest = (c.env.DB as unknown as D1DatabaseSession).getBookmark?.();
  if (latest) c.res.headers.set(bookmarkHeader, latest);
};
