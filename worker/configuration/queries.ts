import type { z } from "@hono/zod-openapi";
import { and, eq, isNull, type SQL } from "drizzle-orm";
import { inJsonArray, type Db } from "../lib/db";
import { ApiError, type FieldError } from "../lib/errors";
import { parties } from "../parties/table";
import type { DataGroup, Purpose, PurposeVersion } from "./schemas";
import { dataGroups, purposes, purposeVersions, type PurposeContent } from "./table";

export const toDataGroup = (row: typeof dataGroups.$inferSelect): z.infer<typeof DataGroup> => ({
  projectId: row.projectId,
  dataGroupId: row.id,
  referenceId: row.referenceId,
  name: row.name,
  description: row.description,
  created: row.created,
  updated: row.updated,
});

const contentFields = (content: PurposeContent) => ({
  referenceId: content.referenceId,
  name: content.name,
  description: content.description,
  legalGround: content.legalGround,
  dataGroups: content.dataGroups,
  processors: content.processors,
  recipients: content.recipients,
  controllers: content.controllers,
  consentMode: content.consentMode ?? [],
  exemption: content.exemption ?? null,
  sensitive: content.sensitive ?? false,
  sensitiveCategories: content.sensitiveCategories ?? [],
});

export const toPurpose = (row: typeof purposes.$inferSelect): z.infer<typeof Purpose> => ({
  projectId: row.projectId,
  purposeId: row.id,
  ...contentFields(row.content),
  version: row.version,
  created: row.created,
  updated: row.updated,
});

export const toPurposeVersion = (
  projectId: string,
  row: typeof purposeVersions.$inferSelect,
): z.infer<typeof PurposeVersion> => ({
  projectId,
  purposeId: row.purposeId,
  ...contentFields(row.content),
  version: row.version,
  created: row.created,
  updated: row.updated,
});

/** A purpose of the project that has not been deleted. */
export const livePurpose = (projectId: string, ...more: SQL[]) =>
  and(eq(purposes.projectId, projectId), isNull(purposes.deleted), ...more);

/** 422 for ids in a body that name nothing in the project; each offending field is listed. */
export const unknownReferences = (errors: FieldError[]) =>
  new ApiError(422, "unknown_reference", "The body names ids that do not exist in this project; see `errors`.", { errors });

/** Checks that every data group and party a purpose names exists in the project (one round trip). */
export async function assertPurposeReferences(db: Db, projectId: string, content: PurposeContent): Promise<void> {
  const partyIds = [...new Set([...content.controllers, ...content.processors, ...content.recipients])];
  const [groupRows, partyRows] = await db.batch([
    db
      .select({ id: dataGroups.id })
      .from(dataGroups)
      .where(and(eq(dataGroups.projectId, projectId), inJsonArray(dataGroups.id, content.dataGroups))),
    db
      .select({ id: parties.id })
      .from(parties)
      .where(and(eq(parties.projectId, projectId), inJsonArray(parties.id, partyIds))),
  ]);
  const groups = new Set(groupRows.map((r) => r.id));
  const known = new Set(partyRows.map((r) => r.id));
  const errors: FieldError[] = [];
  const check = (field: keyof PurposeContent, ids: string[], found: Set<string>, what: string) =>
    ids.forEach((id, i) => {
      if (!found.has(id)) errors.push({ path: `${field}.${i}`, message: `No ${what} ${id} in this project.`, code: "unknown_reference" });
    });
  check("dataGroups", content.dataGroups, groups, "data group");
  check("controllers", content.controllers, known, "party");
  check("processors", content.processors, known, "party");
  check("recipients", content.recipients, known, "party");
  if (errors.length) throw unknownReferences(errors);
}
