import type { OpenAPIHono, z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { defineRoute } from "../auth/router";
import { access, type Scope } from "../auth/scopes";
import type { AppEnv } from "../env";
import { getDb } from "../lib/db";
import { notFound } from "../lib/errors";
import { ProjectParams } from "../lib/params";
import { nextRevision } from "../lib/preconditions";
import { jsonBody, jsonResponse, problems } from "../lib/schemas";
import { now } from "../lib/time";
import { projects } from "../projects/table";

/** A project's settings kept whole in one JSON column of `projects` (docs/architecture.md#a-projects-settings). */
type SettingsColumn = "consentMode" | "gpp" | "analytics";
type Settings<K extends SettingsColumn> = NonNullable<(typeof projects.$inferSelect)[K]>;

export type SettingsRoutes<K extends SettingsColumn> = {
  column: K;
  schema: z.ZodType<Settings<K>>;
  /** What a project that never set them has. */
  defaults: Settings<K>;
  tags: string[];
  read: { operationId: string; summary: string; answer: string };
  write: { operationId: string; scope: Scope; summary: string; description: string };
};

/**
 * The GET and PUT of one settings column, on the capability's router: read with the defaults until set (projects:read,
 * so viewers see them), replaced whole with the scope the capability names; another project's id answers 404.
 */
export function defineSettingsRoutes<K extends SettingsColumn>(router: OpenAPIHono<AppEnv>, spec: SettingsRoutes<K>) {
  const { column, defaults, tags, read, write } = spec;
  // Widened for the routes: Hono's typed answers cannot follow a column chosen by a type parameter; the spec's type
  // already ties the schema, the defaults and the column together.
  const schema: z.ZodType = spec.schema;
  router.openapi(
    defineRoute({
      method: "get",
      path: "/",
      operationId: read.operationId,
      tags,
      ...access.operator("projects:read"),
      summary: read.summary,
      request: { params: ProjectParams },
      responses: { 200: jsonResponse(schema, read.answer), ...problems },
    }),
    async (c) => {
      const [row] = await getDb(c.var.db)
        .select({ settings: projects[column] })
        .from(projects)
        .where(eq(projects.id, c.req.valid("param").project_id))
        .limit(1);
      if (!row) throw notFound("Project");
      return c.json(row.settings ?? defaults, 200);
    },
  );
  router.openapi(
    defineRoute({
      method: "put",
      path: "/",
      operationId: write.operationId,
      tags,
      ...access.operator(write.scope),
      summary: write.summary,
      description: write.description,
      request: { params: ProjectParams, body: jsonBody(schema) },
      responses: { 200: jsonResponse(schema, "The settings."), ...problems },
    }),
    async (c) => {
      const settings = c.req.valid("json");
      const [row] = await getDb(c.var.db)
        .update(projects)
        .set({ [column]: settings as Settings<K>, updated: now(), revision: nextRevision(projects.revision) })
        .where(eq(projects.id, c.req.valid("param").project_id))
        .returning({ id: projects.id });
      if (!row) throw notFound("Project");
      return c.json(settings, 200);
    },
  );
}
