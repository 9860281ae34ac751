/**
 * Webhook secrets. They key an HMAC, so unlike client secrets they cannot be stored as hashes: they are
 * stored encrypted with AES-256-GCM under a key derived (HKDF-SHA-256) from the `WEBHOOK_SECRETS_KEY`
 * binding, with the webhook id as additional data so a ciphertext cannot be moved to another webhook.
 * A database dump alone therefore reveals no secret. Stored form: `v1.<iv>.<ciphertext>` (base64url).
 */
import type { Env } from "../env";
import { base64, base64url, derivedAesKey, fromBase64, fromBase64url } from "../lib/crypto";
import { notConfigured } from "../lib/settings";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const secretPrefix = "whsec_";


/** A new secret in the Standard Webhooks form: `whsec_` and the base64 of 32 random bytes (the HMAC key). */
export function newWebhookSecret(): string {
  return secretPrefix + base64(crypto.getRandomValues(new Uint8Array(32)));
}

function encryptionKey(master: string | undefined): Promise<CryptoKey> {
  if (!master) {
    throw notConfigured("WEBHOOK_SECRETS_KEY", "Webhooks need the WEBHOOK_SECRETS_KEY secret to be set on the server.");
  }
  return derivedAesKey(master, "webhook-secrets/v1");
}

export async function encryptSecret(master: string | undefined, webhookId: string, secret: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: encoder.encode(webhookId) },
    await encryptionKey(master),
    encoder.encode(secret),
  );
  return `v1.${base64url(iv)}.${base64url(new Uint8Array(sealed))}`;
}

async function decryptWith(master: string | undefined, webhookId: string, stored: string): Promise<string> {
  const [version, iv, sealed] = stored.split(".");
  if (version !== "v1" || !iv || !sealed) throw new Error(`Unknown webhook secret format for ${webhookId}`);
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: fromBase64url(iv), additionalData: encoder.encode(webhookId) },
    await encryptionKey(master),
    fromBase64url(sealed),
  );
  return decoder.decode(plain);
}

/** The keys a stored secret may be under: the current one, and during a rotation the previous one. */
export type SecretsKeys = Pick<Env, "WEBHOOK_SECRETS_KEY" | "WEBHOOK_SECRETS_KEY_PREVIOUS">;

/**
 * A stored secret in the clear, and whether it was under the previous key (docs/operations.md#rotating-secrets):
 * AES-GCM authenticates, so a ciphertext under another key fails to decrypt rather than yielding garbage.
 */
export async function openSecret(keys: SecretsKeys, webhookId: string, stored: string): Promise<{ secret: string; underPrevious: boolean }> {
  try {
    return { secret: await decryptWith(keys.WEBHOOK_SECRETS_KEY, webhookId, stored), underPrevious: false };
  } catch (error) {
    if (!keys.WEBHOOK_SECRETS_KEY_PREVIOUS?.trim()) throw error;
    return { secret: await decryptWith(keys.WEBHOOK_SECRETS_KEY_PREVIOUS, webhookId, stored), underPrevious: true };
  }
}

export const decryptSecret = async (keys: SecretsKeys, webhookId: string, stored: string) => (await openSecret(keys, webhookId, stored)).secret;

/**
 * The `webhook-signature` header value (Standard Webhooks): `v1,<base64 HMAC-SHA256>` of
 * `{id}.{timestamp}.{body}` for each secret, space-separated, keyed with the base64-decoded part after `whsec_`.
 */
export async function signatureHeader(secrets: string[], id: string, timestamp: number, body: string): Promise<string> {
  const content = encoder.encode(`${id}.${timestamp}.${body}`);
  const signatures = await Promise.all(
    secrets.map(async (secret) => {
      const key = await crypto.subtle.importKey(
        "raw",
        fromBase64(secret.slice(secretPrefix.length)),
        { name: "HMAC", hash: "SHA-256" },
        false,
        ["sign"],
      );
      return `v1,${base64(new Uint8Array(await crypto.subtle.sign("HMAC", key, content)))}`;
    }),
  );
  return signatures.join(" ");
}
