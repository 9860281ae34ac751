import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { compiled, type Placeholders } from "../lib/compiled";
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

/** How a read names an identity: by id, by an alias, or by its referenceId. */
export type IdentityKey = { by: "id" | "referenceId"; key: string; type?: undefined } | { by: "alias"; key: string; type: string };

type KeyValues = "projectId" | "key" | "type";

/** SQL that holds when `column` (an identity id) is the identity a key names: one seek on a primary key or unique index. */
const named: Record<IdentityKey["by"], (p: Placeholders<KeyValues>, column: SQLWrapper) => SQL> = {
  id: (p, column) => sql`${column} = ${p.key}`,
  alias: (p, column) => sql`${column} IN (SELECT a.identity_id FROM ${aliases} a
    WHERE a.project_id = ${p.projectId} AND a.type = ${p.type} AND a.identifier = ${p.key})`,
  referenceId: (p, column) => sql`${column} IN (SELECT i.id FROM ${identities} i WHERE i.project_id = ${p.projectId} AND i.reference_id = ${p.key})`,
};

/** The two reads of an identity (its row, its aliases), per kind of key, compiled once per isolate. */
const reads = Object.fromEntries(
  Object.entries(named).map(([by, matches]) => [
    by,
    {
      identity: compiled<KeyValues>(
        (p) => sql`SELECT id, project_id AS projectId, reference_id AS referenceId, created, updated, revision FROM ${identities}
          WHERE ${identities.projectId} = ${p.projectId} AND ${matches(p, identities.id)} LIMIT 1`,
      ),
      aliases: compiled<KeyValues>(
        (p) => sql`SELECT type, identifier FROM ${aliases} WHERE ${aliases.projectId} = ${p.projectId} AND ${matches(p, aliases.identityId)}
          ORDER BY type, identifier`,
      ),
    },
  ]),
) as Record<IdentityKey["by"], { identity: ReturnType<typeof compiled<KeyValues>>; aliases: ReturnType<typeof compiled<KeyValues>> }>;

/**
 * An identity with its aliases and its revision (the ETag), or undefined; one round trip (a D1 batch of two reads).
 * The identity is named by its id or by a key (an alias or referenceId), so a lookup costs no extra round trip.
 */
export async function findIdentity(
  d1: D1Database,
  projectId: string,
  identity: string | IdentityKey,
): Promise<{ identity: IdentityRecord; revision: number } | undefined> {
  const { by, key, type } = typeof identity === "string" ? { by: "id" as const, key: identity, type: undefined } : identity;
  const values = { projectId, key, type: type ?? null };
  const [rows, aliasRows] = await d1.batch([reads[by].identity(d1, values), reads[by].aliases(d1, values)]);
  const row = rows.results[0] as IdentityRow | undefined;
  return row && { identity: toIdentity(row, aliasRows.results as AliasValue[]), revision: row.revision };
}

/** The key a lookup value names: an alias `{type}:{identifier}` where the type is a URN, else a referenceId. */
export function identityNamedBy(value: string): IdentityKey {
  const alias = parseAliasKey(value);
  return alias ? { by: "alias", type: alias.type, key: alias.identifier } : { by: "referenceId", key: value };
}

export const aliasRows = (projectId: string, identityId: string, list: AliasValue[]) =>
  list.map((a) => ({ projectId, identityId, type: a.type, identifier: a.identifier }));

/** Splits a lookup key `{type}:{identifier}` where the type is `urn:svc:{resource}`. */
export function parseAliasKey(key: string): AliasValue | undefined {
  const match = /^(urn:svc:[^:]+):(.+)$/.exec(key);
  return match ? { type: match[1], identifier: match[2] } : undefined;
}
