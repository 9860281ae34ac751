// Refreshes the vendored Open Cookie Database (data/open-cookie-database/) from GitHub and regenerates the compact
// module the scanner reads (scanner/cookie-database.json), so no scan parses the 2,000-row CSV.
//   node scripts/refresh-cookie-database.mjs            download the newest CSV and LICENSE, then regenerate
//   node scripts/refresh-cookie-database.mjs --offline  regenerate from the vendored CSV only
// docs/scanner.md#the-cookie-database
import { readFileSync, writeFileSync } from "node:fs";
import { parseCsv } from "../shared/csv.mjs";

const repo = "jkwakman/Open-Cookie-Database";
const branch = "master";
const folder = "data/open-cookie-database";
const csvPath = `${folder}/open-cookie-database.csv`;
const generated = "scanner/cookie-database.json";
/** The database's categories as published; the scanner maps them to its own (`categoryMapping` in scanner/classify.ts). */
const categories = ["Functional", "Necessary", "Personalization", "Analytics", "Marketing", "Security"];

async function download(url) {
  let res;
  try {
    res = await fetch(url, { headers: { "user-agent": "assent-refresh-cookie-database" }, signal: AbortSignal.timeout(30_000) });
  } catch (error) {
    throw new Error(`could not reach ${url} (${error.cause?.code ?? error.message}). The refresh needs internet access; ` +
      "the vendored copy is unchanged. Run with --offline to regenerate the scanner's module from it.");
  }
  if (!res.ok) throw new Error(`${url} answered ${res.status}; the vendored copy is unchanged.`);
  return res;
}

/** "facebook.com (3rd party)", ".bing.com (3rd party) or .microsoft.com (3rd party)" → bare lower-case domains. */
function domainsOf(column) {
  return column
    .replace(/\(3rd party\)/gi, " ")
    .split(/\s+or\s+|[\s,;]+/i)
    .map((d) => d.trim().toLowerCase().replace(/^\*?\./, ""))
    .filter((d) => /^[a-z0-9.-]+\.[a-z]{2,}$/.test(d));
}

function generate(revision) {
  const [header, ...rows] = parseCsv(readFileSync(csvPath, "utf8"));
  const col = (name) => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`${csvPath}: no column "${name}" (the database changed its format)`);
    return i;
  };
  const [platform, category, name, domain, wildcard] = ["Platform", "Category", "Cookie / Data Key name", "Domain", "Wildcard match"].map(col);
  const vendors = [];
  const vendorIndex = (v) => (vendors.includes(v) ? vendors.indexOf(v) : vendors.push(v) - 1);
  const cookies = [];
  const byDomain = new Map();
  for (const row of rows) {
    const c = categories.indexOf(row[category].trim());
    if (c < 0 || !row[name].trim()) continue;
    const v = vendorIndex(row[platform].trim());
    const domains = domainsOf(row[domain]);
    cookies.push([row[name].trim(), c, v, row[wildcard].trim() === "1" ? 1 : 0, domains.join(" ")]);
    for (const d of domains) {
      const counts = byDomain.get(d) ?? new Map();
      const key = `${c}:${v}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      byDomain.set(d, counts);
    }
  }
  // A domain's category is the one most of its entries have (ties: the first listed).
  const hosts = [...byDomain].map(([d, counts]) => {
    const [best] = [...counts].sort((a, b) => b[1] - a[1])[0];
    const [c, v] = best.split(":").map(Number);
    return [d, c, v];
  });
  const module = { name: "Open Cookie Database", revision, categories, vendors, cookies, hosts };
  writeFileSync(generated, JSON.stringify(module) + "\n");
  console.log(`${generated}: ${cookies.length} entries, ${hosts.length} domains, revision ${revision}`);
}

const readmePath = `${folder}/README.md`;
const revisionOf = () => /^Revision: `([0-9a-f]+)`/m.exec(readFileSync(readmePath, "utf8"))?.[1] ?? "unknown";

try {
  if (process.argv.includes("--offline")) {
    generate(revisionOf());
  } else {
    const commit = await (await download(`https://api.github.com/repos/${repo}/commits/${branch}`)).json();
    const revision = commit.sha.slice(0, 7);
    const raw = `https://raw.githubusercontent.com/${repo}/${commit.sha}`;
    const csv = await (await download(`${raw}/open-cookie-database.csv`)).text();
    const license = await (await download(`${raw}/LICENSE`)).text();
    writeFileSync(csvPath, csv);
    writeFileSync(`${folder}/LICENSE`, license);
    writeFileSync(readmePath, readFileSync(readmePath, "utf8").replace(/^Revision: `[0-9a-f]+`.*$/m, `Revision: \`${revision}\` (${commit.commit.committer.date}).`));
    generate(revision);
  }
} catch (error) {
  console.error(`refresh-cookie-database: ${error.message}`);
  process.exit(1);
}
