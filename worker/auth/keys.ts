import { importJWK, type JWK } from "jose";
import { notConfigured } from "../lib/settings";

export type SigningKey = { kid: string; privateKey: CryptoKey; publicKey: CryptoKey; publicJwk: JWK };

let cached: { source: string; keys: Promise<SigningKey[]> } | undefined;

/** Parses `SIGNING_KEYS` once per isolate: the first key signs, every key verifies (so keys can rotate). */
export function signingKeys(source: string): Promise<SigningKey[]> {
  if (cached?.source !== source) cached = { source, keys: parse(source) };
  return cached.keys;
}

async function parse(source: string): Promise<SigningKey[]> {
  let jwks: JWK[];
  try {
    jwks = JSON.parse(source);
  } catch {
    throw notConfigured("SIGNING_KEYS", "SIGNING_KEYS is not a JSON array of JWKs.");
  }
  if (!Array.isArray(jwks) || jwks.length === 0) throw notConfigured("SIGNING_KEYS", "SIGNING_KEYS holds no key.");
  return Promise.all(
    jwks.map(async (jwk) => {
      if (!jwk.kid || jwk.kty !== "EC" || jwk.crv !== "P-256" || !jwk.d) {
        throw notConfigured("SIGNING_KEYS", "Each SIGNING_KEYS entry must be a private P-256 JWK with a kid.");
      }
      const publicJwk: JWK = { kty: "EC", crv: "P-256", x: jwk.x, y: jwk.y, kid: jwk.kid, alg: "ES256", use: "sig" };
      const [privateKey, publicKey] = await Promise.all([
        importJWK({ ...jwk, alg: "ES256" }, "ES256"),
        importJWK(publicJwk, "ES256"),
      ]);
      return { kid: jwk.kid, privateKey: privateKey as CryptoKey, publicKey: publicKey as CryptoKey, publicJwk };
    }),
  );
}
