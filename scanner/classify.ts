import { patternCovers } from "../shared/blocking/hosts.ts";
import { vendors } from "../shared/vendors/catalogue.ts";
import type { ConsentType } from "../shared/consent-mode/types.ts";
import type { scanCategories } from "../shared/scans/report.ts";
import database from "./cookie-database.json" with { type: "json" };

/** Categories come from data: the Open Cookie Database (scripts/refresh-cookie-database.mjs generates the module). */
export type Category = (typeof scanCategories)[number];
export type Classification = { category: Category; vendor: string | null };

type Database = {
  name: string;
  revision: string;
  categories: Exclude<Category, "unclassified">[];
  vendors: string[];
  /** name, category index, vendor index, 1 when the name is a prefix (`_ga_` matches `_ga_ABC123`), domains. */
  cookies: [string, number, number, 0 | 1, string][];
  /** A domain the database names, with the category most of its entries have. */
  hosts: [string, number, number][];
};
const db = database as Database;

export const cookieDatabase = { name: db.name, revision: db.revision };

const unclassified: Classification = { category: "unclassified", vendor: null };

type Entry = Classification & { domains: string[] };
const entryOf = ([, c, v, , domains]: Database["cookies"][number]): Entry => ({
  category: db.categories[c],
  vendor: db.vendors[v] ?? null,
  domains: domains ? domains.split(" ") : [],
});

const exact = new Map<string, Entry[]>();
const prefixes: [string, Entry][] = [];
for (const row of db.cookies) {
  if (row[3] === 1) prefixes.push([row[0], entryOf(row)]);
  else exact.set(row[0], [...(exact.get(row[0]) ?? []), entryOf(row)]);
}
// The longest prefix is the most specific (`_hjSessionUser_` before a shorter `_hj`).
prefixes.sort((a, b) => b[0].length - a[0].length);

const under = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

/**
 * A cookie or storage key by name: an exact entry (the one naming the item's domain when several share the name),
 * else the longest wildcard prefix; unknown names are `unclassified`.
 */
export function classifyName(name: string, domain = ""): Classification {
  const host = domain.replace(/^\./, "").toLowerCase();
  const candidates = exact.get(name) ?? prefixes.filter(([prefix]) => name.startsWith(prefix)).map(([, entry]) => entry);
  const entry = candidates.find((e) => e.domains.some((d) => under(host, d))) ?? candidates[0];
  return entry ? { category: entry.category, vendor: entry.vendor } : unclassified;
}

/** The vendor catalogue's hosts (shared/vendors), one home for what a tracker host is and whose. */
const catalogueHosts = vendors.flatMap((vendor) => vendor.hosts.map((pattern): [string, Classification] => [pattern, { category: vendor.purpose, vendor: vendor.name }]));

/**
 * Tracker hosts neither the catalogue nor the database's Domain column names (it lists where cookies live, not
 * every script or pixel host), or names under another vendor's most frequent entry.
 */
const knownHosts: Record<string, Classification> = {
  "googlesyndication.com": { category: "marketing", vendor: "Google AdSense" },
  "static.ads-twitter.com": { category: "marketing", vendor: "Twitter" },
  "fonts.googleapis.com": { category: "functional", vendor: "Google Fonts" },
  "fonts.gstatic.com": { category: "functional", vendor: "Google Fonts" },
};
const knownHostList = Object.entries(knownHosts).sort((a, b) => b[0].length - a[0].length);
const databaseHosts = db.hosts
  .map(([domain, c, v]): [string, Classification] => [domain, { category: db.categories[c], vendor: db.vendors[v] ?? null }])
  .sort((a, b) => b[0].length - a[0].length);

/** A requested host: the vendor catalogue, the known-tracker table, then the database's domains (the most specific suffix wins). */
export function classifyHost(host: string): Classification {
  const name = host.toLowerCase();
  const match =
    catalogueHosts.find(([pattern]) => patternCovers(pattern, name)) ??
    knownHostList.find(([d]) => under(name, d)) ??
    databaseHosts.find(([d]) => under(name, d));
  return match ? match[1] : unclassified;
}

/** Essential categories: allowed before a decision and after Reject all. */
export const essential = (category: Category) => category === "necessary" || category === "security";

/** What each non-essential category becomes as an Assent purpose, with the Consent Mode types it stands for. */
export const purposeOf: Record<Exclude<Category, "necessary" | "security">, { name: string; consentModeTypes: ConsentType[] }> = {
  analytics: { name: "Analytics", consentModeTypes: ["analytics_storage"] },
  marketing: { name: "Marketing", consentModeTypes: ["ad_storage", "ad_user_data", "ad_personalization"] },
  functional: { name: "Functional", consentModeTypes: ["functionality_storage"] },
  personalization: { name: "Personalization", consentModeTypes: ["personalization_storage"] },
  unclassified: { name: "Unclassified", consentModeTypes: [] },
};
