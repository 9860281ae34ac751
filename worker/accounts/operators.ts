import { and, asc, eq, sql } from "drizzle-orm";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { getDb } from "../lib/db";
import { notFound } from "../lib/errors";
import type { CredentialKind } from "./credentials";
import type { Role } from "./roles";
import { members, organizationProjects, organizations, projectRoles } from "./table";

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

/** The member as an operator, or null when they were removed. */
export async function memberOperator(c: Context<AppEnv>, memberId: string, credential: CredentialKind): Promise<Operator | null> {
  const [row] = await accountsDb(c)
    .select({ organizationId: members.organizationId, role: members.role })
    .from(members)
    .where(eq(members.id, memberId))
    .limit(1);
  return row ? { memberId, organizationId: row.organizationId, role: row.role, credential } : null;
}

/** The first organization: the one the admin token acts in (worker/accounts/bootstrap.ts makes it). */
export const firstOrganization = (c: Context<AppEnv>) =>
  accountsDb(c).select({ id: organizations.id }).from(organizations).orderBy(asc(organizations.created), asc(organizations.id)).limit(1);

/**
 * The operator's role in a project: their project role where set, else their organization role; 404 when the project
 * is not their organization's (another organization's ids are not found, as another project's are for clients).
 * The admin token (break-glass) acts on every project as an owner.
 */
export async function roleInProject(c: Context<AppEnv>, operator: Operator, projectId: string): Promise<Role> {
  if (operator.memberId === null) return operator.role;
  const [row] = await accountsDb(c)
    .select({ projectRole: projectRoles.role })
    .from(organizationProjects)
    .leftJoin(projectRoles, and(eq(projectRoles.projectId, organizationProjects.projectId), eq(projectRoles.memberId, operator.memberId)))
    .where(and(eq(organizationProjects.projectId, projectId), eq(organizationProjects.organizationId, operator.organizationId)))
    .limit(1);
  if (!row) throw notFound("Project");
  return row.projectRole ?? operator.role;
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
