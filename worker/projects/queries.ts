import { eq } from "drizzle-orm";
import { getDb } from "../lib/db";
import { projects } from "./table";

export async function findProject(d1: D1Database, projectId: string) {
  const [row] = await getDb(d1).select().from(projects).where(eq(projects.id, projectId)).limit(1);
  return row;
}
