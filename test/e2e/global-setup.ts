// Starts the real service for browser tests: `wrangler dev` on a free port with fresh local D1/KV
// (migrations applied, demo seeded), exactly as `npm start` runs it.
import { readFileSync, rmSync } from "node:fs";
import type { TestProject } from "vitest/node";
import {
  buildClient,
  freshState,
  migratedStateVariable,
  newSecretKey,
  removeState,
  startService,
  writeRaisedLimitsConfig,
  type LocalService,
} from "../../scripts/local-service.mjs";
import { seedDemo } from "../../scripts/seed.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    adminToken: string;
    demoProjectId: string;
  }
}

const e2eConfig = "wrangler.e2e.toml";
let service: LocalService | undefined;
let migrated: string | undefined;

export async function setup(project: TestProject) {
  // Browser tests make many visitors and portal sign-ins from one address within a minute: the same service with
  // every abuse limit raised (as the API tests run it; test/security proves the limits bite), and webhook deliveries
  // handed to the consumer at once rather than after the batch timeout, from a copy of wrangler.toml beside it (its
  // relative paths then mean the same).
  writeRaisedLimitsConfig(e2eConfig, { edit: (text) => text.replace(/^max_batch_timeout = \d+$/gm, "max_batch_timeout = 0") });
  // The migrations are applied once, here, into a state every service of the run copies (scripts/local-service.mjs
  // `migrateState`; the forks Vitest starts after this and the scripts they run inherit the variable). Alongside: the
  // client bundles the service serves, unless the caller built them already (.ci/run builds before testing).
  delete process.env[migratedStateVariable];
  [migrated] = await Promise.all([freshState({ prefix: "assent-migrated-" }), !process.env.ASSENT_CLIENT_BUILT && buildClient()]);
  process.env[migratedStateVariable] = migrated;
  service = await startService({
    name: "e2e",
    config: e2eConfig,
    adminToken: "e2e-admin-token",
    // As `npm start` runs it: webhook secrets can be stored, webhooks may point at this machine, the cron can be
    // run, and the bootstrap takes a forced regime (LOCAL_DEV).
    // Single sign-on may use a provider on this machine (test/e2e/portal-sso.test.ts starts one).
    // The test-only browser signal is data in TEST_SIGNALS (test/e2e/widget-rules.test.ts records it).
    vars: { WEBHOOK_SECRETS_KEY: newSecretKey(), ALLOW_LOOPBACK_WEBHOOKS: "true", ALLOW_LOOPBACK_SSO: "true", LOCAL_DEV: "true", TEST_SIGNALS: JSON.stringify(JSON.parse(readFileSync("test/test-signals.json", "utf8"))) },
    options: ["--test-scheduled"],
  });
  const demo = await seedDemo(service.baseUrl, service.adminToken);
  project.provide("baseUrl", service.baseUrl);
  project.provide("adminToken", service.adminToken);
  project.provide("demoProjectId", demo.projectId);
}

export async function teardown() {
  await service?.stop();
  if (migrated) removeState(migrated);
  rmSync(e2eConfig, { force: true });
}
