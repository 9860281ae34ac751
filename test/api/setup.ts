import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, expect } from "vitest";
import { prefixOf } from "../../worker/lib/kv";
import { allKvKeys } from "./kv-listing";
import { captured, personalDataIn, startCapture } from "./log-capture";

// Every database carries the whole schema (worker/lib/databases.ts).
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
await applyD1Migrations(env.DB_SHARD_1, env.TEST_MIGRATIONS);

// Whatever a test file does, the Worker logs no personal data and writes no unclassified key to KV
// (docs/operations-data.md): both are checked once the file's tests have run.
startCapture();
afterAll(async () => {
  expect(personalDataIn(captured), "log lines with personal data").toEqual([]);
  const keys = await allKvKeys(env.KV);
  expect(keys.filter((key) => prefixOf(key) === undefined), "KV keys without a classified prefix (worker/lib/kv.ts)").toEqual([]);
});
