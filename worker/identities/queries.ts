import { and, eq, inArray, type SQLWrapper } from "drizzle-orm";
import type { Db } from "../lib/db";
import { aliases, identities } from "./table";
import type { AliasValue, IdentityRecord } from "./schemas";

type IdentityRow = typeof identities.$inferSelect;

export const toIdentity = (row: Omit<IdentityRow, "revision">, aliasRows: AliasValue[]): IdentityRecord => ({
  projectId: row.projectId,
  identityId: row.id,
  referenceId: row.referenceId ?? null,
  aliases: aliasRows.map(({ type, identifier }) => ({ type, identifier })),
  created: row.created,
  updated: row.updated,
});

/**
 * An identity with its aliases and its revision (the ETag), or undefined; one round trip (a D1 batch of two reads).
 * The identity is named by its id or by a subquery that selects it (an alias or referenceId lookup), so a lookup
 * costs no extra round trip.
 */
export async function findIdentity(
  db: Db,
  projectId: string,
  identity: string | SQLWrapper,
): Promise<{ identity: IdentityRecord; revision: number } | undefined> {
  const matches = (column: typeof identities.id | typeof aliases.identityId) =>
    typeof identity === "string" ? eq(column, identity) : inArray(column, identity);
  const [rows, aliasRows] = await db.batch([
    db.select().from(identities).where(and(eq(identities.projectId, projectId), matches(identities.id))).limit(1),
    db
      .select({ type: aliases.type, identifier: aliases.identifier })
      .from(aliases)
      .where(and(eq(aliases.projectId, projectId), matches(aliases.identityId)))
      .orderBy(aliases.type, aliases.identifier),
  ]);
  return rows[0] && { identity: toIdentity(rows[0], aliasRows), revision: rows[0].revision };
}

/** The id of the identity an alias, or failing a URN type a referenceId, names: a subquery for `findIdentity`. */
export function identityNamedBy(db: Db, projectId: string, key: string) {
  const alias = parseAliasKey(key);
  return alias
    ? db
        .select({ id: aliases.identityId })
        .from(aliases)
        .where(and(eq(aliases.projectId, projectId), eq(aliases.type, alias.type), eq(aliases.identifier, alias.identifier)))
    : db.select({ id: identities.id }).from(identities).where(and(eq(identities.projectId, projectId), eq(identities.referenceId, key)));
}

export const aliasRows = (projectId: string, identityId: string, list: AliasValue[]) =>
  list.map((a) => ({ projectId, identityId, type: a.type, identifier: a.identifier }));

/** Splits a lookup key `{type}:{identifier}` where the type is `urn:svc:{resource}`. */
export function parseAliasKey(key: string): AliasValue | undefined {
  const match = /^(urn:svc:[^:]+):(.+)$/.exec(key);
  return match ? { type: match[1], identifier: match[2] } : undefined;
}
