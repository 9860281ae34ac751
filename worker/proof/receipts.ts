import { z } from "@hono/zod-openapi";
import { signingKeys } from "../auth/keys";
import type { Env } from "../env";
import { canonicalJson } from "../lib/canonical";
import { base64url, sha256Hex } from "../lib/crypto";
import { newId } from "../lib/ids";
import type { PurposeContent } from "../configuration/table";
import { storedPurposes } from "../requests/queries";
import { statedExemptions, type RanExempt } from "../requests/schemas";
import type { RequestRow } from "../requests/table";

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

/** A stored request's `meta`, as far as a receipt reads it. */
const WithContext = z.looseObject({ context: z.record(z.string(), z.unknown()).optional() });

/**
 * SHA-256 of a purpose version's canonical content, per content object the isolate read: a version edited in place
 * (requireNewConsent: false) bumps the project's config version, so it is read again as a new object.
 */
const contentHashes = new WeakMap<object, Promise<string>>();
function contentHash(content: object) {
  let hash = contentHashes.get(content);
  if (!hash) {
    hash = sha256Hex(canonicalJson(content));
    contentHashes.set(content, hash);
  }
  return hash;
}

/** Who signs: the deployment's keys and issuer. */
export type Signer = { env: Env; issuer: string };

/** What a receipt names besides the request: what the write validated against, and the identity's previous receipt. */
export type ReceiptBasis = {
  purposes: ReadonlyMap<string, { version: string }>;
  versions: ReadonlyMap<string, PurposeContent>;
  project?: { controller: unknown; jurisdiction: string | null; defaultLanguage: string };
  previousReceiptHash: string | null;
};

/**
 * Signs the receipt of one write that left `row` as it is (docs/proof.md#signed-receipts), naming the identity's previous
 * receipt as `found` (what the write read or assumed) knows it; nothing when receipts are off. `scope`: the family's request is a scope, which the
 * receipt carries whole.
 */
export async function receiptOf(
  signer: Signer,
  row: RequestRow,
  event: Receipt["event"],
  stamp: string,
  found: ReceiptBasis,
  scope: boolean,
) {
  if (!receiptsOn(signer.env)) return undefined;
  const purposes: ReceiptPurpose[] = await Promise.all(
    storedPurposes(row.request).map(async (entry) => {
      const version = entry.version ?? found.purposes.get(entry.purposeId)?.version ?? "";
      const content = found.versions.get(`${entry.purposeId}@${version}`);
      return {
        ...entry,
        version,
        contentSha256: content ? await contentHash(content) : null,
        legalGround: content?.legalGround ?? null,
      };
    }),
  );
  const exemptions: ReceiptExemption[] = await Promise.all(
    statedExemptions(row.meta).map(async (entry) => {
      const content = found.versions.get(`${entry.purposeId}@${entry.version}`);
      return { ...entry, contentSha256: content ? await contentHash(content) : null };
    }),
  );
  const receiptId = newId("rct");
  const context = WithContext.safeParse(row.meta ?? {}).data?.context;
  return signReceipt(signer.env, {
    iss: signer.issuer,
    iat: Math.floor(Date.parse(stamp) / 1000),
    jti: receiptId,
    sub: row.identityId,
    receiptId,
    event,
    projectId: row.projectId,
    controller: found.project?.controller ?? null,
    jurisdiction: found.project?.jurisdiction ?? null,
    identityId: row.identityId,
    requestId: row.id,
    family: row.family,
    status: row.status,
    purposes,
    exemptions,
    scope: scope ? row.request : null,
    requested: row.requested,
    received: row.created,
    issued: stamp,
    requestedBy: row.meta?.requestedBy ?? null,
    collectionMethod: context?.collectionMethod ?? null,
    application: context?.application ?? null,
    language: context?.language ?? found.project?.defaultLanguage ?? null,
    previousReceiptHash: found.previousReceiptHash,
  });
}
