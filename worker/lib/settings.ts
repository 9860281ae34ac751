import { createMiddleware } from "hono/factory";
import type { AppEnv, Env } from "../env";
import { missingDatabases } from "./databases";
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

/**
 * The service's public origin, from the configured issuer (`ISSUER`), never from the request's `Host`: what the
 * service writes into cached answers and links (blocking.js, blocking.json, download links) must not be a name an
 * attacker chose for one request (cache poisoning, links to their host).
 */
export const publicOrigin = (env: Env): string => new URL(requireSetting(env, "ISSUER")).origin;

/** Bindings the Worker cannot serve without (wrangler.toml); the rate limiters are listed in worker/limits. */
const requiredBindings = [
  "DB",
  "KV",
  "WEBHOOK_QUEUE",
  "ASSETS",
  "VISITOR_TOKENS_IP_LIMITER",
  "VISITOR_TOKENS_PROJECT_LIMITER",
  "TOKEN_ENDPOINT_LIMITER",
  "PORTAL_SIGN_IN_LIMITER",
  "ADMIN_FAILURES_LIMITER",
] as const satisfies readonly (keyof Env)[];
const requiredSettings: readonly RequiredSetting[] = ["ADMIN_TOKEN", "SIGNING_KEYS", "ISSUER", "WEBHOOK_SECRETS_KEY"];

/** What is missing for the Worker to serve every route: names only, never values. */
export function missingConfiguration(env: Env): string[] {
  return [
    ...requiredSettings.filter((name) => typeof env[name] !== "string" || env[name]!.trim() === ""),
    ...requiredBindings.filter((name) => !env[name]),
    ...missingDatabases(env).filter((name) => name !== "DB"),
  ];
}

/** Every route but liveness needs storage: without D1 or KV the answer is 503 `not_configured` naming it. */
export const requireStorage = createMiddleware<AppEnv>(async (c, next) => {
  for (const name of ["DB", "KV"] as const) {
    if (!c.env[name]) throw notConfigured(name, `The ${name} binding is not configured on this deployment.`);
  }
  await next();
});
