import { patternCovers } from "../shared/blocking/hosts.ts";
import { vendors } from "../shared/vendors/catalogue.ts";
import type { scanCategories } from "../shared/scans/report.ts";
import database from "./cookie-database.json" with { type: "json" };

// What a category proposes is the report's contract (shared/scans/proposal.ts); the tests read it from here too.
export { essential, purposeOf } from "../shared/scans/proposal.ts";

/** Categories come from data: the vendor catalogue, then the Open Cookie Database (scripts/refresh-cookie-database.mjs generates the module). */
export type Category = (typeof scanCategories)[number];
/** A category, whose it is, and what said so (`vendor catalogue: Hotjar`, `Open Cookie Database: Functional`), null when nothing did. */
export type Classification = { category: Category; vendor: string | null; source: string | null };

/** The database's own categories, as they are published. */
type DatabaseCategory = "Functional" | "Necessary" | "Personalization" | "Analytics" | "Marketing" | "Security";

/**
 * The database's categories as its README defines them: "Functional (also known as technical, essential or strictly
 * necessary)", so Functional is essential; "Personalization (also known as preferences)" needs consent. The
 * scanner's `functional` (Consent Mode's functionality_storage) comes only from the vendor catalogue.
 */
export const categoryMapping: Record<DatabaseCategory, Exclude<Category, "unclassified" | "functional">> = {
  Functional: "necessary",
  Necessary: "necessary",
  Security: "security",
  Analytics: "analytics",
  Marketing: "marketing",
  Personalization: "personalization",
};

type Database = {
  name: string;
  revision: string;
  categories: DatabaseCategory[];
  vendors: string[];
  /** name, category index, vendor index, 1 when the name is a prefix (`_ga_` matches `_ga_ABC123`), domains. */
  cookies: [string, number, number, 0 | 1, string][];
  /** A domain the database names, with the category most of its entries have. */
  hosts: [string, number, number][];
};
const db = database as Database;

export const cookieDatabase = { name: db.name, revision: db.revision };

const unclassified: Classification = { category: "unclassified", vendor: null, source: null };

/** A database row's classification: its category mapped, its platform as vendor. */
const fromDatabase = (c: number, v: number): Classification => ({
  category: categoryMapping[db.categories[c]],
  vendor: db.vendors[v] || null,
  source: `${db.name}: ${db.categories[c]}`,
});

type Entry = Classification & { domains: string[] };
const entryOf = ([, c, v, , domains]: Database["cookies"][number]): Entry => ({ ...fromDatabase(c, v), domains: domains ? domains.split(" ") : [] });

const exact = new Map<string, Entry[]>();
const prefixes: [string, Entry][] = [];
for (const row of db.cookies) {
  if (row[3] === 1) prefixes.push([row[0], entryOf(row)]);
  else exact.set(row[0], [...(exact.get(row[0]) ?? []), entryOf(row)]);
}
// The longest prefix is the most specific (`_hjSessionUser_` before a shorter `_hj`).
prefixes.sort((a, b) => b[0].length - a[0].length);

const under = (host: string, domain: string) => host === domain || host.endsWith(`.${domain}`);

/** The vendor catalogue (shared/vendors): one home for which tracker a host or cookie is, and what it is for. */
const fromCatalogue = (vendor: (typeof vendors)[number]): Classification => ({ category: vendor.purpose, vendor: vendor.name, source: `vendor catalogue: ${vendor.name}` });
const catalogueHosts = vendors.flatMap((vendor) => vendor.hosts.map((pattern): [string, Classification] => [pattern, fromCatalogue(vendor)]));
/** The catalogue's cookie names; a trailing `*` is a prefix. */
const catalogueCookies = vendors.flatMap((vendor) => vendor.cookies.map((pattern): [string, Classification] => [pattern, fromCatalogue(vendor)]));
const namedBy = (pattern: string, name: string) => (pattern.endsWith("*") ? name.startsWith(pattern.slice(0, -1)) : pattern === name);
/** A cookie on `hotjar.com` reaches every subdomain, so `*.hotjar.com` covers it. */
const cookieDomainCovered = (pattern: string, domain: string) => patternCovers(pattern, domain) || patternCovers(pattern, `x.${domain}`);

/**
 * A cookie or storage key by name. The vendor catalogue first: a name it lists, else a domain under one of its
 * vendors' hosts (a third party's cookie). Then the database: an exact entry (the one naming the item's domain when
 * several share the name), else the longest wildcard prefix. Unknown names are `unclassified`.
 */
export function classifyName(name: string, domain = ""): Classification {
  const host = domain.replace(/^\./, "").toLowerCase();
  const catalogued = catalogueCookies.find(([pattern]) => namedBy(pattern, name)) ?? (host ? catalogueHosts.find(([pattern]) => cookieDomainCovered(pattern, host)) : undefined);
  if (catalogued) return catalogued[1];
  const candidates = exact.get(name) ?? prefixes.filter(([prefix]) => name.startsWith(prefix)).map(([, entry]) => entry);
  const entry = candidates.find((e) => e.domains.some((d) => under(host, d))) ?? candidates[0];
  return entry ? { category: entry.category, vendor: entry.vendor, source: entry.source } : unclassified;
}

/**
 * Tracker hosts neither the catalogue nor the database's Domain column names (it lists where cookies live, not
 * every script or pixel host), or names under another vendor's most frequent entry.
 */
const knownHost = (category: Category, vendor: string): Classification => ({ category, vendor, source: "the scanner's tracker hosts" });
const knownHosts: Record<string, Classification> = {
  "googlesyndication.com": knownHost("marketing", "Google AdSense"),
  "static.ads-twitter.com": knownHost("marketing", "Twitter"),
  "fonts.googleapis.com": knownHost("functional", "Google Fonts"),
  "fonts.gstatic.com": knownHost("functional", "Google Fonts"),
};
const knownHostList = Object.entries(knownHosts).sort((a, b) => b[0].length - a[0].length);
const databaseHosts = db.hosts
  .map(([domain, c, v]): [string, Classification] => [domain, fromDatabase(c, v)])
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

