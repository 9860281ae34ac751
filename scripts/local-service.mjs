// Starts the service on this machine for a tool that drives it: the browser tests (test/e2e/global-setup.ts), the
// page audits (scripts/audit-pages.mjs) and the benchmark (bench/server.mjs). Each run gets a free port, its own
// `--persist-to` state (migrations applied) and generated secrets, so a developer's local data is never touched.
// `npm start` (scripts/dev.mjs) shares the health wait and the key generation.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { exportJWK, generateKeyPair } from "jose";

/** How much of a runtime's output `log()` keeps: its newest 32 MiB of characters. */
const logTailChars = 32 * 1024 * 1024;

export const wranglerEnv = { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" };

/** A TCP port nothing listens on now (asked of the OS). */
export const freePort = () =>
  new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** Whether `port` of 127.0.0.1 can be listened on now. */
const listenable = (port) =>
  new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });

/**
 * A TCP port nothing listens on now, below the OS's ephemeral range (Linux's ip_local_port_range), which no outgoing
 * connection takes as its own: for a port named minutes before the service binds it (test/e2e/global-setup.ts).
 */
export async function lastingPort() {
  const range = "/proc/sys/net/ipv4/ip_local_port_range";
  const ephemeralStart = existsSync(range) ? Number(readFileSync(range, "utf8").trim().split(/\s+/)[0]) : 32_768;
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * (ephemeralStart - 20_000));
    if (await listenable(port)) return port;
  }
}

/** SIGNING_KEYS holding one new ES256 private key. */
export async function newSigningKeys(kid) {
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  return JSON.stringify([{ ...(await exportJWK(privateKey)), kid }]);
}

/** A new random 256-bit key, as WEBHOOK_SECRETS_KEY takes it. */
export const newSecretKey = () => randomBytes(32).toString("base64url");

/**
 * Writes `file`, a copy of wrangler.toml beside it (so its relative paths mean the same) whose rate limiters named by
 * `names` are raised to `limit` a period, and `edit` applied to the rest: for runs that make many visitors, sign-ins
 * or codes from one address within a minute, which production's limits would refuse. Returns the binding names raised.
 */
export function writeRaisedLimitsConfig(file, { names = /\w+_LIMITER/, limit = 1_000_000, edit = (text) => text } = {}) {
  const raised = [];
  const text = readFileSync("wrangler.toml", "utf8").replace(/name = "(\w+)"\n([^\n]*\n)simple = \{ limit = \d+/g, (whole, name, between) => {
    if (!new RegExp(`^(?:${names.source})$`).test(name)) return whole;
    raised.push(name);
    return `name = "${name}"\n${between}simple = { limit = ${limit}`;
  });
  if (raised.length === 0) throw new Error(`no rate limiter in wrangler.toml matches ${names}`);
  writeFileSync(file, edit(text));
  return raised;
}

/** Runs a command to its end; rejects with its error output when it fails. */
const run = (command, args, { stdio = ["ignore", "ignore", "pipe"] } = {}) =>
  new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio, env: wranglerEnv });
    let errors = "";
    child.stderr?.on("data", (d) => (errors += d));
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} exited with ${code}\n${errors}`))));
  });

/** Builds the client bundles the service serves, when the project defines them; only errors are shown. */
export async function buildClient() {
  const pkg = JSON.parse(readFileSync("package.json", "utf8"));
  if (pkg.scripts["build:client"]) await run("npm", ["run", "build:client"], { stdio: ["ignore", "ignore", "inherit"] });
}

/**
 * The environment variable naming a state directory already migrated (by `migrateState` without it) for this run's
 * tree: test/e2e/global-setup.ts makes one and names it here, so every service a test starts copies it instead of
 * running `wrangler d1 migrations apply` again (some 40 s of CPU each). Tests that prove the migrations apply from
 * scratch (`npm-start`, `getting-started`) go through `npm start`, which never reads it.
 */
export const migratedStateVariable = "ASSENT_MIGRATED_STATE";

/** `wrangler d1 migrations apply`'s table of applied migrations, as it creates it. */
const migrationsTable = (name) => `CREATE TABLE IF NOT EXISTS ${name}(
		id         INTEGER PRIMARY KEY AUTOINCREMENT,
		name       TEXT UNIQUE,
		applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
);`;

/**
 * Applies the migrations to the local D1 of `stateDir` (wrangler's `--persist-to`) as `wrangler d1 migrations apply DB
 * --local` does: its table of applied migrations, then each pending migration's statements and its row in one batch.
 * But in one Miniflare, where wrangler starts one per migration (some 40 s of CPU for 30 migrations; this takes a tenth
 * of it). `npm start` (scripts/dev.mjs) runs wrangler's own, and test/e2e/npm-start.test.ts compares the two.
 * `config` is the wrangler config file.
 */
export async function applyMigrations(stateDir, { config = "wrangler.toml" } = {}) {
  const { unstable_readConfig, unstable_splitSqlQuery } = await import("wrangler");
  const { Miniflare } = await import("./miniflare.mjs");
  const database = unstable_readConfig({ config }).d1_databases.find((d1) => d1.binding === "DB");
  const folder = resolve(dirname(config), database.migrations_dir ?? "migrations");
  const table = `"${(database.migrations_table ?? "d1_migrations").replaceAll('"', '""')}"`;
  const miniflare = new Miniflare({
    modules: true,
    script: "",
    resourcePersistencePath: join(stateDir, "v3"),
    d1Databases: { DB: database.preview_database_id ?? database.database_id ?? database.binding },
  });
  try {
    const db = await miniflare.getD1Database("DB");
    await db.batch([db.prepare(migrationsTable(table))]);
    const applied = new Set((await db.prepare(`SELECT name FROM ${table}`).all()).results.map((row) => row.name));
    for (const name of readdirSync(folder).filter((file) => file.endsWith(".sql")).sort()) {
      if (applied.has(name)) continue;
      const sql = `${readFileSync(join(folder, name), "utf8")}\nINSERT INTO ${table} (name)\nvalues ('${name.replaceAll("'", "''")}');`;
      await db.batch(unstable_splitSqlQuery(sql).map((query) => db.prepare(query)));
    }
  } finally {
    await miniflare.dispose();
  }
}

