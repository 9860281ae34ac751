// Finding: on a fresh start, the cron invocation failed (one scheduled job threw), so outbox dispatch, SMS retries
// and retention never ran locally. The handler is run here as the runtime runs it: the Worker's own `scheduled`
// export, against a fresh database, with a scheduled controller and an execution context.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../worker/index";

describe("the cron trigger", () => {
  it("succeeds on a fresh database", async () => {
    const ctx = createExecutionContext();
    const run = worker.scheduled(createScheduledController({ cron: "* * * * *", scheduledTime: Date.now() }), env, ctx);
    await expect(run).resolves.toBeUndefined();
    await waitOnExecutionContext(ctx);
  });
});
