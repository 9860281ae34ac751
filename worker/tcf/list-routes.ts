import { z } from "@hono/zod-openapi";
import type { Context, TypedResponse } from "hono";
import type { JSONValue } from "hono/utils/types";
import type { AppEnv } from "../env";
import { access } from "../auth/scopes";
import { createRouter, defineRoute } from "../auth/router";
import { notFound } from "../lib/errors";
import { jsonResponse, problems } from "../lib/schemas";
import { gvlLanguages } from "../../shared/tcf/gvl-languages";
import { keptVersion, newestVersion } from "./lists";

/**
 * The lists the service hosts, mounted at `/tcf` (docs/tcf.md#the-hosted-lists): the GVL where IAB's own library
 * looks for it (`GVL.baseUrl` = `{base_url}/tcf/v3/`: `vendor-list.json`, `archives/vendor-list-v{N}.json`,
 * `purposes-{lang}.json`) and Google's ATP list. Public documents, from anywhere: any origin may read them.
 */
export const tcfListRoutes = createRouter();

const tags = ["TCF"];
const aYear = 31_536_000;
/** The newest version changes weekly; an hour's copy in browsers and at the edge is IAB's own library's expectation of freshness. */
const newestSeconds = 3_600;

/** A list's version through the edge cache (Cache API): each version is immutable, so its entry never goes stale. */
async function serve(c: Context<AppEnv>, list: string, asked?: number): Promise<TypedResponse<{ [key: string]: JSONValue }, 200, "json">> {
  const version = asked ?? (await newestVersion(c.env.DB, list));
  if (version === undefined) throw notFound(list === "gvl" ? "Vendor list (the cron has not fetched one yet)" : "List");
  const key = new Request(`${new URL(c.req.url).origin}/__assent-cache/tcf/${list}/${version}`);
  const cache = await caches.open("assent-tcf");
  const hit = await cache.match(key);
  let json = hit ? await hit.text() : undefined;
  if (json === undefined) {
    const kept = await keptVersion(c.env.DB, list, version);
    if (!kept) throw notFound("Version");
    json = kept.json;
    c.executionCtx.waitUntil(cache.put(key, new Response(json, { headers: { "cache-control": `max-age=${aYear}` } })));
  }
  const headers = {
    "content-type": "application/json; charset=utf-8",
    "cache-control": asked === undefined ? `public, max-age=${newestSeconds}` : `public, max-age=${aYear}, immutable`,
    "access-control-allow-origin": "*",
  };
  // The JSON text as kept, byte for byte (no parse and serialise of a megabyte): typed as the JSON it is.
  return c.body(json, 200, headers) as unknown as TypedResponse<{ [key: string]: JSONValue }, 200, "json">;
}

const Document = z.object({}).passthrough().openapi("TcfListDocument", { description: "The list as its publisher defines it (GVL v3; Google's ATP list as JSON)." });
const answers = (what: string) => ({ 200: jsonResponse(Document, what), ...problems });

tcfListRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/v3/vendor-list.json",
    operationId: "getVendorList",
    tags,
    ...access.public,
    summary: "The newest Global Vendor List (v3) the service holds",
    description: "IAB Europe's GVL as last fetched by the cron (weekly, after IAB's Thursday publication). 404 before the first fetch.",
    responses: answers("The GVL."),
  }),
  (c) => serve(c, "gvl"),
);

const ArchiveParams = z.object({
  file: z.string().regex(/^vendor-list-v[1-9]\d{0,8}\.json$/, "vendor-list-v{N}.json").openapi({ example: "vendor-list-v120.json" }),
});

tcfListRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/v3/archives/{file}",
    operationId: "getVendorListVersion",
    tags,
    ...access.public,
    summary: "One version of the Global Vendor List",
    description: "Every version the cron fetched is kept: a TC string's `vendorListVersion` names the one it was made with.",
    request: { params: ArchiveParams },
    responses: answers("That version of the GVL."),
  }),
  (c) => serve(c, "gvl", Number(/\d+/.exec(c.req.valid("param").file)![0])),
);

const languageFiles = new Map<string, string>(gvlLanguages.map((lang) => [`purposes-${lang}.json`, lang]));
const TranslationParams = z.object({
  file: z.string().refine((file) => languageFiles.has(file), "purposes-{lang}.json, lang one of the GVL's languages").openapi({ example: "purposes-fr.json" }),
});

tcfListRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/v3/{file}",
    operationId: "getVendorListTranslation",
    tags,
    ...access.public,
    summary: "The GVL's purposes, features and stacks in one language",
    description: `IAB's translation for the newest GVL. Languages: ${gvlLanguages.join(", ")}.`,
    request: { params: TranslationParams },
    responses: answers("The translation."),
  }),
  (c) => serve(c, `purposes-${languageFiles.get(c.req.valid("param").file)}`),
);

tcfListRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/atp/additional-consent-providers.json",
    operationId: "getAdditionalConsentProviders",
    tags,
    ...access.public,
    summary: "Google's Ad Tech Providers list (Additional Consent)",
    description:
      "Google's ATP list as last fetched, as JSON: `{ version, lastUpdated, providers: [{ id, name, policyUrl, domains }] }`. " +
      "`version` counts the changes the service saw.",
    responses: answers("The providers."),
  }),
  (c) => serve(c, "atp"),
);
