import { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { access } from "../auth/scopes";
import { createRouter, defineRoute } from "../auth/router";
import { getDb } from "../lib/db";
import { notFound } from "../lib/errors";
import { ProjectParams } from "../lib/params";
import { jsonResponse, problems } from "../lib/schemas";
import { projects } from "../projects/table";
import type { TcfSettings } from "./settings";
import { gvlLanguages } from "../../shared/tcf/gvl-languages";
import { keptVersion, newestVersion, type AtpList, type VendorList } from "./lists";

/**
 * A TCF project's own vendor list, mounted at `/tcf` (docs/tcf.md#a-projects-vendor-list): the newest GVL with only
 * the project's vendors, in one of the GVL's languages. What the widget's TCF layers show and the TC string is
 * written with: tens of kilobytes instead of the whole GVL's megabyte.
 */
export const tcfProjectListRoutes = createRouter();

/** The declarations a translation replaces (GVL v3). */
const declarations = ["purposes", "specialPurposes", "features", "specialFeatures", "stacks", "dataCategories"] as const;
const cacheSeconds = 3_600;

/**
 * What the widget's TCF chunk writes the strings with, beside the vendors it shows (docs/tcf.md#loading): here rather
 * than in the bootstrap, which every page of every project reads. The publisher's country is the project's
 * jurisdiction's country (`US-CA` → `US`), else the TC string's "unknown", `AA`. The AC providers are those the
 * hosted ATP list still has, the ones the dialog lists and the AC string discloses.
 */
function pageSettings({ cmpId, cmpVersion, vendors, publisherRestrictions, publisherPurposes }: TcfSettings, jurisdiction: string | null, acProviders: number[]) {
  const publisherCountryCode = /^[A-Z]{2}\b/.exec(jurisdiction ?? "")?.[0] ?? "AA";
  return { cmpId, cmpVersion, vendors, publisherRestrictions, publisherPurposes, acProviders, publisherCountryCode };
}

/** The project's Ad Tech Providers as the dialog names them (docs/tcf.md#what-each-layer-shows-and-why), by id, from the newest ATP list. */
async function acProvidersOf(d1: D1Database, ids: number[]) {
  const atp = ids.length ? await keptVersion(d1, "atp") : undefined;
  const providers = atp ? (JSON.parse(atp.json) as AtpList).providers : [];
  return Object.fromEntries(providers.filter((p) => ids.includes(p.id)).map(({ id, name, policyUrl }) => [String(id), { id, name, policyUrl }]));
}

tcfProjectListRoutes.openapi(
  defineRoute({
    method: "get",
    path: "/v3/projects/{project_id}/vendor-list.json",
    operationId: "getProjectVendorList",
    tags: ["TCF"],
    ...access.public,
    summary: "A TCF project's vendor list: the newest GVL with the project's vendors only",
    description:
      "Its purposes, features, stacks and data categories in `lang` (one of the GVL's languages; English without it), from " +
      "IAB's translation. 404 when the project does not have TCF on. Public: the widget reads it on the publisher's pages. Beside the " +
      "GVL's fields, `settings`: what the widget writes the TC and AC strings with (`cmpId`, `cmpVersion`, `vendors`, `publisherRestrictions`, " +
      "`publisherPurposes`, `acProviders`: those the hosted ATP list still has, and `publisherCountryCode` from the project's jurisdiction, `AA` when it names no country); " +
      "`acProviders` beside them names each of those providers (`id`, `name`, `policyUrl` from the ATP list) for the dialog.",
    request: {
      params: ProjectParams,
      query: z.object({ lang: z.enum(gvlLanguages).optional().openapi({ description: "A language of the GVL (IAB's file name: `pt-br`, `sr-cyrl`)." }) }),
    },
    responses: { 200: jsonResponse(z.object({}).passthrough().openapi("ProjectVendorList"), "The GVL v3 document, trimmed."), ...problems },
  }),
  async (c) => {
    const projectId = c.req.valid("param").project_id;
    const lang = c.req.valid("query").lang;
    const [row] = await getDb(c.var.db).select({ tcf: projects.tcf, version: projects.configVersion, jurisdiction: projects.jurisdiction }).from(projects).where(eq(projects.id, projectId)).limit(1);
    const [gvlVersion, atpVersion] = await Promise.all([newestVersion(c.env.DB, "gvl"), newestVersion(c.env.DB, "atp")]);
    if (!row?.tcf?.enabled || gvlVersion === undefined) throw notFound("TCF project");
    // Keyed by what it is made of: the project's settings (its configuration version), the GVL's and the ATP list's versions.
    const key = new Request(`${new URL(c.req.url).origin}/__assent-cache/tcf/project/${encodeURIComponent(projectId)}/${row.version}/${gvlVersion}/${atpVersion ?? 0}/${lang ?? "en"}`);
    const cache = await caches.open("assent-tcf");
    const hit = await cache.match(key);
    let list: object;
    if (hit) list = await hit.json<object>();
    else {
      const gvl = JSON.parse((await keptVersion(c.env.DB, "gvl", gvlVersion))!.json) as VendorList;
      const translation = lang ? await keptVersion(c.env.DB, `purposes-${lang}`, gvlVersion) : undefined;
      const translated = translation ? (JSON.parse(translation.json) as Partial<VendorList>) : {};
      const acProviders = await acProvidersOf(c.env.DB, row.tcf.acProviders);
      list = {
        ...gvl,
        ...Object.fromEntries(declarations.flatMap((name) => (translated[name] ? [[name, translated[name]]] : []))),
        // The language the declarations are in: English where IAB had no translation for this version yet.
        language: translation ? lang : "en",
        vendors: Object.fromEntries(row.tcf.vendors.flatMap((id) => (gvl.vendors[String(id)] ? [[String(id), gvl.vendors[String(id)]]] : []))),
        acProviders,
        settings: pageSettings(row.tcf, row.jurisdiction, row.tcf.acProviders.filter((id) => acProviders[String(id)])),
      };
      c.executionCtx.waitUntil(cache.put(key, Response.json(list, { headers: { "cache-control": `max-age=${cacheSeconds}` } })));
    }
    return c.json(list as Record<string, never>, 200, { "cache-control": `public, max-age=${cacheSeconds}`, "access-control-allow-origin": "*" });
  },
);
