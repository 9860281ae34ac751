// Starts the real service for browser tests: `wrangler dev` on a free port with fresh local D1/KV (migrations
// applied, demo seeded), exactly as `npm start` runs it; and the one Chromium they all connect to (browser.ts). Both
// start in the background: Vitest runs every project's global setup before any file, so the other projects' files run
// meanwhile, and each e2e file waits for the service first (test/e2e/service-ready.ts).
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserServer } from "playwright-core";
import type { TestProject } from "vitest/node";
import {
  applyMigrations,
  buildClient,
  lastingPort,
  migratedStateVariable,
  newSecretKey,
  startService,
  writeRaisedLimitsConfig,
  type LocalService,
} from "../../scripts/local-service.mjs";
import { seedDemo } from "../../scripts/seed.mjs";
import { launchBrowserServer } from "./browser";
import { tcfListsServer } from "./tcf-lists-server";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    adminToken: string;
    /** The file the service's start is reported in once it ends: `{ demoProjectId }` or `{ error }`. */
    e2eService: string;
  }
}

const e2eConfig = "wrangler.e2e.toml";
let service: LocalService | undefined;
let browserServer: Promise<BrowserServer> | undefined;
let started: Promise<void> | undefined;
let folder: string | undefined;
let tcfLists: Awaited<ReturnType<typeof tcfListsServer>> | undefined;

export async function setup(project: TestProject) {
  // Browser tests make many visitors and portal sign-ins from one address within a minute: the same service with
  // every abuse limit raised (as the API tests run it; test/security proves the limits bite), and webhook deliveries
  // handed to the consumer at once rather than after the batch timeout, from a copy of wrangler.toml beside it (its
  // relative paths then mean the same).
  writeRaisedLimitsConfig(e2eConfig, { edit: (text) => text.replace(/^max_batch_timeout = \d+$/gm, "max_batch_timeout = 0") });
  folder = mkdtempSync(join(tmpdir(), "assent-e2e-run-"));
  const status = join(folder, "service.json");
  // The migrations are applied once, into a state every service of the run copies (scripts/local-service.mjs
  // `migrateState`): the forks Vitest starts after this setup, and the scripts they run, inherit the variable, and
  // copy it only once the service below has started (service-ready.ts), so after the migrations are in.
  const migrated = join(folder, "migrated");
  process.env[migratedStateVariable] = migrated;
  // Named now, bound minutes later: a port no outgoing connection takes meanwhile.
  const port = await lastingPort();
  const adminToken = "e2e-admin-token";
  const report = (outcome: { demoProjectId: string; browserEndpoint: string } | { error: string }) => {
    writeFileSync(`${status}.part`, JSON.stringify(outcome));
    renameSync(`${status}.part`, status);
  };
  started = (async () => {
    // Alongside the migrations: the client bundles the service serves, unless the caller built them already (.ci/run
    // builds before testing), the one Chromium every browser file connects to (test/e2e/browser.ts), and a local
    // stand-in serving the vendored snapshot of the TCF lists the cron fetches (test/e2e/tcf-lists-server.ts).
    browserServer = launchBrowserServer();
    const [browser, lists] = await Promise.all([browserServer, tcfListsServer(), applyMigrations(migrated), !process.env.ASSENT_CLIENT_BUILT && buildClient()]);
    tcfLists = lists;
    service = await startService({
      name: "e2e",
      config: e2eConfig,
      port,
      adminToken,
      // As `npm start` runs it: webhook secrets can be stored, webhooks may point at this machine, the cron can be
      // run, and the bootstrap takes a forced regime (LOCAL_DEV).
      // Single sign-on may use a provider on this machine (test/e2e/portal-sso.test.ts starts one).
      // The test-only browser signal is data in TEST_SIGNALS (test/e2e/widget-rules.test.ts records it).
      vars: { WEBHOOK_SECRETS_KEY: newSecretKey(), ALLOW_LOOPBACK_WEBHOOKS: "true", ALLOW_LOOPBACK_SSO: "true", LOCAL_DEV: "true", TEST_SIGNALS: JSON.stringify(JSON.parse(readFileSync("test/test-signals.json", "utf8"))), ...tcfLists.vars },
      options: ["--test-scheduled"],
    });
    const demo = await seedDemo(service.baseUrl, service.adminToken);
    report({ demoProjectId: demo.projectId, browserEndpoint: browser.wsEndpoint() });
  })().catch((error: Error) => report({ error: error.stack ?? error.message }));
  project.provide("baseUrl", `http://127.0.0.1:${port}`);
  project.provide("adminToken", adminToken);
  project.provide("e2eService", status);
}

export async function teardown() {
  await started;
  await Promise.all([service?.stop(), tcfLists?.stop(), browserServer?.then((browser) => browser.close(), () => {})]);
  if (folder) rmSync(folder, { recursive: true, force: true });
  rmSync(e2eConfig, { force: true });
}
