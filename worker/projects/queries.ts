import { eq, sql } from "drizzle-orm";
import { compiled } from "../lib/compiled";
import { getDb } from "../lib/db";
import { projects } from "./table";

export async function findProject(d1: D1Database, projectId: string) {
  const [row] = await getDb(d1).select().from(projects).where(eq(projects.id, projectId)).limit(1);
  return row;
}

const projectRow = compiled<"projectId">((p) => sql`SELECT 1 FROM ${projects} WHERE ${projects.id} = ${p.projectId} LIMIT 1`);

/**
 * Whether the project exists, for the checks that need nothing else of it (every portal call on a project makes one):
 * no row read and mapped with its settings, and the statement built once per isolate.
 */
export async function projectExists(d1: D1Database, projectId: string): Promise<boolean> {
  return (await projectRow(d1, { projectId }).first()) !== null;
}
