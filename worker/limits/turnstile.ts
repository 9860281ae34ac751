import type { Env } from "../env";
import { logger } from "../lib/logger";

/** Cloudflare's server-side check of a Turnstile token. */
const siteverifyUrl = "https://challenges.cloudflare.com/turnstile/v0/siteverify";
/** How long siteverify may take before the token counts as not passed. */
const siteverifyTimeoutMs = 5000;

/** Whether this deployment can challenge at all: both Turnstile keys set. */
export const challengesOn = (env: Env) => Boolean(env.TURNSTILE_SITE_KEY && env.TURNSTILE_SECRET_KEY);

/**
 * Whether `token` (from the Turnstile widget the page rendered) passes siteverify for the client at `remoteIp`.
 * Fails closed: no keys, no token, an error, a timeout or an unreadable answer all count as not passed. The one
 * place the service talks to Turnstile; TURNSTILE_VERIFY_URL points it elsewhere (the tests' stand-in).
 */
export async function passesChallenge(env: Env, token: string | undefined, remoteIp: string): Promise<boolean> {
  if (!challengesOn(env) || !token) return false;
  try {
    const answer = await fetch(env.TURNSTILE_VERIFY_URL ?? siteverifyUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ secret: env.TURNSTILE_SECRET_KEY, response: token, remoteip: remoteIp }),
      signal: AbortSignal.timeout(siteverifyTimeoutMs),
    });
    const outcome = (await answer.json()) as { success?: unknown; "error-codes"?: string[] };
    if (outcome.success !== true) logger.info("turnstile_refused", { code: (outcome["error-codes"] ?? []).join(",") });
    return outcome.success === true;
  } catch (error) {
    logger.error("turnstile_unreachable", {}, error);
    return false;
  }
}
