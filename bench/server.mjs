// Starts the service for the benchmark as `npm start` does (client build, migrations, wrangler dev with local D1
// and KV), but on a free port with its own `--persist-to` directory, so a developer's local data is never touched.
// The same state can be served by the lean runtime (`npm run serve`: the built bundle in Miniflare, no dev tooling).
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exportJWK, generateKeyPair } from "jose";

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

/** Applies the migrations to a fresh state directory (D1 and KV live there). */
export function freshState() {
  const stateDir = mkdtempSync(join(tmpdir(), "assent-bench-"));
  execFileSync("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local", "--persist-to", stateDir], {
    stdio: "ignore",
    env: wranglerEnv,
  });
  return stateDir;
}

/** Builds the client bundles when the project defines them, as `npm start` does, and the Worker bundle the lean runtime runs. */
export function buildClient() {
  const pkg = JSON.parse(readFileSync("package.json", "utf8"));
  if (pkg.scripts["build:client"]) execFileSync("npm", ["run", "build:client"], { stdio: "ignore", env: wranglerEnv });
  execFileSync("npx", ["wrangler", "deploy", "--dry-run", "--outdir", "dist/worker"], { stdio: "ignore", env: wranglerEnv });
}

/** Clock ticks per second of /proc's CPU times (USER_HZ; 100 on Linux unless the kernel was built otherwise). */
const ticksPerSecond = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim()) || 100;

/**
 * CPU seconds spent so far by every process of a process group (the server and all it started: node, workerd,
 * esbuild), user + system, including children that already exited and were reaped by a member.
 */
export const groupCpuSeconds = (pgid) => Object.values(groupCpuSecondsByCommand(pgid)).reduce((sum, v) => sum + v, 0);

/** The same, per command name and kind (`workerd user`, `workerd system`, `node user`, …): which process spends it, and how. */
export function groupCpuSecondsByCommand(pgid) {
  const ticks = {};
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    let stat;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue; // exited meanwhile
    }
    // Fields after the command name (which may hold spaces, hence the last ')'): state is field 3, pgrp 5, utime 14.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(fields[2]) !== pgid) continue;
    const command = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    ticks[`${command} user`] = (ticks[`${command} user`] ?? 0) + Number(fields[11]) + Number(fields[13]);
    ticks[`${command} system`] = (ticks[`${command} system`] ?? 0) + Number(fields[12]) + Number(fields[14]);
  }
  return Object.fromEntries(Object.entries(ticks).map(([command, n]) => [command, n / ticksPerSecond]));
}

/** Runs SQL against the local D1 of a state directory while no server holds it. */
export function executeSqlFile(stateDir, file) {
  wrangler(["d1", "execute", "DB", "--local", "--persist-to", stateDir, "--yes", "--file", file]);
}

/** Reads rows from the local D1 of a state directory: one result list per statement of `command`. */
export function querySql(stateDir, command) {
  const out = wrangler(["d1", "execute", "DB", "--local", "--persist-to", stateDir, "--json", "--command", command]);
  return JSON.parse(out).map((result) => result.results);
}

function wrangler(args) {
  const result = spawnSync("npx", ["wrangler", ...args], { env: wranglerEnv, maxBuffer: 512 * 1024 * 1024, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`wrangler ${args.slice(0, 3).join(" ")} failed:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** The two ways to run the service: `npm start`'s (wrangler dev) and `npm run serve`'s (lean). */
export const runtimes = {
  wrangler: (options) => ["npx", ["wrangler", "dev", ...options]],
  lean: (options) => ["node", ["scripts/lean-server.mjs", ...options]],
};

/** Starts the service on a free port; resolves once /healthz answers. Secrets are generated per run. */
export async function startServer(stateDir, secrets, runtime = "wrangler", extraOptions = []) {
  const port = await freePort();
  // Its own inspector port too: other wrangler dev processes on the machine hold the default 9229.
  const inspectorPort = await freePort();
  const adminToken = secrets?.adminToken ?? `bench-admin-${Date.now()}`;
  let signingKeys = secrets?.signingKeys;
  if (!signingKeys) {
    const { privateKey } = await generateKeyPair("ES256", { extractable: true });
    signingKeys = JSON.stringify([{ ...(await exportJWK(privateKey)), kid: "bench-1" }]);
  }
  const options = ["--port", String(port), "--ip", "127.0.0.1", "--persist-to", stateDir,
    "--var", `ADMIN_TOKEN:${adminToken}`, "--var", `SIGNING_KEYS:${signingKeys}`,
    // One issuer whatever the port, so the seeded tokens stay valid when another runtime serves the same state.
    "--var", "ISSUER:http://assent.bench",
    // RECEIPTS=off npm run bench measures the write path without signing receipts (docs/proof.md#cost).
    ...(process.env.RECEIPTS ? ["--var", `RECEIPTS:${process.env.RECEIPTS}`] : [])];
  if (runtime === "wrangler") options.push("--inspector-port", String(inspectorPort));
  options.push(...extraOptions);
  const [command, args] = runtimes[runtime](options);
  const dev = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], env: wranglerEnv, detached: true });
  let log = "";
  dev.stdout.on("data", (d) => (log += d));
  dev.stderr.on("data", (d) => (log += d));
  const baseUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (dev.exitCode !== null) return;
    const exited = new Promise((r) => dev.once("exit", r));
    try {
      process.kill(-dev.pid, "SIGTERM");
    } catch {
      return;
    }
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  };
  // A failed build leaves wrangler dev waiting for file changes, so it is stopped here rather than left behind.
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) break;
    } catch {
      // still starting
    }
    if (Date.now() > deadline || dev.exitCode !== null || /Build failed/.test(log)) {
      await stop();
      throw new Error(`the ${runtime} runtime did not start:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { runtime, baseUrl, adminToken, signingKeys, stop, cpuSeconds: () => groupCpuSeconds(dev.pid), cpuSecondsByCommand: () => groupCpuSecondsByCommand(dev.pid), log: () => log };
}

export const removeState = (stateDir) => rmSync(stateDir, { recursive: true, force: true });
