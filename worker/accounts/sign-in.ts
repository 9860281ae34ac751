import { and, eq, gt, isNotNull, isNull, sql } from "drizzle-orm";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { randomSecret, sha256Hex } from "../lib/crypto";
import { sendEmail } from "../email/outbox";
import { ApiError } from "../lib/errors";
import { now } from "../lib/time";
import { accountsDb } from "../auth/operators";
import { members, signInLinks, type SignInLinkKind } from "./table";

/** A sign-in link works once, for 15 minutes; an invitation's, for 7 days. */
export const signInLinkSeconds = 15 * 60;
export const invitationSeconds = 7 * 24 * 3600;

/**
 * Makes a one-time sign-in link for a member and mails it (the privacy center's email sender; locally the captured
 * outbox, under the organization's id). The secret travels in the URL's fragment, which the browser does not send:
 * the portal posts it to `POST /portal/api/session`, so a mail scanner fetching the link does not spend it.
 */
export async function mailSignInLink(
  c: Context<AppEnv>,
  member: { id: string; email: string; organizationId: string },
  kind: SignInLinkKind,
): Promise<string> {
  const secret = randomSecret("sil");
  const seconds = kind === "sign-in" ? signInLinkSeconds : invitationSeconds;
  const expires = new Date(Date.now() + seconds * 1000).toISOString();
  await accountsDb(c).insert(signInLinks).values({ idHash: await sha256Hex(secret), memberId: member.id, expires, kind });
  const url = `${new URL(c.req.url).origin}/portal/#sign-in=${secret}`;
  const subject = kind === "sign-in" ? "Your sign-in link to Assent" : "You are invited to Assent";
  const text =
    kind === "sign-in"
      ? `Sign in to the Assent portal with this link. It works once, for 15 minutes:\n\n${url}\n\nIf you did not ask for it, ignore this mail.`
      : `You were invited to operate Assent. Accept by signing in with this link, within 7 days:\n\n${url}`;
  await sendEmail(c.env, c.env.DB, { projectId: member.organizationId, to: member.email, subject, text });
  return url;
}

/**
 * Mails a link when the address is a member's who has accepted their invitation (a pending invitee signs in only
 * through the invitation, so it expires); says nothing either way (no enumeration: the caller answers the same).
 */
export async function requestSignInLink(c: Context<AppEnv>, email: string): Promise<void> {
  const [member] = await accountsDb(c)
    .select({ id: members.id, email: members.email, organizationId: members.organizationId })
    .from(members)
    .where(and(eq(members.email, email.toLowerCase()), isNotNull(members.accepted)))
    .limit(1);
  if (member) await mailSignInLink(c, member, "sign-in");
}

/**
 * Spends a link: the member it signs in (accepting their invitation, in the same batch), or null when it is unknown,
 * used or expired (one update, so only once). An expired invitation says so (401 `invitation_expired`): whoever holds
 * the link's secret was invited, so this tells nothing about who is a member.
 */
export async function redeemSignInLink(c: Context<AppEnv>, secret: string): Promise<string | null> {
  const at = now();
  const idHash = await sha256Hex(secret);
  const db = accountsDb(c);
  const [spent] = await db.batch([
    db
      .update(signInLinks)
      .set({ used: at })
      .where(and(eq(signInLinks.idHash, idHash), isNull(signInLinks.used), gt(signInLinks.expires, at)))
      .returning({ memberId: signInLinks.memberId }),
    db
      .update(members)
      .set({ accepted: at })
      .where(
        and(
          isNull(members.accepted),
          sql`${members.id} = (SELECT ${signInLinks.memberId} FROM ${signInLinks} WHERE ${signInLinks.idHash} = ${idHash} AND ${signInLinks.used} = ${at})`,
        ),
      ),
  ]);
  if (spent[0]) return spent[0].memberId;
  const [link] = await db.select({ kind: signInLinks.kind, used: signInLinks.used }).from(signInLinks).where(eq(signInLinks.idHash, idHash)).limit(1);
  if (link?.kind === "invitation" && link.used === null) {
    throw new ApiError(401, "invitation_expired", "This invitation has expired (invitations last 7 days). Ask an owner of the organization to invite you again.");
  }
  return null;
}
