import { z } from "@hono/zod-openapi";
import { Policies, ReferenceId, Timestamp, Translation } from "../lib/schemas";

const DetailsBase = z.strictObject({
  name: z.string().min(1).max(200),
  description: z.array(Translation).max(50).optional(),
  address: z.string().max(500).optional(),
  email: z.email().optional().openapi({ description: "Address for privacy-related requests." }),
  nationalId: z.string().max(100).optional().openapi({ description: "Official organisational number." }),
  phone: z.string().max(50).optional(),
  policies: z
    .union([Policies, z.array(Policies).length(1)])
    .optional()
    .openapi({ description: "URLs with keys privacy, terms, cookie. The spec's sample form, an array of one object, is accepted too." }),
  jurisdiction: z.string().max(100).optional(),
  juridiction: z.string().max(100).optional().openapi({ description: "The spec's field-table spelling; stored as `jurisdiction`." }),
});

/** Party details as accepted: the spec's two spellings and two policy shapes, normalised on the way in. */
export const PartyDetailsInput = DetailsBase.transform(({ juridiction, policies, ...details }) => ({
  ...details,
  ...(policies ? { policies: Array.isArray(policies) ? policies[0] : policies } : {}),
  ...(details.jurisdiction ?? juridiction ? { jurisdiction: details.jurisdiction ?? juridiction } : {}),
}));

export const PartyInput = z
  .strictObject({
    referenceId: ReferenceId.openapi({ description: "The client's own identifier of the party; unique in the project." }),
    type: z.enum(["individual", "company"]),
    details: PartyDetailsInput,
  })
  .openapi("PartyInput");

export const PartyDetails = z
  .object({
    name: z.string(),
    description: z.array(Translation).optional(),
    address: z.string().optional(),
    email: z.string().optional(),
    nationalId: z.string().optional(),
    phone: z.string().optional(),
    policies: Policies.optional(),
    jurisdiction: z.string().optional(),
  })
  .openapi("PartyDetails");

export const Party = z
  .object({
    projectId: z.string(),
    partyId: z.string(),
    referenceId: z.string(),
    type: z.enum(["individual", "company"]),
    details: PartyDetails,
    created: Timestamp,
    updated: Timestamp,
  })
  .openapi("Party", { description: "A recipient, processor, sub-processor, controller or owner, depending on the purpose it is mapped to." });
