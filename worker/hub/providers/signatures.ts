import { base64, constantTimeEqual, hex } from "../../lib/crypto";

const encoder = new TextEncoder();

export async function hmac(hash: "SHA-1" | "SHA-256", key: string, data: string): Promise<Uint8Array> {
  const cryptoKey = await crypto.subtle.importKey("raw", encoder.encode(key), { name: "HMAC", hash }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", cryptoKey, encoder.encode(data)));
}


/**
 * Twilio's `X-Twilio-Signature`: base64 HMAC-SHA1, keyed with the account's auth token, of the full callback URL
 * followed by each POST parameter's name and value, sorted by name.
 */
export async function twilioSignature(authToken: string, url: string, bodyParams: Record<string, string>): Promise<string> {
  const data = url + Object.keys(bodyParams).sort().map((key) => key + bodyParams[key]).join("");
  return base64(await hmac("SHA-1", authToken, data));
}

/**
 * Vonage's signed callbacks (method "SHA-256 HMAC"): upper-case hex HMAC-SHA256, keyed with the signature secret, of
 * `&name=value` for every parameter but `sig`, sorted by name, with `&` and `=` in values replaced by `_`.
 */
export async function vonageSignature(signatureSecret: string, params: Record<string, string>): Promise<string> {
  const data = Object.keys(params)
    .filter((key) => key !== "sig")
    .sort()
    .map((key) => `&${key}=${params[key].replace(/[&=]/g, "_")}`)
    .join("");
  return hex(await hmac("SHA-256", signatureSecret, data)).toUpperCase();
}

export const signatureMatches = (presented: string | null | undefined, expected: string) =>
  presented ? constantTimeEqual(presented, expected) : Promise.resolve(false);
