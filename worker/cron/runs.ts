import type { Env } from "../env";
import { databaseNames, defaultDatabase, envOn } from "../lib/databases";
import { logger } from "../lib/logger";

/**
 * A job the cron trigger runs: on `env` whose `DB` is the database it runs on (`database`, that binding's name), as of
 * `asOf`, the trigger's scheduled time. "every database": project tables are in every database
 * (worker/lib/databases.ts); "DB": the hub's tables, in `DB` only.
 */
export type ScheduledJob = [job: (env: Env, asOf: number, database: string) => Promise<unknown>, on: "every database" | "DB"];

/** One run of one job on one database: what the cron sends, one message each, and the consumer runs. */
export type CronMessage = { job: string; database: string; asOf: number };

/** The queue the cron's messages go through (keep in step with wrangler.toml). */
export const cronQueue = "assent-cron";

/** `sendBatch` takes at most 100 messages. */
const messagesPerSend = 100;

/** The messages of one trigger: each job by its name, on each database it runs on. */
export const cronMessages = (env: Env, jobs: readonly ScheduledJob[], asOf: number): CronMessage[] =>
  jobs.flatMap(([job, on]) => (on === "DB" ? [defaultDatabase] : databaseNames(env)).map((database) => ({ job: job.name, database, asOf })));

/**
 * The cron trigger's work: send the runs as messages, one per job and database, so no invocation's queries grow with
 * the number of databases (D1 allows 1,000 per invocation; a consumer invocation runs one batch of single runs) and a
 * slow or failing database holds up no other.
 */
export async function sendScheduledRuns(env: Env, jobs: readonly ScheduledJob[], asOf: number): Promise<void> {
  const messages = cronMessages(env, jobs, asOf);
  const chunks: CronMessage[][] = [];
  for (let i = 0; i < messages.length; i += messagesPerSend) chunks.push(messages.slice(i, i + messagesPerSend));
  const refused = (
    await Promise.all(
      chunks.map((chunk) =>
        env.CRON_QUEUE.sendBatch(chunk.map((body) => ({ body }))).then(
          () => [],
          (error: unknown) => [{ chunk, error }],
        ),
      ),
    )
  ).flat();
  if (refused.length === 0) return;
  // Nothing is lost (the next minute sends the runs again), but the trigger fails, so it shows in the cron's history.
  const runs = refused.flatMap(({ chunk }) => chunk.map(({ job, database }) => `${job} on ${database}`));
  logger.error("scheduled_runs_not_queued", { job: runs.join(", "), count: runs.length }, refused[0]!.error);
  throw new AggregateError(
    refused.map(({ error }) => error),
    `${runs.length} scheduled run(s) not queued`,
  );
}

/**
 * The consumer of the cron's queue: each message runs its job on its database, side by side. A failed run is
 * logged and handed back to the queue (wrangler.toml gives the queue no retries: the next minute's message runs the
 * job again); a message naming a job or database this deployment lacks (sent before a deploy) is logged and dropped.
 */
export async function runScheduledMessages(batch: MessageBatch<CronMessage>, env: Env, jobs: readonly ScheduledJob[]): Promise<void> {
  const byName = new Map(jobs.map(([job]) => [job.name, job]));
  const known = new Set(databaseNames(env));
  await Promise.all(
    batch.messages.map(async (message) => {
      const { job: name, database, asOf } = message.body;
      const job = byName.get(name);
      if (!job || !known.has(database)) {
        logger.error("scheduled_run_dropped", { job: name, binding: database });
        message.ack();
        return;
      }
      try {
        await job(envOn(env, database), asOf, database);
        message.ack();
      } catch (error) {
        logger.error("scheduled_job_failed", { job: name, binding: database }, error);
        message.retry();
      }
    }),
  );
}
