import { app } from "./app";
import type { Env } from "./env";
import { consumeDeliveries, type DeliveryMessage } from "./events/delivery";
import { dispatchPending } from "./events/outbox";
import { reencryptWebhookSecrets } from "./events/secrets-key-rotation";
import { purgeDispatchedEvents, purgeIdleVisitors, purgeVerifications, purgeWebhookDeliveries } from "./retention/jobs";
import { purgeSmsTexts, retrySmsHandOffs } from "./hub/cron";
import { checkAlerts } from "./ops/alerts";
import { sealLogs } from "./proof/log";
import { purgeExpired } from "./retention/expiring";
import { databaseNames, defaultDatabase, envOn } from "./lib/databases";
import { queueDueScans, runQueuedScans } from "./scans/schedule";
import { logger } from "./lib/logger";

/**
 * What the cron trigger runs (wrangler.toml `[triggers]`). Add a job by appending it; each runs even if
 * another fails, and any failure fails the invocation so it shows in the cron's history. Locally `npm start` runs
 * them every minute too (wrangler dev --test-scheduled; see scripts/dev.mjs).
 */
const scheduledJobs: Array<[job: (env: Env, asOf: number) => Promise<unknown>, on: "every database" | "DB"]> = [
  // Outbox rows and deliveries that were not handed to the queue (the request's tail failed or was cut short).
  [(env) => dispatchPending(env, env.DB), "every database"],
  // SMS whose hand-off failed or never finished; expiry and failover (docs/hub.md#sms-routes-and-providers).
  [retrySmsHandOffs, "DB"],
  // Retention (docs/security.md#retention): idle visitor identities, finished delivery logs, dispatched events.
  [purgeIdleVisitors, "every database"],
  [purgeWebhookDeliveries, "every database"],
  [purgeDispatchedEvents, "every database"],
  // Privacy-center verification records past their project's retention (docs/privacy-center.md#retention).
  [purgeVerifications, "every database"],
  // SMS texts past their retention.
  [purgeSmsTexts, "DB"],
  // Signed tree heads over the log entries written since the last head (docs/proof.md#tamper-evident-log).
  [sealLogs, "every database"],
  // While WEBHOOK_SECRETS_KEY_PREVIOUS is set: webhook secrets moved to the new key (docs/operations.md#rotating-secrets).
  [reencryptWebhookSecrets, "every database"],
  // The operator's counters against their thresholds; an ops.alert per crossing (docs/operations-alerts.md).
  [checkAlerts, "DB"],
  // Site scans on deployments with Browser Rendering: queue those the projects' schedules make due, run a few
  // (docs/scans-api.md#schedule). Without the BROWSER binding both do nothing.
  [
    async (env, asOf) => {
      await queueDueScans(env, asOf);
      return runQueuedScans(env, asOf);
    },
    "every database",
  ],
  // Portal sessions, kept billing-system answers and address blocks past their end (worker/retention/expiring.ts).
  [purgeExpired, "DB"],
];

/**
 * One run per job and database: project tables are in every database (worker/lib/databases.ts), the hub's in
 * `DB` only. Each job reads `env.DB`, which is the database it runs on.
 */
export const scheduledRuns = (env: Env, asOf: number) =>
  scheduledJobs.flatMap(([job, on]) =>
    (on === "DB" ? [defaultDatabase] : databaseNames(env)).map((name) => job(envOn(env, name), asOf)),
  );

export default {
  fetch: app.fetch,
  queue: consumeDeliveries,
  async scheduled(controller, env) {
    // The trigger's own time: what "due" and "older than" are measured against, so a late invocation (or a test)
    // acts as of that moment.
    const results = await Promise.allSettled(scheduledRuns(env, controller.scheduledTime));
    const failures = results.flatMap((r) => (r.status === "rejected" ? [r.reason] : []));
    for (const failure of failures) logger.error("scheduled_job_failed", {}, failure);
    if (failures.length > 0) throw new AggregateError(failures, `${failures.length} scheduled job(s) failed`);
  },
} satisfies ExportedHandler<Env, DeliveryMessage>;
