import type { Env } from "../env";
import { postSigned } from "../events/delivery";
import { loopbackAllowed, webhookUrlProblem } from "../../shared/ssrf";

/**
 * The operator's webhook: `OPS_WEBHOOK_URL`, called like a project's webhook (the same SSRF guard, Standard Webhooks
 * signature, timeout and no redirects) but sent by the cron directly rather than through the queue, since an alert
 * may be about the queue. `OPS_WEBHOOK_SECRET` is a `whsec_…` secret the operator generates.
 */
export type OpsEvent = { id: string; type: "ops.alert"; created: string; data: Record<string, unknown> };

export const opsWebhookConfigured = (env: Env) => (env.OPS_WEBHOOK_URL ?? "").trim() !== "";

/** What is wrong with the operator's webhook settings, per setting (names and reasons, never values). */
export function opsWebhookProblems(env: Env): { setting: "OPS_WEBHOOK_URL" | "OPS_WEBHOOK_SECRET"; reason: string }[] {
  if (!opsWebhookConfigured(env)) return [];
  const problems: ReturnType<typeof opsWebhookProblems> = [];
  const refusal = webhookUrlProblem(env.OPS_WEBHOOK_URL!.trim(), loopbackAllowed(env));
  if (refusal) problems.push({ setting: "OPS_WEBHOOK_URL", reason: `refused by the SSRF guard: ${refusal}` });
  if (!/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(env.OPS_WEBHOOK_SECRET ?? "")) {
    problems.push({ setting: "OPS_WEBHOOK_SECRET", reason: "OPS_WEBHOOK_SECRET must be set to a whsec_… secret" });
  }
  return problems;
}

/** Posts one event; throws with the reason when the settings are wrong or the endpoint did not answer 2xx in time. */
export async function sendOpsEvent(env: Env, event: OpsEvent): Promise<void> {
  const problems = opsWebhookProblems(env);
  if (problems.length > 0) throw new Error(problems.map((p) => p.reason).join("; "));
  const outcome = await postSigned(env, env.OPS_WEBHOOK_URL!.trim(), async () => [env.OPS_WEBHOOK_SECRET!], event.id, event);
  if (outcome.error) throw new Error(outcome.error);
}
