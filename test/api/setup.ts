import { applyD1Migrations, reset } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterAll, expect } from "vitest";
import { prefixOf } from "../../worker/lib/kv";
import { allKvKeys } from "./kv-listing";
import { captured, personalDataIn, startCapture } from "./log-capture";

// The file before this one on the same workerd left its data (vitest.config.ts runs the api files without isolation):
// reset() deletes it all, D1 and KV included (test/api/storage-reset.test.ts).
await reset();
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
