import { app } from "./app";
import { cronQueue, runScheduledMessages, sendScheduledRuns, type CronMessage, type ScheduledJob } from "./cron/runs";
import type { Env } from "./env";
import { buryDeliveries, consumeDeliveries, deadLetterQueue, deliveryQueue, type DeliveryMessage } from "./events/delivery";
import { dispatchPending } from "./events/outbox";
import { reencryptWebhookSecrets } from "./events/secrets-key-rotation";
import { reencryptSsoSecrets } from "./accounts/sso-key-rotation";
import { purgeEmailOutbox, purgeDispatchedEvents, purgeIdleVisitors, purgeVerifications, purgeWebhookDeliveries } from "./retention/jobs";
import { purgeSmsTexts, retrySmsHandOffs } from "./hub/cron";
import { checkAlerts } from "./ops/alerts";
import { sealLogs } from "./proof/log";
import { purgeExpired } from "./retention/expiring";
import { queueDueScans, runQueuedScans } from "./scans/schedule";
import { refreshTcfLists } from "./tcf/refresh";

/** Outbox rows and deliveries that were not handed to the queue (the request's tail failed or was cut short). */
const dispatchOutbox = (env: Env) => dispatchPending(env, env.DB);

/** Site scans: queue those the projects' schedules make due, then run a few. */
const runScheduledScans = async (env: Env, asOf: number) => {
  await queueDueScans(env, asOf);
  return runQueuedScans(env, asOf);
};

/**
 * What the cron trigger runs (wrangler.toml `[triggers]`). Add a job by appending it, a named function (the queue
 * messages name it): the trigger sends one message per job and database it runs on, and the `assent-cron` queue's
 * consumer runs each on its own, so one failing does not stop the others (worker/cron/runs.ts). Locally `npm start`
 * runs them every minute too (wrangler dev --test-scheduled; see scripts/dev.mjs).
 */
export const scheduledJobs: ScheduledJob[] = [
  [dispatchOutbox, "every database"],
  // SMS whose hand-off failed or never finished; expiry and failover (docs/hub.md#sms-routes-and-providers).
  [retrySmsHandOffs, "DB"],
  // Retention (docs/security.md#retention): idle visitor identities, finished delivery logs, dispatched events.
  [purgeIdleVisitors, "every database"],
  [purgeWebhookDeliveries, "every database"],
  [purgeDispatchedEvents, "every database"],
  // Privacy-center verification records past their project's retention (docs/privacy-center.md#retention).
  [purgeVerifications, "every database"],
  // Captured email (no provider configured) a day after it was written: it holds one-time codes.
  [purgeEmailOutbox, "every database"],
  // SMS texts past their retention.
  [purgeSmsTexts, "DB"],
  // Signed tree heads over the log entries written since the last head (docs/proof.md#tamper-evident-log).
  [sealLogs, "every database"],
  // While WEBHOOK_SECRETS_KEY_PREVIOUS is set: webhook secrets moved to the new key (docs/operations.md#rotating-secrets).
  [reencryptWebhookSecrets, "every database"],
  // ...and the organizations' single sign-on client secrets, under the same key (docs/security.md#single-sign-on).
  [reencryptSsoSecrets, "DB"],
  // The operator's counters against their thresholds; an ops.alert per crossing (docs/operations-alerts.md).
  [checkAlerts, "DB"],
  // Site scans on deployments with Browser Rendering: queue those the projects' schedules make due, run a few
  // (docs/scans-api.md#schedule). Without the SCANNER binding (the scanner's Worker) both do nothing.
  [runScheduledScans, "every database"],
  // Portal sessions, kept billing-system answers and address blocks past their end (worker/retention/expiring.ts).
  [purgeExpired, "DB"],
  // IAB's GVL and its translations, Google's ATP list: after each weekly publication (docs/tcf.md#the-hosted-lists).
  [refreshTcfLists, "DB"],
];

type Consumer = (batch: MessageBatch<never>, env: Env) => Promise<void>;
/** A consumer of one queue: the queue's name says what its messages are. */
const consumer = <Body>(consume: (batch: MessageBatch<Body>, env: Env) => Promise<void>) => consume as Consumer;

/** The queues this Worker consumes (wrangler.toml `[[queues.consumers]]`), by name. */
const queueConsumers: Record<string, Consumer> = {
  [deliveryQueue]: consumer<DeliveryMessage>(consumeDeliveries),
  [deadLetterQueue]: consumer<DeliveryMessage>(buryDeliveries),
  [cronQueue]: consumer<CronMessage>((batch, env) => runScheduledMessages(batch, env, scheduledJobs)),
};

export default {
  fetch: app.fetch,
  async queue(batch, env) {
    const consume = queueConsumers[batch.queue];
    if (!consume) throw new Error(`No consumer for queue ${batch.queue}: add it to queueConsumers in worker/index.ts.`);
    await consume(batch as MessageBatch<never>, env);
  },
  // The trigger's own time is what "due" and "older than" are measured against, so a late run (or a test) acts as of
  // that moment.
  scheduled: (controller, env) => sendScheduledRuns(env, scheduledJobs, controller.scheduledTime),
} satisfies ExportedHandler<Env, DeliveryMessage | CronMessage>;
