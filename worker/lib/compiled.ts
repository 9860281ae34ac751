import { is, Placeholder, SQL, sql } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { getDb, type Db } from "./db";

/**
 * A value of a statement builder: the value itself, or a `sql.placeholder` when the statement is compiled once per
 * isolate (below) and the value is bound per call.
 */
export type Bindable<T> = T | Placeholder;

/** The placeholders a compiled statement's builder receives: `p.projectId` stands for the call's `projectId`. */
export type Placeholders<N extends string> = { readonly [K in N]: Placeholder<K> };

const dialect = new SQLiteAsyncDialect();

const placeholders = new Proxy({}, { get: (_, name) => sql.placeholder(String(name)) }) as Placeholders<string>;

/**
 * A statement whose SQL drizzle builds once per isolate, from a builder called with placeholders (and a drizzle instance for query builders); each call only
 * prepares it on the call's binding or D1 session and binds its values. Building SQL through drizzle was the largest
 * part of a consent write's own JavaScript (docs/performance-history.md#our-own-javascript-cut). Values are bound as given: JSON
 * columns take the caller's `JSON.stringify`, and `undefined` must be passed as null.
 */
export function compiled<N extends string>(build: (p: Placeholders<N>, db: Db) => SQL | { toSQL(): { sql: string; params: unknown[] } }) {
  let template: { sql: string; params: ({ name: N } | { value: unknown })[] } | undefined;
  return (d1: D1Database, values: Record<N, unknown>): D1PreparedStatement => {
    if (!template) {
      const statement = build(placeholders as Placeholders<N>, getDb(d1));
      const query = is(statement, SQL) ? dialect.sqlToQuery(statement) : statement.toSQL();
      const params = query.params.map((param) => (is(param, Placeholder) ? { name: param.name as N } : { value: param }));
      template = { sql: query.sql, params };
    }
    const params = template.params.map((param) => ("name" in param ? values[param.name] : param.value));
    return d1.prepare(template.sql).bind(...params);
  };
}
