const encoder = new TextEncoder();

/**
 * Hex and base64 (RFC 4648) through the runtime's own coders, `Uint8Array#toHex`/`toBase64` and
 * `Uint8Array.fromHex`/`fromBase64` (TypeScript's lib does not declare them yet): hashes and receipts are encoded on
 * every write, and the per-byte strings, btoa and replacements they replace showed in the write's profile.
 */
type Alphabet = { alphabet?: "base64" | "base64url" };
type Coding = {
  toHex(): string;
  toBase64(options: Alphabet & { omitPadding?: boolean }): string;
};
type Decoded = Uint8Array<ArrayBuffer>;
type Decoding = { fromHex(text: string): Decoded; fromBase64(text: string, options: Alphabet): Decoded };
const coded = (bytes: ArrayBuffer | Uint8Array) => (bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)) as Uint8Array & Coding;
const decoding = Uint8Array as unknown as Decoding;

/** Lower-case hex, two digits per byte: hashes in records, logs and signatures. */
export const hex = (bytes: ArrayBuffer | Uint8Array): string => coded(bytes).toHex();
/** Decodes hex; throws a SyntaxError on anything else. */
export const fromHex = (text: string): Decoded => decoding.fromHex(text);

export async function sha256Hex(value: string): Promise<string> {
  return hex(await crypto.subtle.digest("SHA-256", encoder.encode(value)));
}

/** Base64 with padding (RFC 4648 §4): Standard Webhooks secrets and signatures, HTTP Basic credentials. */
export const base64 = (bytes: ArrayBuffer | Uint8Array): string => coded(bytes).toBase64({});
/** Decodes base64 (§4); throws a SyntaxError on anything else. */
export const fromBase64 = (text: string): Decoded => decoding.fromBase64(text, {});
/** Base64url without padding (RFC 4648 §5), as JWS writes its parts. */
export const base64url = (bytes: ArrayBuffer | Uint8Array): string => coded(bytes).toBase64({ alphabet: "base64url", omitPadding: true });
/** Decodes base64url (§5), padded or not; throws a SyntaxError on anything else. */
export const fromBase64url = (text: string): Decoded => decoding.fromBase64(text, { alphabet: "base64url" });

/** A random secret of 256 bits, base64url, with a prefix that says what it is (and lets secret scanners find it). */
export function randomSecret(prefix: string): string {
  return `${prefix}_${base64url(crypto.getRandomValues(new Uint8Array(32)))}`;
}

/** Compares two strings in time independent of where they differ (both are hashed first, so lengths match). */
export async function constantTimeEqual(a: string, b: string): Promise<boolean> {
  const [ha, hb] = await Promise.all([
    crypto.subtle.digest("SHA-256", encoder.encode(a)),
    crypto.subtle.digest("SHA-256", encoder.encode(b)),
  ]);
  return crypto.subtle.timingSafeEqual(ha, hb);
}

/** Checks a presented secret against its stored SHA-256 hex, in constant time. */
export async function secretMatches(presented: string, storedHash: string): Promise<boolean> {
  const presentedHash = await sha256Hex(presented);
  const a = encoder.encode(presentedHash);
  const b = encoder.encode(storedHash);
  return a.byteLength === b.byteLength && crypto.subtle.timingSafeEqual(a, b);
}

const derivedKeys = new Map<string, Promise<CryptoKey>>();

/**
 * An AES-256-GCM key derived (HKDF-SHA-256, salt "assent") from a secret's key material for one use (`info`), kept
 * for the isolate's life: one secret serves several uses, each under a key of its own.
 */
export function derivedAesKey(master: string, info: string): Promise<CryptoKey> {
  const id = `${info}\u0000${master}`;
  let key = derivedKeys.get(id);
  if (!key) {
    key = crypto.subtle
      .importKey("raw", encoder.encode(master), "HKDF", false, ["deriveKey"])
      .then((base) =>
        crypto.subtle.deriveKey(
          { name: "HKDF", hash: "SHA-256", salt: encoder.encode("assent"), info: encoder.encode(info) },
          base,
          { name: "AES-GCM", length: 256 },
          false,
          ["encrypt", "decrypt"],
        ),
      );
    derivedKeys.set(id, key);
  }
  return key;
}
