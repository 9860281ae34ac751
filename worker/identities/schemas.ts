import { z } from "@hono/zod-openapi";
import { ReferenceId, Timestamp } from "../lib/schemas";
import { normalAlias } from "./normalise";

// RFC 8141: the NSS is pchar *(pchar / "/"); the spec's svc-resource is one segment without ":".
const pchar = String.raw`[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2}`;
const resourceChar = String.raw`[A-Za-z0-9\-._~!$&'()*+,;=@]|%[0-9A-Fa-f]{2}`;
export const aliasTypePattern = new RegExp(`^urn:svc:(?:${resourceChar})+$`);
export const aliasIdentifierPattern = new RegExp(`^(?:${pchar})(?:${pchar}|/)*$`);

export const Alias = z
  .strictObject({
    type: z
      .string()
      .max(128)
      .regex(aliasTypePattern, "An alias type is a URN urn:svc:{resource}, the resource without ':'.")
      .openapi({ example: "urn:svc:national-id" }),
    identifier: z
      .string()
      .min(1)
      .max(256)
      .regex(aliasIdentifierPattern, "The identifier must follow the URN resource-specific-string rules.")
      .openapi({ example: "19121212-1212" }),
  })
  .openapi("Alias");

const Aliases = z
  .array(Alias)
  .max(50)
  .refine((list) => new Set(list.map((a) => `${a.type}:${normalAlias(a.type, a.identifier)}`)).size === list.length, {
    message: "The same alias is listed twice.",
  });

export const IdentityInput = z
  .strictObject({
    referenceId: ReferenceId.optional().openapi({ description: "The client's own reference of the subject; unique in the project." }),
    aliases: Aliases.default([]),
  })
  .openapi("IdentityInput");

export const IdentityUpdate = z
  .strictObject({
    referenceId: ReferenceId.nullable().optional().openapi({ description: "null removes it; omitted leaves it unchanged." }),
    aliases: Aliases.optional().openapi({ description: "Replaces the whole alias list; omitted leaves it unchanged." }),
  })
  .openapi("IdentityUpdate");

export const Identity = z
  .object({
    projectId: z.string(),
    identityId: z.string(),
    referenceId: z.string().nullable(),
    aliases: z.array(Alias),
    created: Timestamp,
    updated: Timestamp,
  })
  .openapi("Identity");

export type IdentityRecord = z.infer<typeof Identity>;
export type AliasValue = z.infer<typeof Alias>;

export const IdentityParams = z.object({ project_id: z.string(), identityId: z.string() });
