import { signingKeys } from "../auth/keys";
import type { Env } from "../env";
import { canonicalJson } from "../lib/canonical";
import { base64url, sha256Hex } from "../lib/crypto";
import type { RanExempt } from "../requests/schemas";

export const receiptType = "assent-receipt+jwt";
export const headType = "assent-log-head+jwt";

/** Receipts can be switched off (`RECEIPTS=off`), e.g. to measure what signing costs; the log is always written. */
export const receiptsOn = (env: Env) => env.RECEIPTS !== "off";

export type ReceiptPurpose = {
  purposeId: string;
  referenceId?: string;
  version: string;
  /** SHA-256 (hex) of the canonical JSON of the purpose version's content: exactly what was shown. */
  contentSha256: string | null;
  legalGround: string | null;
  status?: string;
  dataGroups?: unknown;
  processors?: unknown;
  recipients?: unknown;
};

/** A purpose that ran without consent under an exemption when the request was made (validated at the write). */
export type ReceiptExemption = RanExempt & {
  /** SHA-256 (hex) of the canonical JSON of the purpose version's content, as for `purposes`. */
  contentSha256: string | null;
};

/** The canonical record a receipt signs (docs/proof.md#signed-receipts lists each field). */
export type Receipt = {
  iss: string;
  iat: number;
  jti: string;
  sub: string;
  receiptId: string;
  event: "created" | "updated" | "withdrawn";
  projectId: string;
  controller: unknown;
  jurisdiction: string | null;
  identityId: string;
  requestId: string;
  family: string;
  status: string;
  purposes: ReceiptPurpose[];
  exemptions: ReceiptExemption[];
  scope: unknown;
  requested: string;
  received: string;
  issued: string;
  requestedBy: unknown;
  collectionMethod: unknown;
  application: unknown;
  language: unknown;
  /** The banner experiment's variant, only on a decision made under one (worker/analytics/experiments.ts). */
  variant?: string;
  /** The IAB TCF strings of the decision, where it had them (docs/tcf.md#recorded-with-the-decision). */
  tcString?: string;
  acString?: string | null;
  previousReceiptHash: string | null;
};

const encoder = new TextEncoder();

/**
 * Signs a canonical JSON object as a compact JWS (ES256, the service's current key, `kid` from the JWKS); returns it
 * with its SHA-256 (hex over the compact serialisation), which is what later receipts and log entries name.
 * WebCrypto's ECDSA signature already is JWS's `r || s` (RFC 7518 §3.4), so the JWS is put together here: a
 * receipt is signed on every write, and jose's generic header and key checks showed in the write's profile.
 */
export async function signCanonical(env: Env, typ: string, payload: object): Promise<{ jws: string; hash: string }> {
  const [key] = await signingKeys(env.SIGNING_KEYS);
  const header = base64url(encoder.encode(JSON.stringify({ alg: "ES256", kid: key.kid, typ })));
  const signingInput = `${header}.${base64url(encoder.encode(canonicalJson(payload)))}`;
  const signature = await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, key.privateKey, encoder.encode(signingInput));
  const jws = `${signingInput}.${base64url(new Uint8Array(signature))}`;
  return { jws, hash: await sha256Hex(jws) };
}

export const signReceipt = (env: Env, receipt: Receipt) => signCanonical(env, receiptType, receipt);
