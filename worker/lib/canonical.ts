/**
 * Canonical JSON (the RFC 8785 rules that matter for our data: object keys sorted by code unit, no whitespace,
 * `undefined` members left out, numbers and strings as JSON.stringify writes them). Hashes and signatures are taken
 * over this text, so anyone can re-derive them from the JSON with any language's sorted-key serialiser.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(",")}]`;
  const members = Object.entries(value)
    .filter(([, member]) => member !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, member]) => `${JSON.stringify(key)}:${canonicalJson(member)}`);
  return `{${members.join(",")}}`;
}
