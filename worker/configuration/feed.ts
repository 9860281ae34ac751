import { access } from "../auth/scopes";
import { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { getDb } from "../lib/db";
import { notFound } from "../lib/errors";
import { stillCurrent } from "../lib/preconditions";
import { createRouter, defineRoute } from "../auth/router";
import { jsonResponse, problems } from "../lib/schemas";
import { projects } from "../projects/table";
import { cachedConfiguration } from "./document";
import { Configuration } from "./schemas";
import { tags } from "./route-parts";

export const configurationFeedRoutes = createRouter();

/* The earlier configuration interface: one document for a consent dialog. */

/**
 * Browsers may keep the document but must ask again each time (a new purpose version has to re-prompt at once);
 * the answer to a matching `If-None-Match` is an empty 304. `private`: it is read with a bearer token.
 */
const configurationCacheControl = "private, no-cache";

configurationFeedRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/",
    operationId: "getConfiguration",
    ...access.client("consent-config:read"),
    tags,
    summary: "The whole current configuration, for a consent dialog",
    description:
      "The project (from the token) with its controller, policies and jurisdiction, and every live purpose at its " +
      "current version with its data groups and parties expanded (names, descriptions in every language, policies) " +
      "and its Consent Mode types. Purposes come oldest first. Tokens scoped to one identity may read it.\n\n" +
      "Answers carry an `ETag` and `Cache-Control: private, no-cache`: send the ETag back as `If-None-Match` to get " +
      "an empty 304 while nothing changed. The document is cached at the edge and the cache follows every change.",
    request: { headers: z.object({ "if-none-match": z.string().max(1000).optional() }) },
    responses: {
      200: jsonResponse(Configuration, "The configuration."),
      304: { description: "Not modified since the ETag sent as `If-None-Match`." },
      ...problems,
    },
  }),
  async (c) => {
    const { projectId } = c.get("caller");
    const db = getDb(c.var.db);
    const [project] = await db.select({ version: projects.configVersion }).from(projects).where(eq(projects.id, projectId)).limit(1);
    const cached = project && (await cachedConfiguration(db, c.req.url, (p) => c.executionCtx.waitUntil(p), projectId, project.version));
    if (!cached) throw notFound("Project");
    const headers = { ETag: cached.etag, "Cache-Control": configurationCacheControl, Vary: "Authorization" };
    if (stillCurrent(c.req.valid("header")["if-none-match"], cached.etag)) return c.body(null, 304, headers);
    return c.json(cached.configuration, 200, headers);
  },
);
