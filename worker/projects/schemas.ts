import { z } from "@hono/zod-openapi";
import { Policies, Timestamp } from "../lib/schemas";
import type { projects } from "./table";

export const Controller = z
  .strictObject({
    name: z.string().min(1).max(200),
    email: z.email().optional(),
    address: z.string().max(500).optional(),
    nationalId: z.string().max(100).optional(),
    phone: z.string().max(50).optional(),
  })
  .openapi("Controller", { description: "The data controller (GDPR Art. 4(7)) shown to data subjects." });

const Language = z
  .string()
  .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/, "A BCP 47 language tag.")
  .openapi({ example: "en" });

/** The privacy metadata a project carries (spec: data controller information, policies, jurisdiction). */
export const ProjectMetadata = z.strictObject({
  name: z.string().min(1).max(200),
  controller: Controller.optional(),
  policies: Policies.default({}),
  jurisdiction: z.string().max(100).optional().openapi({ example: "SE" }),
  defaultLanguage: Language.default("en").openapi({ description: "Fallback language of texts shown to subjects." }),
});

export const ProjectInput = ProjectMetadata.openapi("ProjectInput");

export const Project = z
  .object({
    projectId: z.string(),
    name: z.string(),
    controller: Controller.nullable(),
    policies: Policies,
    jurisdiction: z.string().nullable(),
    defaultLanguage: z.string(),
    created: Timestamp,
    updated: Timestamp,
  })
  .openapi("Project");

/** The metadata columns (the widget settings, the configuration version and the scan schedule have their own routes). */
type ProjectRow = Omit<typeof projects.$inferSelect, "jurisdictionRules" | "consentMode" | "gpp" | "privacyCenter" | "blocking" | "tcf" | "analytics" | "configVersion" | "scanSchedule">;

export const toProject = (row: ProjectRow): z.infer<typeof Project> => ({
  projectId: row.id,
  name: row.name,
  controller: row.controller ?? null,
  policies: row.policies,
  jurisdiction: row.jurisdiction ?? null,
  defaultLanguage: row.defaultLanguage,
  created: row.created,
  updated: row.updated,
});
