import { is, SQL } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";

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
