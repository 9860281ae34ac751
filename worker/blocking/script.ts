import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { BlockingScriptConfig } from "../../shared/blocking/script-config";
import { access } from "../auth/scopes";
import { sha256Hex } from "../lib/crypto";
import { ApiError, notFound } from "../lib/errors";
import { ProjectParams } from "../lib/params";
import { stillCurrent } from "../lib/preconditions";
import { publicOrigin } from "../lib/settings";
import type { AppEnv } from "../env";
import { createRouter, defineRoute } from "../auth/router";
import { problem } from "../lib/schemas";
import { pageBlockingOf, pageConsentModeOf } from "./queries";

/** What a page holds back for a project, mounted at `/widget/v1/projects/{project_id}`: as a script, and as data. */
export const blockingScriptRoutes = createRouter();

/**
 * Sites load these on every page (the script synchronously, the list from their edge): a minute in caches (so a
 * change of the list reaches pages within about a minute), then revalidated with the ETag, which costs an empty 304.
 * Their URLs cannot carry a content hash (sites write them once), so they cannot be cached for long.
 */
const cacheControl = "public, max-age=60";
const caching =
  "Cached publicly for 60 seconds (`Cache-Control: public, max-age=60`), then revalidated: the answer carries a " +
  "strong `ETag` of its body, and a matching `If-None-Match` gets an empty 304. A list change reaches pages within " +
  "about a minute; the stable URL cannot be cached longer because sites write it into their pages once.";

/** The project's page-side list with the service's origin; 404 for a project that does not exist. */
async function pageConfig(c: Context<AppEnv>, projectId: string): Promise<BlockingScriptConfig> {
  const entries = await pageBlockingOf(c.var.db, projectId);
  // A project that does not exist answers 404 rather than a list that holds nothing.
  if (!entries) throw notFound("Project");
  return { api: publicOrigin(c.env), project: projectId, entries };
}

/** `body` with the shared caching headers, or an empty 304 when the request's `If-None-Match` names its ETag. */
async function cached(c: Context<AppEnv>, body: string, contentType: string) {
  const etag = `"${(await sha256Hex(body)).slice(0, 32)}"`;
  const headers = {
    "Cache-Control": cacheControl,
    ETag: etag,
    "Cross-Origin-Resource-Policy": "cross-origin",
    "Access-Control-Allow-Origin": "*",
    "X-Content-Type-Options": "nosniff",
  };
  if (stillCurrent(c.req.header("if-none-match"), etag)) return c.body(null, 304, headers);
  return c.body(body, 200, { ...headers, "Content-Type": contentType });
}

const notModified = { description: "Not modified: the `If-None-Match` ETag is current." };

blockingScriptRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/blocking.js",
    operationId: "getBlockingScript",
    tags: ["Blocking"],
    ...access.public,
    summary: "The project's blocker, a classic script for the top of `<head>`",
    description:
      "The page-side blocker (docs/blocking.md#automatic-blocking) with the project's list inlined, so it holds back " +
      "listed scripts, frames and pixels before anything else runs, without a request of its own. With the project's " +
      "Consent Mode on, it first pushes the `consent default` commands (and a returning visitor's stored `update`) " +
      "onto the page's dataLayer, so Google's tags never start without them. A page loads it " +
      "synchronously as the first script element of its head (no `async`, `defer` or `type=module`). " +
      "A project whose blocking is switched off gets the same script with an empty list, which holds nothing back. " +
      caching,
    request: { params: ProjectParams },
    responses: {
      200: { description: "The blocker.", content: { "text/javascript": { schema: z.string() } } },
      304: notModified,
      404: problem("No such project."),
      503: problem("The client bundles are not built (`npm run build:client`)."),
    },
  }),
  async (c) => {
    const projectId = c.req.valid("param").project_id;
    const [config, consentMode, code] = await Promise.all([
      pageConfig(c, projectId),
      pageConsentModeOf(c.var.db, projectId),
      c.env.ASSETS.fetch(new URL("/widget/blocking.js", c.req.url)).catch(() => undefined),
    ]);
    if (!code?.ok) throw new ApiError(503, "widget_not_built", "The widget is not built; run `npm run build:client`.");
    // `<` escaped: the list is the operator's data, and the script may be inlined into a page by a build step.
    return cached(c, `${await code.text()}\nAssentBlocking.start(${JSON.stringify({ ...config, consentMode }).replace(/</g, "\\u003c")});\n`, "text/javascript; charset=utf-8");
  },
);

const PageBlocking = z
  .object({
    api: z.string().openapi({ description: "The service's origin.", example: "https://assent.example.com" }),
    project: z.string().openapi({ example: "prj_2Vg1d8Kx" }),
    entries: z
      .array(
        z.object({
          host: z.string().openapi({
            description: "A host name, or `*.` and one (every subdomain), optionally followed by a path prefix the URL's path starts with.",
            example: "connect.facebook.net",
          }),
          purpose: z.string().openapi({ description: "The purpose `referenceId` the host waits for.", example: "marketing" }),
          vendor: z.string().nullable().openapi({ description: "The catalogue vendor: the entry's own, else the one listing the host.", example: "meta-pixel" }),
        }),
      )
      .openapi({ description: "What pages hold back, in the operator's order; empty while blocking is switched off." }),
  })
  .openapi("PageBlocking");

blockingScriptRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/blocking.json",
    operationId: "getPageBlocking",
    tags: ["Blocking"],
    ...access.public,
    summary: "What the project's pages hold back, as data for an edge rewriter",
    description:
      "The list the blocker inlines, for code that gates tags before the page reaches the browser: the edge rewriter " +
      "(`@assent/edge`, docs/blocking.md#at-the-edge) holds the page's listed scripts, frames and images " +
      "in a form the browser does not fetch, so nothing of them loads before consent. Each host " +
      "pattern has its purpose and vendor; a project whose blocking is switched off answers an empty list. " +
      caching,
    request: { params: ProjectParams },
    responses: {
      200: { description: "The list.", content: { "application/json": { schema: PageBlocking } } },
      304: notModified,
      404: problem("No such project."),
    },
  }),
  async (c) => cached(c, JSON.stringify(await pageConfig(c, c.req.valid("param").project_id)), "application/json"),
);
