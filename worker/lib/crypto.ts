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

/** A random secret of 256 bits, base64url, with a prefix that says what it is (and lets secret scanners find it). */
export function randomSecret(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const b64 = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return `${prefix}_${b64}`;
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
