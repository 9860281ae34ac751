import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";

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
