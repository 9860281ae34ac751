import { and, asc, eq, inArray } from "drizzle-orm";
import { signingKeys } from "../auth/keys";
import type { Env } from "../env";
import { findIdentity } from "../identities/queries";
import { fromBase64url } from "../lib/crypto";
import { getDb } from "../lib/db";
import { publicOrigin } from "../lib/settings";
import { ApiError, badRequest } from "../lib/errors";
import { now } from "../lib/time";
import { signCanonical } from "../proof/receipts";
import { accessRules, erasureRules, objectionRules } from "../requests/families";
import { identityPrivacyData } from "../requests/queries";
import { recordRequest, type Writer } from "../requests/record";
import { requests, type RequestRow } from "../requests/table";
import type { Verified } from "./session";

/**
 * What a verified person can ask for, as data: each kind is a request of one family through the one write path
 * (worker/requests/record.ts), so it gets its receipt, log entry and webhook event like any other, and its `meta`
 * says how and when the person was verified.
 */
export const requestKinds = ["access", "portability", "erasure", "objection"] as const;
export type RequestKind = (typeof requestKinds)[number];

type Filing = { identityId: string; meta: { context: Record<string, unknown> }; purposes: string[] };

const kinds: Record<RequestKind, { article: string; file(writer: Writer, filing: Filing): Promise<{ requestId: string }> }> = {
  access: { article: "Art. 15", file: (writer, { identityId, meta }) => recordRequest(writer, accessRules, { identityId, meta }) },
  portability: {
    article: "Art. 20",
    file: (writer, { identityId, meta }) => recordRequest(writer, accessRules, { identityId, meta, request: { format: "json" } }),
  },
  erasure: { article: "Art. 17", file: (writer, { identityId, meta }) => recordRequest(writer, erasureRules, { identityId, meta }) },
  objection: {
    article: "Art. 21",
    file: (writer, { identityId, meta, purposes }) => {
      if (purposes.length === 0) {
        throw badRequest("validation_failed", "The request has invalid fields; see `errors`.", [
          { path: "purposes", message: "Name at least one purpose to object to.", code: "too_small" },
        ]);
      }
      const request = { purposes: purposes.map((purposeId) => ({ purposeId })) };
      return recordRequest(writer, objectionRules, { identityId, meta, requested: now(), request });
    },
  },
};

/** Files a request for the verified person's identity. */
export function fileRequest(writer: Writer, person: Verified, identityId: string, kind: RequestKind, purposes: string[]) {
  const meta = {
    context: {
      collectionMethod: "privacy-center",
      verification: { id: person.id, method: person.channel, verifiedAt: person.verifiedAt },
    },
  };
  return kinds[kind].file(writer, { identityId, meta, purposes });
}

/** Art. 12(3): one month from receipt, extendable by two further months (the person must be told within the first). */
function addMonths(iso: string, months: number): string {
  const date = new Date(iso);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return date.toISOString();
}

/** How long a completed access request's download link works. */
export const downloadLifetimeMs = 7 * 24 * 60 * 60_000;
const downloadType = "assent-download+jwt";

const kindOf = (row: RequestRow): RequestKind =>
  row.family === "access" ? ((row.request as { format?: string } | null)?.format ? "portability" : "access") : (row.family as RequestKind);

const verificationOf = (row: RequestRow) => ((row.meta?.context as { verification?: unknown } | undefined)?.verification ?? null) as
  | { method: string; verifiedAt: string }
  | null;

/** The identity's access, portability, erasure and objection requests, oldest first, as the page shows them. */
export async function requestsOf(env: Env, d1: D1Database, projectId: string, identityId: string) {
  const origin = publicOrigin(env);
  const rows = await getDb(d1)
    .select()
    .from(requests)
    .where(and(eq(requests.projectId, projectId), eq(requests.identityId, identityId), inArray(requests.family, ["access", "erasure", "objection"])))
    .orderBy(asc(requests.id));
  return Promise.all(
    rows.map(async (row) => ({
      requestId: row.id,
      kind: kindOf(row),
      article: kinds[kindOf(row)].article,
      status: row.status,
      created: row.created,
      updated: row.updated,
      deadline: addMonths(row.created, 1),
      extendedDeadline: addMonths(row.created, 3),
      verification: verificationOf(row),
      download: row.family === "access" && row.status === "completed" ? await downloadLink(env, row, origin) : null,
    })),
  );
}

/** When a completed request's link stops working: `downloadLifetimeMs` after its completion (its last update). */
const linkExpiry = (row: RequestRow) => Date.parse(row.updated) + downloadLifetimeMs;

/** A link to the export of a completed access request, signed by the service's key, working for `downloadLifetimeMs` after completion. */
async function downloadLink(env: Env, row: RequestRow, origin: string) {
  const expires = linkExpiry(row);
  if (expires <= Date.now()) return null;
  const { jws } = await signCanonical(env, downloadType, { prj: row.projectId, req: row.id, exp: Math.floor(expires / 1000) });
  const path = `/browser/v1/projects/${encodeURIComponent(row.projectId)}/privacy-center/downloads/${row.id}`;
  return { url: `${origin}${path}?token=${jws}`, expires: new Date(expires).toISOString() };
}

const linkRefused = () => new ApiError(410, "download_expired", "This download link has expired or is not valid; sign in to the privacy center again.");

/** The export a download link names, once its signature, expiry and request (still completed) check out. */
export async function download(env: Env, d1: D1Database, projectId: string, requestId: string, token: string) {
  const [header, payload, signature] = token.split(".");
  let claims: { prj?: string; req?: string; exp?: number };
  try {
    const { kid, typ } = JSON.parse(new TextDecoder().decode(fromBase64url(header)));
    const key = (await signingKeys(env.SIGNING_KEYS)).find((k) => k.kid === kid);
    const valid =
      typ === downloadType &&
      key !== undefined &&
      (await crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, key.publicKey, fromBase64url(signature), new TextEncoder().encode(`${header}.${payload}`)));
    if (!valid) throw linkRefused();
    claims = JSON.parse(new TextDecoder().decode(fromBase64url(payload)));
  } catch {
    throw linkRefused();
  }
  if (claims.prj !== projectId || claims.req !== requestId || !claims.exp || claims.exp * 1000 <= Date.now()) throw linkRefused();
  const [row] = await getDb(d1)
    .select()
    .from(requests)
    .where(and(eq(requests.projectId, projectId), eq(requests.id, requestId), eq(requests.family, "access"), eq(requests.status, "completed")))
    .limit(1);
  // The stored completion time is the authority on expiry; the signed claim only copies it as of the link's issue.
  if (!row || linkExpiry(row) <= Date.now()) throw linkRefused();
  const [found, privacy] = await Promise.all([findIdentity(d1, projectId, row.identityId), identityPrivacyData(getDb(d1), projectId, row.identityId)]);
  if (!found || !privacy) throw linkRefused();
  return { kind: kindOf(row), data: { format: "assent-export/v1", exported: new Date().toISOString(), identity: found.identity, ...privacy } };
}
