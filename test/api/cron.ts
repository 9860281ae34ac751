import { createExecutionContext, createMessageBatch, createScheduledController, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { cronQueue, type CronMessage } from "../../worker/cron/runs";
import type { Env } from "../../worker/env";
import worker from "../../worker/index";

/**
 * One cron trigger run to its end, as of `scheduledTime` (tests move it forward instead of waiting): the Worker's
 * `scheduled` handler with `vars` over the test bindings, the messages it sends kept rather than queued, then all
 * handed to the Worker's queue consumer in one batch. Rejects when a run failed, naming it. (The queue itself, from
 * the trigger to the consumer: test/api/cron-queue.test.ts.)
 */
export async function runCron(scheduledTime = Date.now(), vars: Partial<Env> = {}): Promise<void> {
  const sent: CronMessage[] = [];
  const kept = {
    send: async (body: CronMessage) => void sent.push(body),
    sendBatch: async (messages: Iterable<MessageSendRequest<CronMessage>>) => void sent.push(...[...messages].map((m) => m.body)),
  };
  const cronEnv = { ...env, ...vars, CRON_QUEUE: kept } as unknown as Env;
  await worker.scheduled(createScheduledController({ cron: "* * * * *", scheduledTime }), cronEnv);
  const batch = createMessageBatch(
    cronQueue,
    sent.map((body, i) => ({ id: `cron-${i}`, timestamp: new Date(scheduledTime), attempts: 1, body })),
  );
  await worker.queue(batch, cronEnv);
  const { retryMessages } = await getQueueResult(batch, createExecutionContext());
  const failed = retryMessages.map(({ msgId }) => sent[Number(msgId.slice("cron-".length))]);
  if (failed.length > 0) {
    const runs = failed.map((m) => new Error(`${m?.job} on ${m?.database} failed`));
    throw new AggregateError(runs, `scheduled runs failed: ${runs.map((e) => e.message).join(", ")}`);
  }
}
