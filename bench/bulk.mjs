// Bulk history for the benchmark, cloned from rows the API itself wrote. A template write (an identity, or a
// permission request) is captured from every table it touched, then copied with fresh ids, times and subjects:
// whatever the request path stores (requests, per-purpose contributions, outbox events, ...) is reproduced
// exactly, with no knowledge of the schema beyond "values that name the write". The materialised
// permission_states row is not cloned per request but written once per identity, as the last request left it.
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { executeSqlFile, querySql } from "./server.mjs";

const idPattern = /\b([a-z]{2,4})_([0-9A-HJKMNP-TV-Z]{26})\b/g;
const stampPattern = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z\b/g;
const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** The service's id format (worker/lib/ids.ts): prefix, 48-bit milliseconds, 80 random bits, Crockford base32. */
export function idAt(prefix, ms) {
  let head = "";
  for (let i = 0, t = ms; i < 10; i++, t = Math.floor(t / 32)) head = alphabet[t % 32] + head;
  let tail = "";
  for (const byte of randomBytes(16)) tail += alphabet[byte % 32];
  return `${prefix}_${head}${tail}`;
}

/**
 * Every user table with its columns, read from the database so new tables and columns are carried along, in an
 * order where a table comes after the tables its foreign keys point to (D1 checks foreign keys per statement).
 */
export function tablesOf(stateDir) {
  const [names] = querySql(
    stateDir,
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations' ORDER BY name",
  );
  const details = querySql(
    stateDir,
    names.map(({ name }) => `SELECT name, type, pk FROM pragma_table_info('${name}'); SELECT "table" FROM pragma_foreign_key_list('${name}');`).join("\n"),
  );
  const tables = names.map(({ name }, i) => {
    const columns = details[2 * i];
    // An INTEGER PRIMARY KEY is a rowid alias: left out, so SQLite numbers the copies in insertion order.
    const keys = columns.filter((c) => c.pk > 0);
    const rowid = keys.length === 1 && keys[0].type.toUpperCase() === "INTEGER" ? keys[0].name : undefined;
    return { name, columns: columns.map((c) => c.name).filter((c) => c !== rowid), references: details[2 * i + 1].map((f) => f.table) };
  });
  const ordered = [];
  const visit = (table, path = new Set()) => {
    if (ordered.includes(table) || path.has(table)) return;
    path.add(table);
    for (const name of table.references) {
      const target = tables.find((t) => t.name === name);
      if (target && target !== table) visit(target, path);
    }
    ordered.push(table);
  };
  tables.forEach((t) => visit(t));
  return ordered;
}

/** Every row of every table (the database is small while templates are captured), keyed by table. */
export function readAll(stateDir, tables) {
  const results = querySql(stateDir, tables.map((t) => `SELECT ${t.columns.map((c) => `"${c}"`).join(", ")} FROM "${t.name}";`).join("\n"));
  return Object.fromEntries(tables.map((t, i) => [t.name, results[i]]));
}

/** The rows that mention `marker` (the id of the template write), keyed by table. */
export function captureWrite(everything, marker) {
  const captured = {};
  for (const [table, rows] of Object.entries(everything)) {
    const matching = rows.filter((row) => JSON.stringify(row).includes(marker));
    if (matching.length) captured[table] = matching;
  }
  return captured;
}

/**
 * A template for cloning: its rows, and the values that belong to the write (ids it minted, the instants it
 * stamped, its `requested` time as text and as epoch ms) rather than to fixed configuration (project, purposes...).
 */
export function template(captured, { keepIds, subjectId, requested }) {
  const text = JSON.stringify(captured);
  const minted = [...new Set([...text.matchAll(idPattern)].map((m) => m[0]))].filter((id) => !keepIds.has(id) && id !== subjectId);
  const stamps = [...new Set(text.match(stampPattern) ?? [])].filter((s) => !keepIds.has(s));
  return { captured, minted, stamps, subjectId, requested, requestedAt: requested ? Date.parse(requested) : undefined };
}

/** Fresh values for everything a template write minted, as another subject's write at another instant. */
export function mappingFor(t, { subjectId, at, requested }) {
  const replace = new Map([[t.subjectId, subjectId]]);
  for (const id of t.minted) replace.set(id, idAt(id.slice(0, id.indexOf("_")), at));
  const stamp = new Date(at).toISOString();
  for (const s of t.stamps) replace.set(s, stamp);
  if (t.requested) replace.set(t.requested, requested);
  return replace;
}

/** The template's rows (or `only` those tables) with a mapping applied to every value. */
export function cloneRows(t, replace, only) {
  const pattern = new RegExp([...replace.keys()].map((k) => k.replace(/[.+]/g, "\\$&")).join("|"), "g");
  const requestedAt = t.requested ? Date.parse(replace.get(t.requested)) : undefined;
  const rows = {};
  for (const [table, list] of Object.entries(t.captured)) {
    if (only && !only.includes(table)) continue;
    rows[table] = list.map((row) =>
      Object.fromEntries(
        Object.entries(row).map(([column, value]) => [
          column,
          typeof value === "string" ? value.replace(pattern, (m) => replace.get(m)) : t.requestedAt !== undefined && value === t.requestedAt ? requestedAt : value,
        ]),
      ),
    );
  }
  return rows;
}

const literal = (value) =>
  value === null || value === undefined ? "NULL" : typeof value === "number" ? String(value) : `'${String(value).replace(/'/g, "''")}'`;

/**
 * Collects rows and loads them through `wrangler d1 execute --file`, a chunk at a time: multi-row INSERTs (each
 * under D1's 100 KB statement limit), tables in foreign-key order within a chunk.
 */
export class SqlLoader {
  constructor(stateDir, workDir, tableOrder, log) {
    Object.assign(this, { stateDir, workDir, tableOrder, log, pending: new Map(), bytes: 0, files: 0, rows: 0 });
  }
  insertAll(rowsByTable, { replace = false } = {}) {
    for (const [table, rows] of Object.entries(rowsByTable)) {
      for (const row of rows) {
        const columns = Object.keys(row);
        const key = `${replace ? "INSERT OR REPLACE" : "INSERT"} INTO "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES`;
        const tuple = `(${columns.map((c) => literal(row[c])).join(", ")})`;
        if (!this.pending.has(key)) this.pending.set(key, { table, tuples: [] });
        this.pending.get(key).tuples.push(tuple);
        this.bytes += tuple.length;
        this.rows++;
      }
    }
    if (this.bytes > 16 * 1024 * 1024) this.flush();
  }
  flush() {
    if (!this.pending.size) return;
    const groups = [...this.pending].sort(([, a], [, b]) => this.tableOrder.indexOf(a.table) - this.tableOrder.indexOf(b.table));
    const statements = [];
    for (const [head, { tuples }] of groups) {
      let values = [];
      let size = head.length;
      for (const tuple of tuples) {
        if (values.length && size + tuple.length > 90_000) {
          statements.push(`${head} ${values.join(",\n")};`);
          values = [];
          size = head.length;
        }
        values.push(tuple);
        size += tuple.length + 2;
      }
      if (values.length) statements.push(`${head} ${values.join(",\n")};`);
    }
    const file = join(this.workDir, `bulk-${++this.files}.sql`);
    writeFileSync(file, statements.join("\n") + "\n");
    this.pending = new Map();
    this.bytes = 0;
    executeSqlFile(this.stateDir, file);
    this.log(`loaded ${this.rows.toLocaleString("en")} rows so far`);
  }
}
