// `npm start` (scripts/dev.mjs) as a new user meets it: its output up to the ready message, the inspector port when
// another service holds 9229, a stop by signal that takes the whole service with it, and the database wrangler's own
// `d1 migrations apply` made, which the tests' migrations (scripts/local-service.mjs) must make too. Its own port and
// state folder; the client bundles this run already built (ASSENT_CLIENT_BUILT).
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { applyMigrations, freePort } from "../../scripts/local-service.mjs";

const stateDir = mkdtempSync(join(tmpdir(), "assent-npm-start-"));
let port: number;
let start: ChildProcess;
let output = "";
/** What holds 9229 for this test when nothing else on the machine does: a second service's inspector. */
let inspectorHolder: Server | undefined;

/** The processes, by pid, whose command line names this test's state folder (wrangler, workerd). */
const serviceProcesses = () =>
  execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.includes(stateDir))
    .map((line) => line.trim().split(" ")[0]);

beforeAll(async () => {
  port = await freePort();
  inspectorHolder = await new Promise<Server | undefined>((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(undefined)); // someone else holds it: the same situation
    server.listen(9229, "127.0.0.1", () => resolve(server));
  });
  start = spawn("node", ["scripts/dev.mjs", "--persist-to", stateDir], {
    env: { ...process.env, PORT: String(port), ASSENT_CLIENT_BUILT: "true", WRANGLER_SEND_METRICS: "false" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  start.stdout!.on("data", (d) => (output += d));
  start.stderr!.on("data", (d) => (output += d));
  // Building nothing, it migrates a fresh database, starts wrangler dev and seeds: 1 to 4 minutes on a busy 2-core
  // machine, more than 280 s at a load of 24 to 48 (2026-11-28). It waits for the ready line or the exit; the limit
  // only bounds a start that hangs.
  await vi.waitFor(() => expect(output.includes("docs/getting-started.md walks on") || start.exitCode !== null).toBe(true), { timeout: 880_000, interval: 250 });
  expect(start.exitCode, output).toBeNull();
}, 900_000);

afterAll(async () => {
  for (const pid of serviceProcesses()) process.kill(Number(pid), "SIGKILL");
  if (start.exitCode === null) start.kill("SIGKILL");
  await new Promise<void>((resolve) => (inspectorHolder ? inspectorHolder.close(() => resolve()) : resolve()));
  rmSync(stateDir, { recursive: true, force: true });
});

it("prints one line per setup step, then the URLs once, last: no request logs and no second ready banner before them", () => {
  // Up to the end of the ready message; the runtime's own output streams after it.
  const end = "docs/getting-started.md walks on";
  const lines = output.slice(0, output.indexOf(end) + end.length).split("\n");
  const base = `http://127.0.0.1:${port}`;
  expect(lines.filter((line) => line.includes(`Assent is running at ${base}`))).toHaveLength(1);
  expect(lines.join("\n")).not.toMatch(/Ready on|\[wrangler:info\]|Your Worker has access|GET \/healthz|POST \/admin/);
  expect(lines.length, output).toBeLessThan(25);
});

it("names the inspector's port, another than 9229 when a second service holds that", () => {
  const inspector = Number(output.match(/Inspector: 127\.0\.0\.1:(\d+)/)?.[1]);
  expect(inspector).toBeGreaterThan(0);
  expect(inspector).not.toBe(9229);
  expect(inspector).not.toBe(port);
});

it("stops the whole service when its process gets a signal: nothing answers and nothing of it is left running", async () => {
  const base = `http://127.0.0.1:${port}`;
  expect((await fetch(`${base}/healthz`)).ok).toBe(true);
  expect(serviceProcesses().length).toBeGreaterThan(0);
  start.kill("SIGTERM");
  await expect.poll(() => start.exitCode !== null || start.signalCode !== null, { timeout: 60_000 }).toBe(true);
  await expect.poll(serviceProcesses, { timeout: 60_000 }).toEqual([]);
  await expect(fetch(`${base}/healthz`)).rejects.toThrow();
}, 180_000);

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

// The tests' services copy a state migrated by `applyMigrations` (one Miniflare) instead of running wrangler's
// `d1 migrations apply` (a Miniflare per migration, minutes on a busy two-core machine); `npm start` ran wrangler's
// just now, into this file's state folder, and the service's seed wrote rows, not schema.
it("made the database the tests' migrations make: the same file, schema and migrations table", async () => {
  const byMiniflare = mkdtempSync(join(tmpdir(), "assent-miniflare-"));
  try {
    await applyMigrations(byMiniflare);
    const [expected, actual] = [schemaOf(stateDir), schemaOf(byMiniflare)];
    expect(expected.migrations.length).toBe(readdirSync("drizzle").filter((name) => name.endsWith(".sql")).length);
    expect(actual).toEqual(expected);
  } finally {
    rmSync(byMiniflare, { recursive: true, force: true });
  }
}, 240_000);
