import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import { parseCsv } from "../../shared/csv.mjs";
import type { Env } from "../env";
import { getDb } from "../lib/db";
import { tcfLists } from "./table";

/**
 * The lists the service hosts for TCF and how each is checked before it is kept (docs/tcf.md#the-hosted-lists).
 * A document that fails its check is never stored: the last good version keeps being served.
 */

/** IAB Europe's publication of the GVL v3 and its translations (TCF Policies, Appendix B; the Tech Lab's GVL spec). */
export const defaultGvlBaseUrl = "https://vendor-list.consensu.org/v3/";
/** Google's list of Ad Tech Providers not registered with IAB (Additional Consent Mode technical specification). */
export const defaultAtpUrl = "https://storage.googleapis.com/tcfac/additional-consent-providers.csv";

const id = z.number().int().positive();
const ids = z.array(id);
/** An IntMap of the GVL: keys are the items' ids. */
const intMap = <T extends z.ZodTypeAny>(item: T) =>
  z.record(z.string().regex(/^[1-9]\d*$/), item).superRefine((map, ctx) => {
    for (const [key, value] of Object.entries(map)) {
      if ((value as { id: number }).id !== Number(key)) ctx.addIssue({ code: "custom", path: [key, "id"], message: `the item under ${key} has another id` });
    }
  });
const named = z.object({ id, name: z.string().min(1) }).passthrough();
const described = named.extend({ description: z.string() }).passthrough();

/** The declarations a GVL and each of its translations carry (GVL v3: purposes, special purposes, features, special features, stacks, data categories). */
const declarations = {
  purposes: intMap(described),
  specialPurposes: intMap(described),
  features: intMap(described),
  specialFeatures: intMap(described),
  stacks: intMap(described.extend({ purposes: ids, specialFeatures: ids }).passthrough()),
  dataCategories: intMap(named).optional(),
};

export const GvlVendor = named
  .extend({
    purposes: ids,
    legIntPurposes: ids,
    flexiblePurposes: ids,
    specialPurposes: ids,
    features: ids,
    specialFeatures: ids,
    cookieMaxAgeSeconds: z.number().nullable().optional(),
    usesCookies: z.boolean().optional(),
    usesNonCookieAccess: z.boolean().optional(),
    deletedDate: z.string().optional(),
    dataRetention: z.object({ stdRetention: z.number().optional(), purposes: z.record(z.string(), z.number()), specialPurposes: z.record(z.string(), z.number()) }).passthrough().optional(),
    urls: z.array(z.object({ langId: z.string(), privacy: z.string(), legIntClaim: z.string().optional() }).passthrough()).optional(),
    dataDeclaration: ids.optional(),
  })
  .passthrough();
export type GvlVendor = z.infer<typeof GvlVendor>;

/** A Global Vendor List, v3 of the GVL specification, as IAB publishes it. */
export const VendorList = z
  .object({
    gvlSpecificationVersion: z.literal(3),
    vendorListVersion: id,
    tcfPolicyVersion: id,
    lastUpdated: z.string().refine((s) => !Number.isNaN(Date.parse(s)), "not a date"),
    ...declarations,
    vendors: intMap(GvlVendor),
  })
  .passthrough();
export type VendorList = z.infer<typeof VendorList>;

/** One language's translation of the GVL's declarations (`purposes-{lang}.json`). */
export const PurposesTranslation = z.object({ language: z.string().optional(), ...declarations }).passthrough();

/** Google's Ad Tech Providers as hosted here: the CSV's rows as JSON, numbered by the service as the list changes. */
export const AtpProvider = z.object({ id, name: z.string().min(1), policyUrl: z.string(), domains: z.array(z.string()) });
export type AtpProvider = z.infer<typeof AtpProvider>;
export type AtpList = { version: number; lastUpdated: string; providers: AtpProvider[] };

/** Google's CSV (`provider_id,provider_name,policy_url,domains`, domains space-separated) as providers; throws on anything else. */
export function parseAtpCsv(text: string): AtpProvider[] {
  const [header, ...rows] = parseCsv(text);
  const columns = (header ?? []).map((h) => h.trim().toLowerCase());
  const at = (name: string) => {
    const i = columns.indexOf(name);
    if (i < 0) throw new Error(`the ATP list has no ${name} column`);
    return i;
  };
  const [idAt, nameAt, policyAt, domainsAt] = [at("provider_id"), at("provider_name"), at("policy_url"), at("domains")];
  if (rows.length === 0) throw new Error("the ATP list has no providers");
  return rows.map((row, n) => {
    const parsed = AtpProvider.safeParse({
      id: Number(row[idAt]),
      name: row[nameAt]?.trim(),
      policyUrl: row[policyAt]?.trim() ?? "",
      domains: (row[domainsAt] ?? "").split(/\s+/).filter(Boolean),
    });
    if (!parsed.success) throw new Error(`the ATP list's line ${n + 2} is not a provider: ${parsed.error.issues[0]?.message}`);
    return parsed.data;
  });
}

export const gvlBaseUrl = (env: Env) => {
  const base = env.TCF_GVL_BASE_URL?.trim() || defaultGvlBaseUrl;
  return base.endsWith("/") ? base : `${base}/`;
};
export const atpUrl = (env: Env) => env.TCF_ATP_URL?.trim() || defaultAtpUrl;

/** A list's JSON as stored (gzip). */
export const compressed = async (text: string) =>
  Buffer.from(await new Response(new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer());
const gunzip = (body: ArrayBuffer | Uint8Array) =>
  new Response(new Blob([body]).stream().pipeThrough(new DecompressionStream("gzip"))).text();

/**
 * The statement keeping one version of a list, its body `compressed` (a version already kept stays as it was, unless
 * `replace`). Not awaited here: a Drizzle statement runs when awaited, and this one goes into the caller's batch.
 */
export function keepVersion(d1: D1Database, row: typeof tcfLists.$inferInsert, replace = false) {
  const insert = getDb(d1).insert(tcfLists).values(row);
  return replace ? insert.onConflictDoUpdate({ target: [tcfLists.list, tcfLists.version], set: { body: row.body, fetched: row.fetched } }) : insert.onConflictDoNothing();
}

/** The newest version of a list kept, or the one asked for: its number and JSON text; undefined when there is none. */
export async function keptVersion(d1: D1Database, list: string, version?: number): Promise<{ version: number; json: string } | undefined> {
  const [row] = await getDb(d1)
    .select({ version: tcfLists.version, body: tcfLists.body })
    .from(tcfLists)
    .where(version === undefined ? eq(tcfLists.list, list) : and(eq(tcfLists.list, list), eq(tcfLists.version, version)))
    .orderBy(desc(tcfLists.version))
    .limit(1);
  return row ? { version: row.version, json: await gunzip(row.body) } : undefined;
}

/** The newest version number of a list kept (an index seek, no body read). */
export async function newestVersion(d1: D1Database, list: string): Promise<number | undefined> {
  const [row] = await getDb(d1).select({ version: tcfLists.version }).from(tcfLists).where(eq(tcfLists.list, list)).orderBy(desc(tcfLists.version)).limit(1);
  return row?.version;
}

/** The newest GVL kept, parsed; undefined before the first refresh. */
export async function latestGvl(d1: D1Database): Promise<VendorList | undefined> {
  const kept = await keptVersion(d1, "gvl");
  return kept ? (JSON.parse(kept.json) as VendorList) : undefined;
}
