import { and, eq, type SQL } from "drizzle-orm";
import type { Db } from "../lib/db";
import { organizationProjects, projectRoles } from "./table";

// Statements, not writes: the project's routes put them in the batch of the project's own change wherever the project
// lives in DB, the organizations' database, so a project never exists without its organization, nor the other way.

/** A new project joins the creating operator's organization (none for a caller outside any organization). */
export const adoption = (db: Db, projectId: string, organizationId: string | undefined) =>
  organizationId ? [db.insert(organizationProjects).values({ projectId, organizationId })] : [];

/** A deleted project leaves its organization, and its members' roles in it go; only while `current` holds. */
export const release = (db: Db, projectId: string, current?: SQL) => [
  db.delete(projectRoles).where(and(eq(projectRoles.projectId, projectId), current)),
  db.delete(organizationProjects).where(and(eq(organizationProjects.projectId, projectId), current)),
];
