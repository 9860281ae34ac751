const encoder = new TextEncoder();

/** Two hex digits per byte value: hashing is on every write's path, and per-byte string formatting showed in its profile. */
const byteHex = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

const hex = (bytes: ArrayBuffer | Uint8Array) => {
  let text = "";
  for (const byte of new Uint8Array(bytes)) text += byteHex[byte];
  return text;
};

export async function sha256Hex(value: string): Promise<string> {
  return hex(await crypto.subtle.digest("SHA-256", encoder.encode(value)));
}

/**
 * Base64url without padding (RFC 4648 §5), as JWS writes its parts: the runtime's own encoder (a receipt encodes
 * its payload on every write; the binary string, btoa and three replacements showed in the write's profile).
 */
export const base64url = (bytes: Uint8Array): string =>
  (bytes as Uint8Array & { toBase64(options: { alphabet: "base64url"; omitPadding: boolean }): string }).toBase64({
    alphabet: "base64url",
    omitPadding: true,
  });

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
