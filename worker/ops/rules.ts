import type { Env } from "../env";
import type { CounterName } from "./counters";

type ThresholdSetting = Extract<keyof Env, `ALERT_${string}`>;

export type AlertRule = {
  rule: string;
  counter: CounterName;
  unit: "seconds" | "deliveries" | "messages" | "ratio";
  /** The variable that overrides `threshold`. */
  setting: ThresholdSetting;
  /** The rule fires while the counter is at or above this. */
  threshold: number;
};

/** The alert rules (docs/operations-alerts.md#rules): one per counter, each with a default threshold an ALERT_* var overrides. */
export const alertRules = [
  { rule: "outbox_backlog", counter: "outboxBacklogAgeSeconds", unit: "seconds", setting: "ALERT_OUTBOX_BACKLOG_SECONDS", threshold: 900 },
  { rule: "dead_letters", counter: "deadLetters", unit: "deliveries", setting: "ALERT_DEAD_LETTERS", threshold: 1 },
  { rule: "failed_seals", counter: "unsealedLogAgeSeconds", unit: "seconds", setting: "ALERT_UNSEALED_LOG_SECONDS", threshold: 600 },
  { rule: "sms_failures", counter: "smsFailures", unit: "messages", setting: "ALERT_SMS_FAILURES", threshold: 10 },
  { rule: "webhook_failure_rate", counter: "webhookFailureRate", unit: "ratio", setting: "ALERT_WEBHOOK_FAILURE_RATE", threshold: 0.5 },
  // Any failing refresh fires at the next check: the last good list keeps being served, but IAB's Policies want it current.
  { rule: "tcf_lists_failing", counter: "tcfListFailingSeconds", unit: "seconds", setting: "ALERT_TCF_LISTS_FAILING_SECONDS", threshold: 1 },
] as const satisfies readonly AlertRule[];

export type RuleName = (typeof alertRules)[number]["rule"];

/** The rule's threshold on this deployment: its variable when that is a positive number, else the default. */
export function thresholdOf(env: Env, rule: AlertRule): number {
  const value = Number(env[rule.setting]);
  return env[rule.setting] !== undefined && Number.isFinite(value) && value > 0 ? value : rule.threshold;
}

/** A counter with nothing to measure (a failure rate over too few attempts) never fires. */
export const isFiring = (value: number | null, threshold: number) => value !== null && value >= threshold;
