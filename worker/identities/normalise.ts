/**
 * How an alias is matched: people type the same email address or phone number in more than one way, and a lookup
 * that misses tells them "no data" about data that is there (issue 37). Email and phone aliases are matched by a
 * normal form, at write and at lookup; the identifier as written is what is kept and shown. Alias types differ by
 * this table, not by branches; a type not listed is matched exactly.
 *
 * The forms are plain enough to be computed in SQL as well (drizzle/0027_public_door_abuse.sql migrates the stored
 * aliases with the same rules), so they change only together with a migration.
 */
const normalForms: Record<string, (identifier: string) => string> = {
  /** ASCII letters lower-cased: mail systems treat addresses case-insensitively in practice. */
  "urn:svc:email": (identifier) => identifier.replace(/[A-Z]+/g, (letters) => letters.toLowerCase()),
  /** A trunk `(0)`, spaces, dashes, dots and brackets dropped, a leading international `00` written `+`: E.164 as typed. */
  "urn:svc:phone": (identifier) => identifier.replace(/\(0\)/g, "").replace(/[\s\-.()]/g, "").replace(/^00/, "+"),
};

/** The alias types whose identifiers are matched by a normal form. */
export const normalisedAliasTypes = Object.keys(normalForms);

/** The identifier as an alias of `type` is matched (the identifier itself for types matched exactly). */
export const normalAlias = (type: string, identifier: string) => normalForms[type]?.(identifier) ?? identifier;

/** The `normalized` column: the normal form where it differs from the identifier as written, else null. */
export const normalizedColumn = (type: string, identifier: string) => {
  const normal = normalAlias(type, identifier);
  return normal === identifier ? null : normal;
};
