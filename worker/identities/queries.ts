import { sql, type SQL } from "drizzle-orm";
import { compiled, type Placeholders } from "../lib/compiled";
import { normalAlias, normalizedColumn } from "./normalise";
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
const named: Record<IdentityKey["by"], (p: Placeholders<KeyValues>, column: SQL) => SQL> = {
  id: (p, column) => sql`${column} = ${p.key}`,
  alias: (p, column) => sql`${column} IN (SELECT k.identity_id FROM ${aliases} k
    WHERE k.project_id = ${p.projectId} AND k.type = ${p.type} AND coalesce(k.normalized, k.identifier) = ${p.key})`,
  referenceId: (p, column) => sql`${column} IN (SELECT k.id FROM ${identities} k WHERE k.project_id = ${p.projectId} AND k.reference_id = ${p.key})`,
};

/** An identity and its aliases, one row per alias (or one row without any), per kind of key; compiled once per isolate. */
const reads = Object.fromEntries(
  Object.entries(named).map(([by, matches]) => [
    by,
    compiled<KeyValues>(
      (p) => sql`SELECT i.id, i.project_id AS projectId, i.reference_id AS referenceId, i.created, i.updated, i.revision,
          a.type, a.identifier
        FROM ${identities} i LEFT JOIN ${aliases} a ON a.project_id = i.project_id AND a.identity_id = i.id
        WHERE i.project_id = ${p.projectId} AND ${matches(p, sql`i.id`)}
        ORDER BY a.type, a.identifier`,
    ),
  ]),
) as Record<IdentityKey["by"], ReturnType<typeof compiled<KeyValues>>>;

/**
 * An identity with its aliases and its revision (the ETag), or undefined; one statement. The identity is named by
 * its id or by a key (an alias or referenceId), so a lookup costs no extra round trip.
 */
export async function findIdentity(
  d1: D1Database,
  projectId: string,
  identity: string | IdentityKey,
): Promise<{ identity: IdentityRecord; revision: number } | undefined> {
  const { by, key, type } = typeof identity === "string" ? { by: "id" as const, key: identity, type: undefined } : identity;
  const { results } = await reads[by](d1, { projectId, key, type: type ?? null }).all<IdentityRow & { type: string | null; identifier: string }>();
  const row = results[0];
  const aliasValues = row?.type === null ? [] : (results as AliasValue[]);
  return row && { identity: toIdentity(row, aliasValues), revision: row.revision };
}

/** The key a lookup value names: an alias `{type}:{identifier}` where the type is a URN, else a referenceId. */
export function identityNamedBy(value: string): IdentityKey {
  const alias = parseAliasKey(value);
  return alias ? { by: "alias", type: alias.type, key: normalAlias(alias.type, alias.identifier) } : { by: "referenceId", key: value };
}

export const aliasRows = (projectId: string, identityId: string, list: AliasValue[]) =>
  list.map((a) => ({ projectId, identityId, type: a.type, identifier: a.identifier, normalized: normalizedColumn(a.type, a.identifier) }));

/** Splits a lookup key `{type}:{identifier}` where the type is `urn:svc:{resource}`. */
export function parseAliasKey(key: string): AliasValue | undefined {
  const match = /^(urn:svc:[^:]+):(.+)$/.exec(key);
  return match ? { type: match[1], identifier: match[2] } : undefined;
}
