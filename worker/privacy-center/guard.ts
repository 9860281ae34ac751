import type { Context } from "hono";
import type { AppEnv } from "../env";
import { sha256Hex } from "../lib/crypto";
import { ApiError } from "../lib/errors";
import { capOf, countsToday, countToday, type DailyCap } from "../limits/daily";
import { clientIp, limitRate, tooManyRequests, withinRate, type Limiter } from "../limits/rate-limits";
import { challengesOn, passesChallenge } from "../limits/turnstile";

/**
 * Who may ask for codes and try them, so that nobody can lock a person out of their own address (issue 37). Each
 * client address has its own budget per address (one asker cannot use up another's); past a ceiling per address,
 * whoever asks, or a daily cap (codes or wrong codes per address, wrong codes per client address), the address or
 * client is "under attack" and every further call needs a passed challenge (Cloudflare Turnstile) instead of
 * being refused, so the person can still get in while someone hammers their address. Without Turnstile keys such a
 * call answers 429. Everything here depends on the address, never on whether it names anyone (no enumeration).
 */
export type Asker = {
  projectId: string;
  /** The address, hashed with the project and channel. */
  addressHash: string;
  /** The client address, hashed: codes remember who asked, counters who guessed. */
  clientHash: string;
  /** A Turnstile token, when the page has one. */
  challenge?: string;
};

/** The steps of each door: the limit per address and client (429), the ceiling per address, the daily caps read. */
const doors = {
  codes: { own: "PRIVACY_CENTER_ALIAS_CLIENT_LIMITER", ceiling: "PRIVACY_CENTER_ALIAS_LIMITER", addressCap: "codes-per-address" },
  verifications: {
    own: "PRIVACY_CENTER_VERIFICATIONS_ALIAS_CLIENT_LIMITER",
    ceiling: "PRIVACY_CENTER_VERIFICATIONS_ALIAS_LIMITER",
    addressCap: "guesses-per-address",
  },
} as const satisfies Record<string, { own: Limiter; ceiling: Limiter; addressCap: DailyCap }>;

export type Door = keyof typeof doors;

export const clientHashOf = (c: Context<AppEnv>) => sha256Hex(`client\n${clientIp(c)}`);

/**
 * Lets a call through `door` or throws: 429 past the client's own budget for the address; past the ceiling or a
 * daily cap, 403 `challenge_required` (with the site key) unless the call carries a token Turnstile passes.
 */
export async function admit(c: Context<AppEnv>, door: Door, asker: Asker): Promise<void> {
  const { own, ceiling, addressCap } = doors[door];
  const { projectId, addressHash, clientHash } = asker;
  await limitRate(c, own, `${projectId}:${addressHash}:${clientHash}`);
  const belowCeiling = await withinRate(c, ceiling, `${projectId}:${addressHash}`);
  const [forAddress, guessesOfClient] = await countsToday(c.var.db, [
    { cap: addressCap, key: addressHash },
    { cap: "guesses-per-client", key: clientHash },
  ]);
  const underAttack = !belowCeiling || forAddress >= capOf(c.env, addressCap) || guessesOfClient >= capOf(c.env, "guesses-per-client");
  if (!underAttack) return;
  if (!challengesOn(c.env)) throw tooManyRequests(c.env, ceiling);
  if (await passesChallenge(c.env, asker.challenge, clientIp(c))) return;
  throw new ApiError(
    403,
    asker.challenge ? "challenge_failed" : "challenge_required",
    asker.challenge
      ? "The challenge was not passed; solve a new one and send its token as `challenge`."
      : "This address is being tried too often; solve the challenge and send its token as `challenge`.",
    { members: { challenge: { provider: "turnstile", siteKey: c.env.TURNSTILE_SITE_KEY } } },
  );
}

/** Counts a code sent to the address today. */
export const countCode = (c: Context<AppEnv>, asker: Asker) => countToday(c.var.db, "codes-per-address", asker.addressHash);

/**
 * Counts a wrong code against the address and the client for today; true when this one reached the address's cap
 * (once a day), so the caller tells the person by the channel itself.
 */
export async function countWrongCode(c: Context<AppEnv>, asker: Asker): Promise<boolean> {
  const [forAddress] = await Promise.all([
    countToday(c.var.db, "guesses-per-address", asker.addressHash),
    countToday(c.var.db, "guesses-per-client", asker.clientHash),
  ]);
  return forAddress === capOf(c.env, "guesses-per-address");
}
