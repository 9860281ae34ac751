// The api files share a workerd (vitest.config.ts), and test/api/setup.ts starts each with `reset()` of
// `cloudflare:test`, then applies the migrations: that reset must empty both databases and KV.
import { applyD1Migrations, reset } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { newProject } from "./helpers";
import { allKvKeys } from "./kv-listing";

const schemaOf = async (db: D1Database) =>
  (await db.prepare("SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'").all<{ name: string }>()).results;

it("leaves both databases without a table and KV without a key, and the migrations then apply from the start", async () => {
  await newProject();
  await env.DB_SHARD_1.batch([env.DB_SHARD_1.prepare("CREATE TABLE leftover (id TEXT)"), env.DB_SHARD_1.prepare("INSERT INTO leftover VALUES ('x')")]);
  await env.KV.put("client:v2:leftover", "x");
  expect((await schemaOf(env.DB)).length).toBeGreaterThan(0);

  await reset();

  expect(await schemaOf(env.DB)).toEqual([]);
  expect(await schemaOf(env.DB_SHARD_1)).toEqual([]);
  expect(await allKvKeys(env.KV)).toEqual([]);
  for (const db of [env.DB, env.DB_SHARD_1]) await applyD1Migrations(db, env.TEST_MIGRATIONS);
  expect(await env.DB.prepare("SELECT count(*) AS n FROM projects").first()).toEqual({ n: 0 });
  expect(await env.DB.prepare("SELECT count(*) AS n FROM d1_migrations").first()).toEqual({ n: env.TEST_MIGRATIONS.length });
});
