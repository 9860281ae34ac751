const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"; // Crockford base32, as in ULID

/**
 * A prefixed ULID: 48 bits of milliseconds then 80 random bits, so ids sort by creation time
 * (keyset pagination relies on that) and the prefix says what kind of thing an id names.
 */
export function newId(prefix: string): string {
  const head = idsFrom(prefix, Date.now());
  const random = crypto.getRandomValues(new Uint8Array(16));
  let tail = "";
  for (const byte of random) tail += alphabet[byte % 32];
  return `${head}${tail}`;
}

/** The first id of `prefix` made at `ms`: every id made before it sorts below it, so a time range is an id range. */
export function idsFrom(prefix: string, ms: number): string {
  let time = ms;
  let head = "";
  for (let i = 0; i < 10; i++) {
    head = alphabet[time % 32] + head;
    time = Math.floor(time / 32);
  }
  return `${prefix}_${head}`;
}
