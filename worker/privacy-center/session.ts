import { and, eq, gt } from "drizzle-orm";
import type { Context } from "hono";
import type { AppEnv, Caller } from "../env";
import { sha256Hex } from "../lib/crypto";
import { getDb } from "../lib/db";
import { ApiError } from "../lib/errors";
import { now } from "../lib/time";
import { verifications } from "./table";

/** A verified person on the privacy center: the verification their session token stands for. */
export type Verified = typeof verifications.$inferSelect;

const sessionRequired = () =>
  new ApiError(401, "verification_required", "Verify an email address or phone number first; the session may have expired (30 minutes).", {
    headers: { "WWW-Authenticate": 'Bearer realm="assent-privacy-center"' },
  });

/** The verification named by the request's `Authorization: Bearer apc_…`, while it lasts, in the path's project. */
export async function verifiedPerson(c: Context<AppEnv>, projectId: string): Promise<Verified> {
  const token = /^Bearer (apc_[A-Za-z0-9_-]+)$/.exec(c.req.header("authorization") ?? "")?.[1];
  if (!token) throw sessionRequired();
  const [row] = await getDb(c.var.db)
    .select()
    .from(verifications)
    .where(and(eq(verifications.tokenHash, await sha256Hex(token)), eq(verifications.projectId, projectId), gt(verifications.expires, now())))
    .limit(1);
  if (!row) throw sessionRequired();
  return row;
}

/** The person's identity, or a 409 when the verified alias names none (nothing to act on). */
export function identityOf(person: Verified): string {
  if (!person.identityId) {
    throw new ApiError(409, "no_identity", "The verified address names no one in this project: there is nothing to request about.");
  }
  return person.identityId;
}

/** The caller the write path records the person's requests as: the privacy center, for their identity only. */
export const privacyCenterCaller = (projectId: string, identityId: string): Caller => ({
  projectId,
  clientId: "privacy-center",
  clientType: "web",
  identityId,
  scopes: [],
});
