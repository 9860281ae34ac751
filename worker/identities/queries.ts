import { and, eq } from "drizzle-orm";
import type { Db } from "../lib/db";
import { aliases, identities } from "./table";
import type { AliasValue, IdentityRecord } from "./schemas";

type IdentityRow = typeof identities.$inferSelect;

export const toIdentity = (row: IdentityRow, aliasRows: AliasValue[]): IdentityRecord => ({
  projectId: row.projectId,
  identityId: row.id,
  referenceId: row.referenceId ?? null,
  aliases: aliasRows.map(({ type, identifier }) => ({ type, identifier })),
  created: row.created,
  updated: row.updated,
});

/** An identity with its aliases, or undefined; one round trip (a D1 batch of two reads). */
export async function findIdentity(db: Db, projectId: string, identityId: string): Promise<IdentityRecord | undefined> {
  const [rows, aliasRows] = await db.batch([
    db.select().from(identities).where(and(eq(identities.projectId, projectId), eq(identities.id, identityId))).limit(1),
    db
      .select({ type: aliases.type, identifier: aliases.identifier })
      .from(aliases)
      .where(and(eq(aliases.projectId, projectId), eq(aliases.identityId, identityId)))
      .orderBy(aliases.type, aliases.identifier),
  ]);
  return rows[0] && toIdentity(rows[0], aliasRows);
}

export const aliasRows = (projectId: string, identityId: string, list: AliasValue[]) =>
  list.map((a) => ({ projectId, identityId, type: a.type, identifier: a.identifier }));

/** Splits a lookup key `{type}:{identifier}` where the type is `urn:svc:{resource}`. */
export function parseAliasKey(key: string): AliasValue | undefined {
  const match = /^(urn:svc:[^:]+):(.+)$/.exec(key);
  return match ? { type: match[1], identifier: match[2] } : undefined;
}