/**
 * Migrates the local D1 of `stateDir`: a copy of the migrated state `migratedStateVariable` names (made for the
 * `wrangler.toml` databases: `config` must name the same database ids), or else `applyMigrations`.
 */
export async function migrateState(stateDir, { config } = {}) {
  const migrated = process.env[migratedStateVariable];
  if (migrated) return cpSync(migrated, stateDir, { recursive: true });
  await applyMigrations(stateDir, { config });
}

/** A new state directory (D1 and KV live there) with the migrations applied; `config` is the wrangler config file. */
export async function freshState({ prefix = "assent-local-", config } = {}) {
  const stateDir = mkdtempSync(join(tmpdir(), prefix));
  await migrateState(stateDir, { config });
  return stateDir;
}

export const removeState = (stateDir) => rmSync(stateDir, { recursive: true, force: true });

/**
 * Polls `${baseUrl}/healthz` every 250 ms; true once it answers, false when `timeoutMs` passed or `gaveUp()` says
 * waiting longer is useless (the process exited, its build failed).
 */
export async function waitForHealth(baseUrl, { timeoutMs = 120_000, gaveUp = () => false } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await fetch(`${baseUrl}/healthz`).then((res) => res.ok, () => false)) return true;
    if (Date.now() > deadline || gaveUp()) return false;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The two ways to run the service: `npm start`'s (wrangler dev) and `npm run serve`'s (lean: the built bundle in Miniflare). */
export const runtimes = {
  wrangler: (options) => ["npx", ["wrangler", "dev", ...options]],
  lean: (options) => ["node", ["scripts/lean-server.mjs", ...options]],
};

/**
 * Starts the service on a free port of 127.0.0.1 (or `port`) and resolves once /healthz answers.
 * - `stateDir`: the state to serve, kept by the caller; without it a fresh one is made (from `config`) and removed by `stop`.
 * - `build`: build the client bundles first (alongside the migrations of a fresh state).
 * - `config`: the wrangler config file (default wrangler.toml); `runtime`: "wrangler" or "lean".
 * - `adminToken`, `signingKeys` (default: generated, the key named `${name}-1`), `issuer` (default: the base URL).
 * - `vars`: further variables (`{ LOCAL_DEV: "true" }`); `options`: further runtime options (`--test-scheduled`).
 * - `inspector`: give wrangler dev its own inspector port (others on the machine hold the default 9229).
 */
export async function startService({
  name = "local",
  stateDir,
  build = false,
  config,
  runtime = "wrangler",
  adminToken = `${name}-admin-${randomBytes(18).toString("base64url")}`,
  signingKeys,
  issuer,
  vars = {},
  options = [],
  inspector = false,
  port,
}) {
  const ownsState = !stateDir;
  const [state] = await Promise.all([stateDir ?? freshState({ prefix: `assent-${name}-`, config }), build && buildClient()]);
  port ??= await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  signingKeys ??= await newSigningKeys(`${name}-1`);
  const allVars = { ADMIN_TOKEN: adminToken, SIGNING_KEYS: signingKeys, ISSUER: issuer ?? baseUrl, ...vars };
  const args = [
    ...(config ? ["--config", config] : []),
    "--port", String(port), "--ip", "127.0.0.1", "--persist-to", state,
    ...Object.entries(allVars).flatMap(([key, value]) => ["--var", `${key}:${value}`]),
    ...(inspector ? ["--inspector-port", String(await freePort())] : []),
    ...options,
  ];
  const [command, commandArgs] = runtimes[runtime](args);
  const child = spawn(command, commandArgs, { stdio: ["ignore", "pipe", "pipe"], env: wranglerEnv, detached: true });
  // The runtime's output, kept to its newest part: a benchmark's millions of request lines would otherwise outgrow
  // the longest string V8 can hold, and an exception in this handler would stop the draining of the runtime's pipes.
  let log = "";
  const keep = (d) => {
    log += d;
    if (log.length > 2 * logTailChars) log = log.slice(-logTailChars);
  };
  child.stdout.on("data", keep);
  child.stderr.on("data", keep);
  /** Ends the process group (the runtime and all it started: workerd, esbuild) and, when it made the state, the state. */
  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      try {
        process.kill(-child.pid, "SIGTERM");
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      } catch {
        // already gone
      }
    }
    if (ownsState) removeState(state);
  };
  // A failed build leaves wrangler dev waiting for file changes, so it is stopped here rather than left behind.
  const up = await waitForHealth(baseUrl, { gaveUp: () => child.exitCode !== null || /Build failed/.test(log) });
  if (!up) {
    await stop();
    throw new Error(`the ${runtime} runtime did not start:\n${log}`);
  }
  return { runtime, baseUrl, adminToken, signingKeys, pid: child.pid, stop, log: () => log };
}
