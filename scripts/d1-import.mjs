#!/usr/bin/env node
// node scripts/d1-import.mjs <export.sql> <import.sql>
// Makes a `wrangler d1 export` importable into an empty D1 database (docs/operations.md#restoring-the-database).
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { unstable_splitSqlQuery } from "wrangler";

/**
 * An export lists each table where it was created, its rows right after it. D1 always enforces foreign keys, and a row
 * that references a table not created yet fails ("no such table: main.projects": `clients` is created before
 * `projects` here); the export's `PRAGMA defer_foreign_keys` defers checks of rows, not of tables. So every CREATE
 * TABLE moves to the front and everything else keeps its order: rows, then indexes, then triggers (which must not
 * fire while the rows go in), as the export wrote them.
 */
export function importable(sql) {
  const statements = unstable_splitSqlQuery(sql);
  const isTable = (statement) => /^CREATE\s+TABLE\b/i.test(statement);
  const isPragma = (statement) => /^PRAGMA\b/i.test(statement);
  const ordered = [...statements.filter(isPragma), ...statements.filter(isTable), ...statements.filter((s) => !isPragma(s) && !isTable(s))];
  return `${ordered.join(";\n")};\n`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [from, to] = process.argv.slice(2);
  if (!from || !to) {
    console.error("usage: node scripts/d1-import.mjs <export.sql> <import.sql>");
    process.exit(2);
  }
  writeFileSync(to, importable(readFileSync(from, "utf8")));
}
