import type { Env } from "../env";
import { ApiError } from "./errors";

/** Secrets and vars without which a feature cannot work; missing, its requests answer 503 `not_configured`. */
export type RequiredSetting = "ADMIN_TOKEN" | "SIGNING_KEYS" | "ISSUER" | "WEBHOOK_SECRETS_KEY";

export const notConfigured = (name: string, detail = `${name} is not configured on this deployment.`) =>
  new ApiError(503, "not_configured", detail, { members: { setting: name } });

/** The value of a required secret or var, or a 503 naming it (an operator's mistake, not the caller's). */
export function requireSetting(env: Env, name: RequiredSetting): string {
  const value = env[name];
  if (typeof value !== "string" || value.trim() === "") throw notConfigured(name);
  return value;
}
