import { and, eq, inArray, sql } from "drizzle-orm";
import type { Context } from "hono";
import type { z } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { ApiError, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { now } from "../lib/time";
import { portalSessions } from "../portal/table";
import { accountsDb, ownerCount, type Operator } from "../auth/operators";
import type { Role } from "../auth/roles";
import type { Invitation, MemberUpdate } from "./schemas";
import { mailSignInLink } from "./sign-in";
import { members, organizationProjects, projectRoles } from "./table";

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
  const rows = await db.select().from(members).where(eq(members.organizationId, organizationId)).orderBy(members.created, members.id);
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
    projectRoles: roles.filter((r) => r.memberId === row.id).map(({ projectId, role }) => ({ projectId, role })),
  }));
}

/**
 * Invites an address: a member with the role, mailed a sign-in link valid for 7 days (the invitation). 409 when the
 * address is already this organization's; an address of another organization gets nothing, and the answer is the
 * same as for a new one (no enumeration across organizations).
 */
export async function inviteMember(c: Context<AppEnv>, operator: Operator, input: z.infer<typeof Invitation>) {
  const wanted = input.projectRoles ?? [];
  await requireOwnProjects(c, operator.organizationId, wanted);
  const email = input.email.toLowerCase();
  const db = accountsDb(c);
  const [existing] = await db.select({ organizationId: members.organizationId }).from(members).where(eq(members.email, email)).limit(1);
  if (existing?.organizationId === operator.organizationId) throw new ApiError(409, "member_exists", "That address is already a member.");
  if (existing) return;
  const id = newId("mbr");
  await db.batch([
    db.insert(members).values({ id, organizationId: operator.organizationId, email, name: input.name ?? null, role: input.role, created: now() }),
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

/** Removes a member; their sessions and links end in the same batch (at once). */
export async function removeMember(c: Context<AppEnv>, operator: Operator, memberId: string) {
  const member = await memberOf(c, operator.organizationId, memberId);
  if (member.role === "owner" && (await ownerCount(c, operator.organizationId))[0].n <= 1) throw lastOwner();
  const db = accountsDb(c);
  await db.batch([
    db.delete(portalSessions).where(eq(portalSessions.memberId, memberId)),
    db.delete(members).where(eq(members.id, memberId)),
  ]);
}

/** A member's sessions still in force. */
export const sessionsOf = (c: Context<AppEnv>, memberId: string) =>
  accountsDb(c)
    .select({
      id: portalSessions.idHash,
      credential: portalSessions.credential,
      address: portalSessions.address,
      created: portalSessions.created,
      expires: portalSessions.expires,
    })
    .from(portalSessions)
    .where(and(eq(portalSessions.memberId, memberId), sql`${portalSessions.expires} > ${now()}`))
    .orderBy(portalSessions.created);

/** Ends one of the member's sessions (404 when it is not theirs), or all of them. */
export async function endSessions(c: Context<AppEnv>, memberId: string, sessionId?: string) {
  const ended = await accountsDb(c)
    .delete(portalSessions)
    .where(and(eq(portalSessions.memberId, memberId), sessionId === undefined ? undefined : eq(portalSessions.idHash, sessionId)))
    .returning({ id: portalSessions.idHash });
  if (sessionId !== undefined && ended.length === 0) throw notFound("Session");
}
