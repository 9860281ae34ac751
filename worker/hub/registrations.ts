import { eq, inArray } from "drizzle-orm";
import { clients } from "../auth/table";
import type { Databases } from "../env";
import { getDb } from "../lib/db";
import { smsClients, smsMessages } from "./table";

/**
 * The hub's rows about clients and projects that live elsewhere. The hub's tables are in DB; a client and its project
 * are in the project's database, which need not be DB (docs/operations-cron.md#moving-a-project-that-uses-the-hub),
 * so no foreign key ties them and these functions do what a cascade would.
 */

/** A client by id, in whichever database holds its project: every database side by side (the admin API only). */
export async function clientAnywhere(databases: Databases, clientId: string) {
  const found = await Promise.all(
    databases.every().map(async (d1) => {
      const [row] = await getDb(d1).select({ projectId: clients.projectId, type: clients.type }).from(clients).where(eq(clients.id, clientId)).limit(1);
      return row;
    }),
  );
  return found.find((row) => row !== undefined);
}

/** Withdraws the SMS registrations of deleted clients (`hub`: DB). */
export async function forgetSmsClients(hub: D1Database, clientIds: string[]): Promise<void> {
  if (clientIds.length > 0) await getDb(hub).delete(smsClients).where(inArray(smsClients.clientId, clientIds));
}

/** Deletes a deleted project's registrations and messages (their trail follows by foreign key) from DB (`hub`). */
export async function forgetSmsProject(hub: D1Database, projectId: string): Promise<void> {
  const db = getDb(hub);
  await db.batch([db.delete(smsClients).where(eq(smsClients.projectId, projectId)), db.delete(smsMessages).where(eq(smsMessages.projectId, projectId))]);
}
