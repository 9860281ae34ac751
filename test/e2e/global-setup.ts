// Starts the real service for browser tests: `wrangler dev` on a free port with fresh local D1/KV
// (migrations applied, demo seeded), exactly as `npm start` runs it.
import { spawn, type ChildProcess, type StdioOptions } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exportJWK, generateKeyPair } from "jose";
import type { TestProject } from "vitest/node";
import { seedDemo } from "../../scripts/seed.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    adminToken: string;
    demoProjectId: string;
  }
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

/** Runs a command to its end; rejects when it fails. */
const run = (command: string, args: string[], stdio: StdioOptions, env = process.env) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { stdio, env });
    child.on("error", reject);
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(" ")} exited with ${code}`))));
  });

const e2eConfig = "wrangler.e2e.toml";
let dev: ChildProcess | undefined;
let stateDir: string | undefined;

export async function setup(project: TestProject) {
  stateDir = mkdtempSync(join(tmpdir(), "assent-e2e-"));
  const env = { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" };
  // Browser tests make many visitors and portal sign-ins from one address within a minute: the same service with
  // every abuse limit raised (as the API tests run it; test/security proves the limits bite), and webhook deliveries
  // handed to the consumer at once rather than after the batch timeout, from a copy of wrangler.toml beside it (its
  // relative paths then mean the same).
  writeFileSync(
    e2eConfig,
    readFileSync("wrangler.toml", "utf8")
      .replace(/simple = \{ limit = \d+, period = (\d+) \}/g, "simple = { limit = 1000000, period = $1 }")
      .replace(/^max_batch_timeout = \d+$/gm, "max_batch_timeout = 0"),
  );
  // The client bundles the service serves, unless the caller built them already (.ci/run builds before testing).
  const pkg = JSON.parse(readFileSync("package.json", "utf8"));
  const build = pkg.scripts["build:client"] && !process.env.ASSENT_CLIENT_BUILT ? run("npm", ["run", "build:client"], "inherit") : undefined;
  await Promise.all([
    build,
    run("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local", "--config", e2eConfig, "--persist-to", stateDir], "ignore", env),
  ]);
  const port = await freePort();
  const adminToken = "e2e-admin-token";
  const { privateKey } = await generateKeyPair("ES256", { extractable: true });
  const signingKeys = JSON.stringify([{ ...(await exportJWK(privateKey)), kid: "e2e-1" }]);
  dev = spawn(
    "npx",
    ["wrangler", "dev", "--config", e2eConfig, "--test-scheduled", "--port", String(port), "--ip", "127.0.0.1", "--persist-to", stateDir,
      "--var", `ADMIN_TOKEN:${adminToken}`, "--var", `SIGNING_KEYS:${signingKeys}`, "--var", `ISSUER:http://127.0.0.1:${port}`,
      // As `npm start` runs it: webhook secrets can be stored, webhooks may point at this machine, the cron can be
      // run, and the bootstrap takes a forced regime (LOCAL_DEV).
      "--var", `WEBHOOK_SECRETS_KEY:${randomBytes(32).toString("base64url")}`, "--var", "ALLOW_LOOPBACK_WEBHOOKS:true",
      "--var", "LOCAL_DEV:true"],
    { stdio: ["ignore", "pipe", "pipe"], env, detached: true },
  );
  let log = "";
  dev.stdout?.on("data", (d) => (log += d));
  dev.stderr?.on("data", (d) => (log += d));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) break;
    } catch {
      // starting
    }
    if (Date.now() > deadline || dev.exitCode !== null) throw new Error(`wrangler dev did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  const demo = await seedDemo(baseUrl, adminToken);
  project.provide("baseUrl", baseUrl);
  project.provide("adminToken", adminToken);
  project.provide("demoProjectId", demo.projectId);
}

export async function teardown() {
  if (dev?.pid) {
    try {
      process.kill(-dev.pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
  rmSync(e2eConfig, { force: true });
}
