import { z } from "@hono/zod-openapi";
import type { PurposeContent } from "../configuration/table";
import type { Env } from "../env";
import { canonicalJson } from "../lib/canonical";
import { sha256Hex } from "../lib/crypto";
import { newId } from "../lib/ids";
import { receiptsOn, signReceipt, type Receipt, type ReceiptExemption, type ReceiptPurpose } from "../proof/receipts";
import { storedPurposes } from "./queries";
import { statedExemptions } from "./schemas";
import type { RequestRow } from "./table";

/*
 * The receipt of a request's write: what the request row and the write's basis put in it. Signing and the receipt's
 * shape are the proof's (worker/proof/receipts.ts); reading a stored request is this folder's.
 */

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
    ...(typeof context?.variant === "string" ? { variant: context.variant } : {}),
    // Only on TCF decisions, so every other receipt stays as it was.
    ...(typeof context?.tcString === "string" ? { tcString: context.tcString, acString: typeof context.acString === "string" ? context.acString : null } : {}),
    previousReceiptHash: found.previousReceiptHash,
  });
}
