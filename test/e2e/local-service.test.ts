// scripts/local-service.mjs, which starts the service for the browser tests, the page audits and the benchmark:
// a service that does not come up is reported with its log and leaves nothing behind, and the migrations it applies
// make the database wrangler's would.
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { applyMigrations, startService, wranglerEnv } from "../../scripts/local-service.mjs";

it("reports a runtime that exits with its log, and removes the state it made", async () => {
  const name = `failing${Date.now()}`;
  const states = () => readdirSync(tmpdir()).filter((entry) => entry.startsWith(`assent-${name}-`));
  await expect(startService({ name, options: ["--bogus-option"] })).rejects.toThrow(/the wrangler runtime did not start:[\s\S]*bogus-option/);
  expect(states()).toEqual([]);
  // Two wrangler starts (the migrations, when not copied from the run's migrated state, then the refused dev) took 61
  // and 95 s on a busy two-core machine; a runtime that hangs instead of exiting still fails within startService's own
  // 120 s wait for health.
}, 240_000);

/** A local D1's schema as SQLite keeps it and the migrations it records, of the `DB` database in `stateDir`. */
function schemaOf(stateDir: string) {
  const folder = join(stateDir, "v3", "d1", "miniflare-D1DatabaseObject");
  const file = readdirSync(folder).filter((name) => name.endsWith(".sqlite") && name !== "metadata.sqlite");
  expect(file).toHaveLength(1);
  const db = new DatabaseSync(join(folder, file[0]), { readOnly: true });
  try {
    return {
      file: file[0],
      schema: db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").all(),
      migrations: db.prepare("SELECT id, name FROM d1_migrations ORDER BY id").all(),
    };
  } finally {
    db.close();
  }
}

it("applies the migrations as `wrangler d1 migrations apply` does: the same database, schema and migrations table", async () => {
  const [byWrangler, byMiniflare] = [mkdtempSync(join(tmpdir(), "assent-wrangler-")), mkdtempSync(join(tmpdir(), "assent-miniflare-"))];
  try {
    await promisify(execFile)("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local", "--persist-to", byWrangler], { env: wranglerEnv });
    await applyMigrations(byMiniflare);
    const [expected, actual] = [schemaOf(byWrangler), schemaOf(byMiniflare)];
    expect(expected.migrations.length).toBe(readdirSync("drizzle").filter((name) => name.endsWith(".sql")).length);
    expect(actual).toEqual(expected);
  } finally {
    for (const folder of [byWrangler, byMiniflare]) rmSync(folder, { recursive: true, force: true });
  }
  // wrangler starts a Miniflare per migration: minutes on a busy two-core machine.
}, 900_000);
