import { eq } from "drizzle-orm";
import type { Context } from "hono";
import type { AppEnv } from "../env";
import { accountsDb } from "../auth/operators";
import { organizationProjects, projectRoles } from "./table";

/** A new project joins the creating operator's organization. */
export async function adoptProject(c: Context<AppEnv>, projectId: string) {
  const organizationId = c.var.operator?.organizationId;
  if (organizationId) await accountsDb(c).insert(organizationProjects).values({ projectId, organizationId });
}

/** A deleted project leaves its organization, and its members' roles in it go. */
export async function releaseProject(c: Context<AppEnv>, projectId: string) {
  const db = accountsDb(c);
  await db.batch([
    db.delete(projectRoles).where(eq(projectRoles.projectId, projectId)),
    db.delete(organizationProjects).where(eq(organizationProjects.projectId, projectId)),
  ]);
}
