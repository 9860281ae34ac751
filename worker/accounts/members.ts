import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Context } from "hono";
import type { z } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { ApiError, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { now } from "../lib/time";
import { portalSessions } from "../portal/table";
import { currentSessionHash } from "../auth/portal-session";
import { accountsDb, ownerCount, type Operator } from "../auth/operators";
import type { Role } from "../auth/roles";
import type { Invitation, MemberUpdate } from "./schemas";
import { mailSignInLink } from "./sign-in";
import { limitRate } from "../limits/rate-limits";
import { apiTokens, members, organizationProjects, projectRoles, signInLinks } from "./table";

type ProjectRoleInput = { projectId: string; role: Role }[];

/** Project roles may name only the organization's own projects (another's are not found). */
async function requireOwnProjects(c: Context<AppEnv>, organizationId: string, projectRolesIn: ProjectRoleInput) {
  if (projectRolesIn.length === 0) return;
  const ids = [...new Set(projectRolesIn.map((entry) => entry.projectId))];
  const found = await accountsDb(c)
    .select({ id: organizationProjects.projectId })
    .from(organizationProjects)
    .where(and(eq(organizationProjects.organizationId, organizationId), inArray(organizationProjects.projectId, ids)));
  if (found.length !== ids.length) throw notFound("Project");
}

export async function listMembers(c: Context<AppEnv>, organizationId: string) {
  const db = accountsDb(c);
  const invitationExpires = sql<string | null>`(SELECT max(${signInLinks.expires}) FROM ${signInLinks}
    WHERE ${signInLinks.memberId} = ${members.id} AND ${signInLinks.kind} = 'invitation')`;
  const rows = await db
    .select({ id: members.id, email: members.email, name: members.name, role: members.role, created: members.created, accepted: members.accepted, invitationExpires })
    .from(members)
    .where(eq(members.organizationId, organizationId))
    .orderBy(members.created, members.id);
  const roles = await db
    .select({ memberId: projectRoles.memberId, projectId: projectRoles.projectId, role: projectRoles.role })
    .from(projectRoles)
    .innerJoin(members, eq(members.id, projectRoles.memberId))
    .where(eq(members.organizationId, organizationId));
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    created: row.created,
    status: row.accepted === null ? ("invited" as const) : ("active" as const),
    invitationExpires: row.accepted === null ? row.invitationExpires : null,
    projectRoles: roles.filter((r) => r.memberId === row.id).map(({ projectId, role }) => ({ projectId, role })),
  }));
}

/**
 * Invites an address: a member with the role, mailed a sign-in link valid for 7 days (the invitation). Inviting an
 * invitee who has not accepted again sets the roles anew and mails a new invitation (the way past an expired one).
 * 409 when the address is already this organization's active member; an address of another organization gets
 * nothing, and the answer is the same as for a new one (no enumeration across organizations). Rate-limited per
 * inviting member (the sign-in limit, keyed apart).
 */
export async function inviteMember(c: Context<AppEnv>, operator: Operator, input: z.infer<typeof Invitation>) {
  await limitRate(c, "PORTAL_SIGN_IN_LIMITER", `invitations:${operator.memberId ?? operator.organizationId}`);
  const wanted = input.projectRoles ?? [];
  await requireOwnProjects(c, operator.organizationId, wanted);
  const email = input.email.toLowerCase();
  const db = accountsDb(c);
  const [existing] = await db
    .select({ id: members.id, organizationId: members.organizationId, accepted: members.accepted })
    .from(members)
    .where(eq(members.email, email))
    .limit(1);
  if (existing && existing.organizationId !== operator.organizationId) return;
  if (existing && existing.accepted !== null) throw new ApiError(409, "member_exists", "That address is already a member.");
  const id = existing?.id ?? newId("mbr");
  await db.batch([
    existing
      ? db.update(members).set({ role: input.role, name: input.name ?? null }).where(eq(members.id, id))
      : db.insert(members).values({ id, organizationId: operator.organizationId, email, name: input.name ?? null, role: input.role, created: now() }),
    db.delete(projectRoles).where(eq(projectRoles.memberId, id)),
    ...wanted.map((entry) => db.insert(projectRoles).values({ memberId: id, ...entry })),
  ]);
  await mailSignInLink(c, { id, email, organizationId: operator.organizationId }, "invitation");
}

export async function memberOf(c: Context<AppEnv>, organizationId: string, memberId: string) {
  const [row] = await accountsDb(c)
    .select()
    .from(members)
    .where(and(eq(members.id, memberId), eq(members.organizationId, organizationId)))
    .limit(1);
  if (!row) throw notFound("Member");
  return row;
}

const lastOwner = () => new ApiError(409, "last_owner", "An organization always keeps one owner: make another member owner first.");

/** Replaces a member's roles; the organization keeps an owner, and nobody grants or takes away more than they hold. */
export async function updateMember(c: Context<AppEnv>, operator: Operator, memberId: string, input: z.infer<typeof MemberUpdate>) {
  const member = await memberOf(c, operator.organizationId, memberId);
  const wanted = input.projectRoles ?? [];
  await requireOwnProjects(c, operator.organizationId, wanted);
  if (member.role === "owner" && input.role !== "owner" && (await ownerCount(c, operator.organizationId))[0].n <= 1) throw lastOwner();
  const db = accountsDb(c);
  await db.batch([
    db.update(members).set({ role: input.role }).where(eq(members.id, memberId)),
    db.delete(projectRoles).where(eq(projectRoles.memberId, memberId)),
    ...wanted.map((entry) => db.insert(projectRoles).values({ memberId, ...entry })),
  ]);
}

/** Removes a member; their sessions, links and API tokens end in the same batch (at once). */
export async function removeMember(c: Context<AppEnv>, operator: Operator, memberId: string) {
  const member = await memberOf(c, operator.organizationId, memberId);
  if (member.role === "owner" && (await ownerCount(c, operator.organizationId))[0].n <= 1) throw lastOwner();
  const db = accountsDb(c);
  await db.batch([
    db.delete(portalSessions).where(eq(portalSessions.memberId, memberId)),
    db.update(apiTokens).set({ revoked: now() }).where(and(eq(apiTokens.memberId, memberId), isNull(apiTokens.revoked))),
    db.delete(members).where(eq(members.id, memberId)),
  ]);
}

const sessionColumns = {
  id: portalSessions.idHash,
  credential: portalSessions.credential,
  address: portalSessions.address,
  created: portalSessions.created,
  expires: portalSessions.expires,
};

/** A member's sessions still in force, the one this request carries marked `current`. */
export async function sessionsOf(c: Context<AppEnv>, memberId: string) {
  const current = await currentSessionHash(c);
  const rows = await accountsDb(c)
    .select(sessionColumns)
    .from(portalSessions)
    .where(and(eq(portalSessions.memberId, memberId), sql`${portalSessions.expires} > ${now()}`))
    .orderBy(portalSessions.created);
  return rows.map((row) => ({ ...row, current: row.id === current }));
}

/** Ends one of the member's sessions (404 when it is not theirs), or all of them; answers what ended. */
export async function endSessions(c: Context<AppEnv>, memberId: string, sessionId?: string) {
  const ended = await accountsDb(c)
    .delete(portalSessions)
    .where(and(eq(portalSessions.memberId, memberId), sessionId === undefined ? undefined : eq(portalSessions.idHash, sessionId)))
    .returning(sessionColumns);
  if (sessionId !== undefined && ended.length === 0) throw notFound("Session");
  return ended;
}
