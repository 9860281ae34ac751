import { z } from "@hono/zod-openapi";
import type { BlockingScriptConfig } from "../../shared/blocking/script-config";
import { access } from "../auth/scopes";
import { sha256Hex } from "../lib/crypto";
import { ApiError, notFound } from "../lib/errors";
import { ProjectParams } from "../lib/params";
import { createRouter, defineRoute } from "../lib/router";
import { problem } from "../lib/schemas";
import { vendorCovering } from "../../shared/blocking/hosts";
import { vendors } from "../../shared/vendors/catalogue";
import { readBlockingList } from "./queries";

/** A project's blocker, mounted at `/widget/v1/projects/{project_id}`. */
export const blockingScriptRoutes = createRouter();

/**
 * Sites load it synchronously on every page: a minute in caches (so a change of the list reaches pages within about
 * a minute), then revalidated with the ETag, which costs an empty 304. Its URL cannot carry a content hash (sites
 * write it once into their pages), so it cannot be cached for long.
 */
const cacheControl = "public, max-age=60";

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
      "listed scripts, frames and pixels before anything else runs, without a request of its own. A page loads it " +
      "synchronously as the first script element of its head (no `async`, `defer` or `type=module`). " +
      "A project whose blocking is switched off gets the same script with an empty list, which holds nothing back. " +
      "Cached publicly for 60 seconds (`Cache-Control: public, max-age=60`), then revalidated: the answer carries a " +
      "strong `ETag` of its body, and a matching `If-None-Match` gets an empty 304. A list change reaches pages within " +
      "about a minute; the stable URL cannot be cached longer because sites write it into their pages once.",
    request: { params: ProjectParams },
    responses: {
      200: { description: "The blocker.", content: { "text/javascript": { schema: z.string() } } },
      304: { description: "Not modified: the `If-None-Match` ETag is current." },
      404: problem("No such project."),
      503: problem("The client bundles are not built (`npm run build:client`)."),
    },
  }),
  async (c) => {
    const projectId = c.req.valid("param").project_id;
    const [list, code] = await Promise.all([
      readBlockingList(c.var.db, projectId),
      c.env.ASSETS.fetch(new URL("/widget/blocking.js", c.req.url)).catch(() => undefined),
    ]);
    // A project that does not exist answers 404 rather than a blocker that holds nothing.
    if (!list) throw notFound("Project");
    if (!code?.ok) throw new ApiError(503, "widget_not_built", "The widget is not built; run `npm run build:client`.");
    const inlined: BlockingScriptConfig = {
      api: new URL(c.req.url).origin,
      project: projectId,
      // Each entry's vendor resolved as blockingConfigOf does: its own, else the catalogue's for the host.
      entries: list.enabled ? list.entries.map(({ host, purpose, vendor }) => ({ host, purpose, vendor: vendor ?? vendorCovering(vendors, host)?.id ?? null })) : [],
    };
    // `<` escaped: the list is the operator's data, and the script may be inlined into a page by a build step.
    const body = `${await code.text()}\nAssentBlocking.start(${JSON.stringify(inlined).replace(/</g, "\\u003c")});\n`;
    const etag = `"${(await sha256Hex(body)).slice(0, 32)}"`;
    const headers = {
      "Cache-Control": cacheControl,
      ETag: etag,
      "Cross-Origin-Resource-Policy": "cross-origin",
      "Access-Control-Allow-Origin": "*",
      "X-Content-Type-Options": "nosniff",
    };
    const wanted = c.req.header("if-none-match");
    if (wanted?.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)) return c.body(null, 304, headers);
    return c.body(body, 200, { ...headers, "Content-Type": "text/javascript; charset=utf-8" });
  },
);
