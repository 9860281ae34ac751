import { z } from "@hono/zod-openapi";

/** The path parameters of every route under one project (`…/projects/{project_id}/…`). */
export const ProjectParams = z.object({ project_id: z.string() });
