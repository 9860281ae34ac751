import { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { access } from "../auth/scopes";
import { getDb } from "../lib/db";
import { notFound } from "../lib/errors";
import { ProjectParams } from "../lib/params";
import { createRouter, defineRoute } from "../auth/router";
import { jsonBody, jsonResponse, problems } from "../lib/schemas";
import { projects } from "../projects/table";

/** A project's privacy-center settings, and the operator's routes for them (`/admin/v1/projects/{project_id}/privacy-center`). */

const AliasType = z
  .string()
  .regex(/^urn:svc:[A-Za-z0-9._~-]+$/, "An alias type URN, urn:svc:{resource}.")
  .openapi({ example: "urn:svc:email" });

const ChannelSetting = z.strictObject({
  aliasType: AliasType.openapi({ description: "The alias type the verified address is looked up under." }),
});

/**
 * The CSS functions a theme value may call: colours and arithmetic. Anything that loads (`url()`, `image()`,
 * `image-set()`, `element()`, `src()`) would let a theme fetch from another host on every visit.
 */
const cssFunctions = new Set(["rgb", "rgba", "hsl", "hsla", "hwb", "lab", "lch", "oklab", "oklch", "color", "color-mix", "light-dark", "calc", "min", "max", "clamp", "var"]);

export const PrivacyCenterSettings = z
  .strictObject({
    channels: z
      .strictObject({ email: ChannelSetting.optional(), sms: ChannelSetting.optional() })
      .openapi({ description: "The channels people may verify with; a channel left out is off. None: the page only shows the browser's decisions." }),
    smsCountries: z
      .array(z.string().regex(/^[A-Z]{2}$/, "An ISO 3166-1 alpha-2 country code (SE)."))
      .max(250)
      .optional()
      .openapi({
        description:
          "The countries whose phone numbers may get a code by SMS. Omitted: those the project's jurisdiction rules name " +
          "(a group such as EEA by its members), or the recommended preset's when they name none. Premium, shared-cost and " +
          "other non-mobile numbers never get one (docs/privacy-center.md#abuse-limits).",
      }),
    retentionDays: z.number().int().min(1).max(3650).openapi({ description: "Days a verification record is kept (then the daily retention deletes it)." }),
    theme: z
      .record(
        z.string().regex(/^--assent-[a-z0-9-]{1,40}$/, "A CSS custom property --assent-…"),
        z
          .string()
          .regex(/^[#(),.%/\w\s+*-]{1,80}$/, "A plain CSS value (colour, length, font list).")
          .refine(
            (value) => [...value.matchAll(/([\w-]*)\(/g)].every(([, name]) => cssFunctions.has(name.toLowerCase())),
            "Only colour and arithmetic functions (rgb(), hsl(), oklch(), color-mix(), calc(), var(), …): a theme loads nothing, so no url() or image().",
          ),
      )
      .refine((theme) => Object.keys(theme).length <= 30, "At most 30 properties.")
      .openapi({ description: "CSS custom properties the page and `<assent-privacy-center>` apply, e.g. `--assent-accent`." }),
  })
  .openapi("PrivacyCenterSettings");

export type Settings = z.infer<typeof PrivacyCenterSettings>;

export const defaultSettings: Settings = { channels: {}, retentionDays: 90, theme: {} };

/** The settings of a project (the defaults without a row); undefined when there is no such project. */
export async function readSettings(d1: D1Database, projectId: string) {
  const [row] = await getDb(d1)
    .select({
      name: projects.name,
      controller: projects.controller,
      policies: projects.policies,
      jurisdictionRules: projects.jurisdictionRules,
      settings: projects.privacyCenter,
    })
    .from(projects)
    .where(eq(projects.id, projectId));
  if (!row) return undefined;
  const { settings: stored, ...project } = row;
  // Stored before the settings moved onto the project (drizzle/0038), an unset country list is null.
  const { smsCountries, ...settings } = stored ?? defaultSettings;
  return { project, settings: smsCountries ? { ...settings, smsCountries } : settings };
}

export const settingsRoutes = createRouter();

const tags = ["Admin"];

settingsRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/",
    operationId: "getPrivacyCenterSettings",
    tags,
    ...access.operator("projects:read"),
    summary: "Read the project's privacy-center settings",
    request: { params: ProjectParams },
    responses: { 200: jsonResponse(PrivacyCenterSettings, "The settings (the defaults until set: no channel on)."), ...problems },
  }),
  async (c) => {
    const found = await readSettings(c.var.db, c.req.valid("param").project_id);
    if (!found) throw notFound("Project");
    return c.json(found.settings, 200);
  },
);

settingsRoutes.openapi(
  defineRoute({
    method: "put",
    path: "/",
    operationId: "updatePrivacyCenterSettings",
    tags,
    ...access.operator("projects:write"),
    summary: "Replace the project's privacy-center settings",
    description: "Which channels may verify a person (and the alias type each looks up), how long verification records are kept, and the page's theme.",
    request: { params: ProjectParams, body: jsonBody(PrivacyCenterSettings) },
    responses: { 200: jsonResponse(PrivacyCenterSettings, "The settings."), ...problems },
  }),
  async (c) => {
    const projectId = c.req.valid("param").project_id;
    const settings = c.req.valid("json");
    const [updated] = await getDb(c.var.db)
      .update(projects)
      .set({ privacyCenter: settings })
      .where(eq(projects.id, projectId))
      .returning({ id: projects.id });
    if (!updated) throw notFound("Project");
    return c.json(settings, 200);
  },
);
