import { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { access } from "../auth/scopes";
import { getDb } from "../lib/db";
import { notFound } from "../lib/errors";
import { createRouter, defineRoute } from "../auth/router";
import { jsonBody, jsonResponse, problems } from "../lib/schemas";
import { ProjectParams } from "../lib/params";
import { nextRevision } from "../lib/preconditions";
import { now } from "../lib/time";
import { projects } from "../projects/table";
import { defaultRefusalStandsSeconds, defaultRules, isArea, jurisdictionPresets, presetOf, regimes, type JurisdictionRules } from "./rules";

export const jurisdictionRoutes = createRouter();

const tags = ["Jurisdictions"];

const Regime = z.enum(regimes).openapi({ description: "`opt-in`: nothing that needs consent runs before it; `opt-out`: it runs until the visitor opts out (GPC counts); `notice`: a notice is enough." });

export const JurisdictionRulesInput = z
  .strictObject({
    rules: z
      .array(
        z.strictObject({
          area: z
            .string()
            .refine(isArea, "A group (EEA, UK), an ISO 3166-1 country (CH) or an ISO 3166-2 subdivision (US-CA), upper case.")
            .openapi({ example: "US-CA" }),
          regime: Regime,
        }),
      )
      .max(500)
      .superRefine((rules, ctx) => {
        const seen = new Set<string>();
        rules.forEach((rule, index) => {
          if (seen.has(rule.area)) ctx.addIssue({ code: "custom", path: [index, "area"], message: `${rule.area} has two rules.` });
          seen.add(rule.area);
        });
      }),
    rest: Regime.openapi({ description: "The regime everywhere no rule names (and when the location is unknown)." }),
    refusalStandsSeconds: z
      .number()
      .int()
      .min(1)
      .max(10 * 366 * 86_400)
      .optional()
      .openapi({
        description:
          "How long a visitor's refusal of a purpose stands before the widget asks about it again (until then only a new " +
          "version that requires consent, or the visitor opening the preferences, asks). Default six months (15778800), " +
          "the Digital Omnibus proposal's minimum.",
        example: 15_778_800,
      }),
  })
  .openapi("JurisdictionRulesInput");

// Spread, not .extend(): extending a registered closed schema publishes an allOf no object can satisfy.
const JurisdictionRulesView = z
  .object({
    ...JurisdictionRulesInput.shape,
    preset: z.string().nullable().openapi({ description: "The preset these rules equal, if any." }),
  })
  .openapi("JurisdictionRules");

const view = (rules: JurisdictionRules) => ({
  ...rules,
  refusalStandsSeconds: rules.refusalStandsSeconds ?? defaultRefusalStandsSeconds,
  preset: presetOf(rules),
});

jurisdictionRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/jurisdiction-presets",
    operationId: "listJurisdictionPresets",
    tags,
    ...access.operator("projects:read"),
    summary: "List the jurisdiction rule presets",
    description: "Starting points for a project's rules; `recommended` applies to projects that never set any.",
    responses: {
      200: jsonResponse(
        z.object({ items: z.array(z.object({ name: z.string(), title: z.string(), description: z.string(), rules: JurisdictionRulesInput })) }),
        "The presets.",
      ),
      ...problems,
    },
  }),
  (c) =>
    c.json(
      {
        items: Object.entries(jurisdictionPresets).map(([name, preset]) => ({
          name,
          title: preset.title,
          description: preset.description,
          rules: { rules: [...preset.rules.rules], rest: preset.rules.rest },
        })),
      },
      200,
    ),
);

jurisdictionRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/projects/{project_id}/jurisdictions",
    operationId: "getJurisdictionRules",
    tags,
    ...access.operator("projects:read"),
    summary: "Read the project's jurisdiction rules",
    request: { params: ProjectParams },
    responses: { 200: jsonResponse(JurisdictionRulesView, "The rules (the `recommended` preset until set)."), ...problems },
  }),
  async (c) => {
    const [row] = await getDb(c.var.db)
      .select({ rules: projects.jurisdictionRules })
      .from(projects)
      .where(eq(projects.id, c.req.valid("param").project_id))
      .limit(1);
    if (!row) throw notFound("Project");
    return c.json(view(row.rules ?? defaultRules), 200);
  },
);

jurisdictionRoutes.openapi(
  defineRoute({
    method: "put",
    path: "/projects/{project_id}/jurisdictions",
    operationId: "updateJurisdictionRules",
    tags,
    ...access.operator("projects:write"),
    summary: "Replace the project's jurisdiction rules",
    description:
      "Which regime the consent widget applies where, resolved at the edge from the visitor's country and region. " +
      "The most specific area wins: subdivision (`US-CA`), then country (`CH`), then group (`EEA`, `UK`), then `rest`. " +
      "Takes effect with the next bootstrap.",
    request: { params: ProjectParams, body: jsonBody(JurisdictionRulesInput) },
    responses: { 200: jsonResponse(JurisdictionRulesView, "The rules."), ...problems },
  }),
  async (c) => {
    const rules = c.req.valid("json");
    const [row] = await getDb(c.var.db)
      .update(projects)
      .set({ jurisdictionRules: rules, updated: now(), revision: nextRevision(projects.revision) })
      .where(eq(projects.id, c.req.valid("param").project_id))
      .returning({ id: projects.id });
    if (!row) throw notFound("Project");
    return c.json(view(rules), 200);
  },
);
