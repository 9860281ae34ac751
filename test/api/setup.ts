import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";

// Every database carries the whole schema (worker/lib/databases.ts).
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
await applyD1Migrations(env.DB_SHARD_1, env.TEST_MIGRATIONS);
