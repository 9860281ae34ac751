/**
 * Checks a signed receipt in the page: a compact JWS (ES256) against the service's published keys
 * (`/.well-known/jwks.json`), with WebCrypto alone. ECDSA in WebCrypto takes JWS's `r || s` signature as it is.
 */
type Jwk = JsonWebKey & { kid?: string };

const decode = (part: string) => Uint8Array.from(atob(part.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));

export type Checked = { valid: boolean; kid?: string };

export async function verifyReceipt(jws: string, keys: Jwk[]): Promise<Checked> {
  try {
    const [header, payload, signature] = jws.split(".");
    const { alg, kid, typ } = JSON.parse(new TextDecoder().decode(decode(header)));
    const jwk = keys.find((key) => key.kid === kid);
    if (alg !== "ES256" || typ !== "assent-receipt+jwt" || !jwk) return { valid: false, kid };
    const key = await crypto.subtle.importKey("jwk", { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y }, { name: "ECDSA", namedCurve: "P-256" }, false, ["verify"]);
    const valid = await crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, key, decode(signature), new TextEncoder().encode(`${header}.${payload}`));
    return { valid, kid };
  } catch {
    return { valid: false };
  }
}

export const fetchKeys = (api: string): Promise<Jwk[]> =>
  fetch(`${api}/.well-known/jwks.json`)
    .then((answer) => answer.json())
    .then((set: { keys: Jwk[] }) => set.keys);
