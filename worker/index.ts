import { app } from "./app";
import type { Env } from "./env";
import { consumeDeliveries, type DeliveryMessage } from "./events/delivery";
import { dispatchPending } from "./events/outbox";
import { retrySmsHandOffs } from "./hub/outbox";
import { sealLogs } from "./proof/log";

/**
 * What the cron trigger runs (wrangler.toml `[triggers]`). Add a job by appending it; each runs even if
 * another fails, and any failure fails the invocation so it shows in the cron's history.
 */
const scheduledJobs: Array<(env: Env) => Promise<unknown>> = [
  // Outbox rows and deliveries that were not handed to the queue (the request's tail failed or was cut short).
  dispatchPending,
  // SMS whose hand-off to the upstream gateway failed or never finished.
  retrySmsHandOffs,
  // Signed tree heads over the log entries written since the last head (README "Proof of consent").
  sealLogs,
];

export default {
  fetch: app.fetch,
  queue: consumeDeliveries,
  async scheduled(_controller, env) {
    const results = await Promise.allSettled(scheduledJobs.map((job) => job(env)));
    const failures = results.flatMap((r) => (r.status === "rejected" ? [r.reason] : []));
    for (const failure of failures) console.error("scheduled job failed:", failure);
    if (failures.length > 0) throw new AggregateError(failures, `${failures.length} scheduled job(s) failed`);
  },
} satisfies ExportedHandler<Env, DeliveryMessage>;
