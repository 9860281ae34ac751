import { base64url, fromBase64url, sha256Hex } from "../lib/crypto";
import { ttlCache } from "../../shared/ttl-cache";

/**
 * Provider-user passwords are chosen by people, so they are stored as PBKDF2-SHA256 (the slow hash WebCrypto
 * offers; 100 000 iterations is the Workers maximum) with a random salt, and compared in constant time.
 */
const iterations = 100_000;
const scheme = "pbkdf2-sha256";
const encoder = new TextEncoder();


async function derive(password: string, salt: Uint8Array, rounds: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations: rounds }, key, 256);
  return new Uint8Array(bits);
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  return `${scheme}$${iterations}$${base64url(salt)}$${base64url(await derive(password, salt, iterations))}`;
}

/** Stands in for a missing user, so an unknown name costs the same time as a wrong password (all-zero salt and hash, base64url). */
const decoyHash = `${scheme}$${iterations}$${"A".repeat(22)}$${"A".repeat(43)}`;

/** Successful checks, remembered in the isolate for a while: PBKDF2 is deliberately slow and clients send in bursts. */
const recentMatches = ttlCache<true>(300_000);

/** Whether the password matches the stored hash (pass null for an unknown user: still costs one derivation). */
export async function passwordMatches(password: string, storedHash: string | null): Promise<boolean> {
  const stored = storedHash ?? decoyHash;
  const memoKey = await sha256Hex(`${stored}\u0000${password}`);
  if (storedHash && recentMatches.get(memoKey)) return true;
  const [kind, rounds, salt, expected] = stored.split("$");
  if (kind !== scheme || !salt || !expected) return false;
  const actual = await derive(password, fromBase64url(salt), Number(rounds));
  const expectedBytes = fromBase64url(expected);
  const matches =
    storedHash !== null && actual.byteLength === expectedBytes.byteLength && crypto.subtle.timingSafeEqual(actual, expectedBytes);
  if (matches) recentMatches.set(memoKey, true);
  return matches;
}
