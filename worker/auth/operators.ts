import { and, asc, eq, sql } from "drizzle-orm";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { compiled } from "../lib/compiled";
import { atomically, getDb } from "../lib/db";
import { newId } from "../lib/ids";
import { now } from "../lib/time";
import { projects } from "../projects/table";
import { ApiError, notFound } from "../lib/errors";
import type { CredentialKind } from "../accounts/table";
import { roleScopes, type Role } from "./roles";
import { members, organizationProjects, organizations, projectRoles } from "../accounts/table";

/** Who is acting on the admin API or the portal: what every audit entry names. */
export type Operator = {
  /** Null for the break-glass admin token. */
  memberId: string | null;
  organizationId: string;
  /** The member's organization role (owner for the admin token). */
  role: Role;
  credential: CredentialKind;
};

/** The global tables of accounts are in `DB`, read through the call's session on it. */
export const accountsDb = (c: Context<AppEnv>) => getDb(c.var.databases.named("DB"));

/** The calling operator as a member: 403 `member_required` for the break-glass admin token, which is nobody. */
export function callingMember(c: Context<AppEnv>): Operator & { memberId: string } {
  const operator = c.var.operator!;
  if (operator.memberId === null) throw new ApiError(403, "member_required", "This belongs to a member; the break-glass admin token is none.");
  return operator as Operator & { memberId: string };
}

/** The member as an operator, or null when they were removed. */
export async function memberOperator(c: Context<AppEnv>, memberId: string, credential: CredentialKind): Promise<Operator | null> {
  const [row] = await accountsDb(c)
    .select({ organizationId: members.organizationId, role: members.role })
    .from(members)
    .where(eq(members.id, memberId))
    .limit(1);
  return row ? { memberId, organizationId: row.organizationId, role: row.role, credential } : null;
}

const firstOrganizationRow = compiled<never>((_, db) =>
  db.select({ id: organizations.id }).from(organizations).orderBy(asc(organizations.created), asc(organizations.id)).limit(1),
);

/**
 * The first organization: the one the admin token acts in (worker/accounts/bootstrap.ts makes it). Every call on the
 * admin token asks, so the statement is compiled once per isolate.
 */
const firstOrganization = (c: Context<AppEnv>) => firstOrganizationRow(c.var.databases.named("DB"), {}).first<{ id: string }>();

/** A member's project role in a project of their organization (null without one); no row when it is not theirs. */
const projectRoleRow = compiled<"projectId" | "organizationId" | "memberId">(
  (p) => sql`SELECT ${projectRoles.role} AS projectRole FROM ${organizationProjects}
    LEFT JOIN ${projectRoles} ON ${projectRoles.projectId} = ${organizationProjects.projectId} AND ${projectRoles.memberId} = ${p.memberId}
    WHERE ${organizationProjects.projectId} = ${p.projectId} AND ${organizationProjects.organizationId} = ${p.organizationId} LIMIT 1`,
);

/**
 * The operator's role in a project: their project role where set, else their organization role; 404 when the project
 * is not their organization's (another organization's ids are not found, as another project's are for clients).
 * The admin token (break-glass) acts on every project as an owner. Every portal call on a project asks, so the
 * statement is compiled once per isolate.
 */
export async function roleInProject(c: Context<AppEnv>, operator: Operator, projectId: string): Promise<Role> {
  if (operator.memberId === null) return operator.role;
  const row = await projectRoleRow(c.var.databases.named("DB"), { projectId, organizationId: operator.organizationId, memberId: operator.memberId }).first<{
    projectRole: Role | null;
  }>();
  if (!row) throw notFound("Project");
  return row.projectRole ?? operator.role;
}

/**
 * What the portal shows an operator may do (`GET /portal/api/session`): their role's scopes, and for each project where
 * they hold a project role, that role's. Only for showing: every call is still checked by worker/auth/authorize.ts.
 */
export async function grantsOf(c: Context<AppEnv>, operator: Operator) {
  const rows =
    operator.memberId === null
      ? []
      : await accountsDb(c).select({ projectId: projectRoles.projectId, role: projectRoles.role }).from(projectRoles).where(eq(projectRoles.memberId, operator.memberId));
  return { role: operator.role, scopes: [...roleScopes[operator.role]], projectScopes: Object.fromEntries(rows.map((row) => [row.projectId, [...roleScopes[row.role]]])) };
}

/** The projects an operator sees: their organization's, or every project for the admin token. */
export async function visibleProjects(c: Context<AppEnv>, operator: Operator | undefined): Promise<Set<string> | "all"> {
  if (!operator || operator.memberId === null) return "all";
  const rows = await accountsDb(c)
    .select({ id: organizationProjects.projectId })
    .from(organizationProjects)
    .where(eq(organizationProjects.organizationId, operator.organizationId));
  return new Set(rows.map((row) => row.id));
}

/** How many owners an organization has (it always keeps one). */
export const ownerCount = (c: Context<AppEnv>, organizationId: string) =>
  accountsDb(c)
    .select({ n: sql<number>`count(*)` })
    .from(members)
    .where(and(eq(members.organizationId, organizationId), eq(members.role, "owner")));

/**
 * `ADMIN_TOKEN` as the bootstrap (docs/security.md#the-admin-token-break-glass). Its first use on a deployment without
 * an organization creates one and moves every existing project into it (all databases), in one batch on `DB`
 * guarded so that two first uses at once make one organization. Projects created later by the token join the first
 * organization too.
 */
export async function ensureOrganization(c: Context<AppEnv>): Promise<string> {
  const found = await firstOrganization(c);
  if (found) return found.id;
  const perDatabase = await Promise.all(c.var.databases.every().map((d1) => getDb(d1).select({ id: projects.id }).from(projects)));
  const projectIds = JSON.stringify(perDatabase.flat().map((row) => row.id));
  const id = newId("org");
  await atomically(c.var.databases.named("DB"), [
    sql`INSERT INTO ${organizations} (id, name, created)
      SELECT ${id}, 'Organization', ${now()} WHERE NOT EXISTS (SELECT 1 FROM ${organizations})`,
    sql`INSERT OR IGNORE INTO ${organizationProjects} (project_id, organization_id)
      SELECT value, (SELECT id FROM ${organizations} ORDER BY created, id LIMIT 1) FROM json_each(${projectIds})`,
  ]);
  const made = await firstOrganization(c);
  return made!.id;
}
