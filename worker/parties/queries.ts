import type { z } from "@hono/zod-openapi";
import type { Party } from "./schemas";
import type { parties } from "./table";

export const toParty = (row: typeof parties.$inferSelect): z.infer<typeof Party> => ({
  projectId: row.projectId,
  partyId: row.id,
  referenceId: row.referenceId,
  type: row.type,
  details: row.details,
  created: row.created,
  updated: row.updated,
});
