// Starts the service for the benchmark as `npm start` does (client build, migrations, wrangler dev with local D1
// and KV), but on a free port with its own `--persist-to` directory, so a developer's local data is never touched.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exportJWK, generateKeyPair } from "jose";

export const wranglerEnv = { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" };

const freePort = () =>
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

/** Builds the client bundles when the project defines them, as `npm start` does. */
export function buildClient() {
  const pkg = JSON.parse(readFileSync("package.json", "utf8"));
  if (pkg.scripts["build:client"]) execFileSync("npm", ["run", "build:client"], { stdio: "ignore", env: wranglerEnv });
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

/** Starts `wrangler dev` on a free port; resolves once /healthz answers. Secrets are generated per run. */
export async function startServer(stateDir, secrets) {
  const port = await freePort();
  // Its own inspector port too: other wrangler dev processes on the machine hold the default 9229.
  const inspectorPort = await freePort();
  const adminToken = secrets?.adminToken ?? `bench-admin-${Date.now()}`;
  let signingKeys = secrets?.signingKeys;
  if (!signingKeys) {
    const { privateKey } = await generateKeyPair("ES256", { extractable: true });
    signingKeys = JSON.stringify([{ ...(await exportJWK(privateKey)), kid: "bench-1" }]);
  }
  const dev = spawn(
    "npx",
    ["wrangler", "dev", "--port", String(port), "--ip", "127.0.0.1", "--inspector-port", String(inspectorPort), "--persist-to", stateDir,
      "--var", `ADMIN_TOKEN:${adminToken}`, "--var", `SIGNING_KEYS:${signingKeys}`,
      // RECEIPTS=off npm run bench measures the write path without signing receipts (README "Proof of consent").
      ...(process.env.RECEIPTS ? ["--var", `RECEIPTS:${process.env.RECEIPTS}`] : [])],
    { stdio: ["ignore", "pipe", "pipe"], env: wranglerEnv, detached: true },
  );
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
      throw new Error(`wrangler dev did not start:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { baseUrl, adminToken, signingKeys, stop, log: () => log };
}

export const removeState = (stateDir) => rmSync(stateDir, { recursive: true, force: true });
