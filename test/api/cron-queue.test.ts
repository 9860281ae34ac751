// The cron ran every job on every database in one invocation: at least six queries per database with nothing to do,
// so somewhat over 150 databases reached the 1,000 queries one invocation may make. It now sends one queue message per
// job and database, and the queue's consumer runs one job on one database per message.
import { createExecutionContext, createMessageBatch, createScheduledController, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { visitorAliasType } from "../../shared/scan-visitors";
import type { Env } from "../../worker/env";
import worker, { scheduledJobs } from "../../worker/index";
import { idsFrom } from "../../worker/lib/ids";

const day = 24 * 3600 * 1000;
const [[shardedId]] = Object.entries(JSON.parse(env.PROJECT_DATABASES ?? "{}") as Record<string, string>);
const shard = env.DB_SHARD_1;
const cronQueue = "assent-cron";

/** An identity with only a visitor alias, made 40 days ago in `d1` under `projectId` (whose projects row it creates). */
async function idleVisitor(d1: D1Database, projectId: string) {
  const made = Date.now() - 40 * day;
  const stamp = new Date(made).toISOString();
  const id = `${idsFrom("idn", made)}${crypto.randomUUID().replaceAll("-", "").slice(0, 16).toUpperCase()}`;
  await d1.batch([
    d1.prepare("INSERT OR IGNORE INTO projects (id, name, policies, default_language, created, updated) VALUES (?1, 'Cron', '{}', 'en', ?2, ?2)").bind(projectId, stamp),
    d1.prepare("INSERT INTO identities (id, project_id, created, updated) VALUES (?1, ?2, ?3, ?3)").bind(id, projectId, stamp),
    d1.prepare("INSERT INTO aliases (project_id, type, identifier, identity_id) VALUES (?1, ?2, ?3, ?3)").bind(projectId, visitorAliasType, id),
  ]);
  return id;
}
const present = async (d1: D1Database, id: string) => (await d1.prepare("SELECT id FROM identities WHERE id = ?").bind(id).first()) !== null;

/** `d1` counting the calls made through it (statements run, batches). */
function counted(d1: D1Database) {
  let calls = 0;
  const binding = new Proxy(d1, {
    get(target, property) {
      if (property === "prepare" || property === "batch" || property === "exec" || property === "withSession") calls++;
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { binding, calls: () => calls };
}

describe("the cron through the queue", { timeout: 60_000 }, () => {
  it("sends one message per job and database and runs no job itself", async () => {
    const sent: MessageSendRequest<unknown>[] = [];
    const queue = env.CRON_QUEUE;
    // The real queue, watched: what the handler sends still reaches the consumer.
    const watched = {
      send: (body: unknown, options?: QueueSendOptions) => (sent.push({ body }), queue.send(body as never, options)),
      sendBatch: (messages: Iterable<MessageSendRequest<unknown>>, options?: QueueSendBatchOptions) => (
        sent.push(...messages), queue.sendBatch(messages as never, options)
      ),
    };
    const db = counted(env.DB);
    const other = counted(shard);
    const scheduledTime = Date.now();
    await worker.scheduled(
      createScheduledController({ cron: "* * * * *", scheduledTime }),
      { ...env, DB: db.binding, DB_SHARD_1: other.binding, CRON_QUEUE: watched } as unknown as Env,
    );
    expect(db.calls() + other.calls()).toBe(0);
    const expected = scheduledJobs.flatMap(([job, on]) =>
      (on === "DB" ? ["DB"] : ["DB", "DB_SHARD_1"]).map((database) => ({ job: job.name, database, asOf: scheduledTime })),
    );
    expect(sent.map((m) => m.body)).toEqual(expect.arrayContaining(expected));
    expect(sent).toHaveLength(expected.length);
    // Messages name jobs: each a named function, no two alike.
    expect(new Set(expected.map((m) => m.job)).size).toBe(scheduledJobs.length);
    expect(expected.filter((m) => m.job === "")).toEqual([]);
    expect(expected).toContainEqual({ job: "purgeIdleVisitors", database: "DB_SHARD_1", asOf: scheduledTime });
    expect(expected).not.toContainEqual(expect.objectContaining({ job: "retrySmsHandOffs", database: "DB_SHARD_1" }));
  });

  it("a queue that refuses the runs fails the trigger with a log line naming what was not queued", async () => {
    const refusing = {
      send: async () => Promise.reject(new Error("Queue send failed: injected refusal")),
      sendBatch: async () => Promise.reject(new Error("Queue send failed: injected refusal")),
    };
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const trigger = worker.scheduled(createScheduledController({ cron: "* * * * *", scheduledTime: Date.now() }), {
        ...env,
        CRON_QUEUE: refusing,
      } as unknown as Env);
      await expect(trigger).rejects.toThrow(/not queued/);
      const logged = errors.mock.calls.map((args) => args.map((a) => (typeof a === "object" ? JSON.stringify(a) : String(a))).join(" ")).join("\n");
      expect(logged).toMatch(/scheduled_runs_not_queued.*purgeIdleVisitors on DB_SHARD_1.*injected refusal/s);
    } finally {
      errors.mockRestore();
    }
  });

  it("the queue's consumer runs what the cron sent: an idle visitor in the shard is purged", async () => {
    const idle = await idleVisitor(shard, shardedId);
    await worker.scheduled(createScheduledController({ cron: "* * * * *", scheduledTime: Date.now() }), env);
    await vi.waitFor(async () => expect(await present(shard, idle)).toBe(false), { timeout: 20_000, interval: 100 });
  });

  it("a message runs its one job on its one database", async () => {
    const inShard = await idleVisitor(shard, shardedId);
    const inDb = await idleVisitor(env.DB, `prj_cron_${crypto.randomUUID().slice(0, 8)}`);
    const batch = createMessageBatch(cronQueue, [
      { id: "m-1", timestamp: new Date(), attempts: 1, body: { job: "purgeIdleVisitors", database: "DB_SHARD_1", asOf: Date.now() } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual(["m-1"]);
    expect(await present(shard, inShard)).toBe(false);
    expect(await present(env.DB, inDb)).toBe(true);
  });

  it("a job that fails is retried alone; a message naming no job or database of this Worker is dropped", async () => {
    const inDb = await idleVisitor(env.DB, `prj_cron_${crypto.randomUUID().slice(0, 8)}`);
    // A D1 error mid-job, injected in the shard itself: its watermark cannot be written.
    await shard.exec("CREATE TRIGGER cron_fault BEFORE INSERT ON job_watermarks BEGIN SELECT RAISE(ABORT, 'injected failure'); END;");
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const asOf = Date.now();
      const batch = createMessageBatch(cronQueue, [
        { id: "fails", timestamp: new Date(), attempts: 1, body: { job: "purgeIdleVisitors", database: "DB_SHARD_1", asOf } },
        { id: "runs", timestamp: new Date(), attempts: 1, body: { job: "purgeIdleVisitors", database: "DB", asOf } },
        { id: "no-job", timestamp: new Date(), attempts: 1, body: { job: "noSuchJob", database: "DB", asOf } },
        { id: "no-db", timestamp: new Date(), attempts: 1, body: { job: "purgeIdleVisitors", database: "DB_GONE", asOf } },
      ]);
      const ctx = createExecutionContext();
      await worker.queue(batch, env);
      const result = await getQueueResult(batch, ctx);
      expect(result.retryMessages.map((m) => m.msgId)).toEqual(["fails"]);
      expect([...result.explicitAcks].sort()).toEqual(["no-db", "no-job", "runs"]);
      expect(await present(env.DB, inDb)).toBe(false);
      const logged = errors.mock.calls.map((args) => args.map((a) => (typeof a === "object" ? JSON.stringify(a) : String(a))).join(" ")).join("\n");
      expect(logged).toMatch(/purgeIdleVisitors.*DB_SHARD_1.*injected failure/);
      expect(logged).toMatch(/noSuchJob/);
      expect(logged).toMatch(/DB_GONE/);
    } finally {
      errors.mockRestore();
      await shard.exec("DROP TRIGGER cron_fault;");
    }
  });
});
