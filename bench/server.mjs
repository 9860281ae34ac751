// Starts the service for the benchmark as `npm start` does (client build, migrations, wrangler dev with local D1
// and KV), but on a free port with its own `--persist-to` directory (scripts/local-service.mjs), so a developer's
// local data is never touched. The same state can be served by the lean runtime (`npm run serve`: the built bundle in
// Miniflare, no dev tooling).
import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { buildClient as buildClientBundles, freshState as freshLocalState, startService, wranglerEnv } from "../scripts/local-service.mjs";

export { freePort, removeState, runtimes } from "../scripts/local-service.mjs";

/** A fresh state directory with the migrations applied (D1 and KV live there). */
export const freshState = () => freshLocalState({ prefix: "assent-bench-" });

/** Builds the client bundles when the project defines them, as `npm start` does, and the Worker bundle the lean runtime runs. */
export async function buildClient() {
  await buildClientBundles();
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

/** Starts the service on a free port; resolves once /healthz answers. Secrets are generated per run. */
export async function startServer(stateDir, secrets, runtime = "wrangler", extraOptions = []) {
  const server = await startService({
    name: "bench",
    stateDir,
    runtime,
    adminToken: secrets?.adminToken ?? `bench-admin-${Date.now()}`,
    signingKeys: secrets?.signingKeys,
    // One issuer whatever the port, so the seeded tokens stay valid when another runtime serves the same state.
    issuer: "http://assent.bench",
    // RECEIPTS=off npm run bench measures the write path without signing receipts (docs/proof.md#cost).
    // REQUEST_LOG=problems npm run bench:profile measures the Worker without the request log line (docs/operations-data.md#logs).
    vars: Object.fromEntries(["RECEIPTS", "REQUEST_LOG"].filter((name) => process.env[name]).map((name) => [name, process.env[name]])),
    inspector: runtime === "wrangler",
    // No cron in either runtime (wrangler dev fires none by itself): its catch-up over the seeded rows would land in
    // whichever scenario runs at the minute. The cron's own cost is not what the scenarios measure.
    options: [...(runtime === "lean" ? ["--cron-every", "0"] : []), ...extraOptions],
  });
  return { ...server, cpuSeconds: () => groupCpuSeconds(server.pid), cpuSecondsByCommand: () => groupCpuSecondsByCommand(server.pid) };
}
