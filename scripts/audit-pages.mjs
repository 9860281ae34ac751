// `npm run audit:pages`: Lighthouse (the devDependency, 12.2.3) over the pages a new user meets first: the demo
// (`/`), the portal's sign-in (`/portal`), the API reference (`/docs`) and the demo's privacy center, each with
// Lighthouse's mobile and desktop settings. It builds the client, starts the service
// as `npm start` does (wrangler dev, fresh local D1/KV in a temporary folder, demo seeded) on a free port, and
// audits each page in local Chromium (CHROME_PATH, default /usr/bin/chromium) with Lighthouse's default mobile
// settings (simulated slow 4G, 4x CPU slowdown). Nothing leaves the machine. Prints a Markdown table of the
// scores, the median of `--runs N` runs per page (default 3), and what kept any page from 100; `--json FILE`
// also writes the full results. Slow (a minute or two), so it is not part of `.ci/run`.
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import { newSecretKey, startService } from "./local-service.mjs";
import { seedDemo } from "./seed.mjs";

const { values: options } = parseArgs({
  options: { runs: { type: "string", default: "3" }, json: { type: "string" }, "no-build": { type: "boolean", default: false } },
});
const runs = Math.max(1, Number(options.runs) || 1);
/** Lighthouse's two form factors: its default (a mobile phone, slow 4G, 4x CPU slowdown) and its desktop preset. */
const formFactors = { mobile: undefined, desktop: desktopConfig };
const categories = ["performance", "accessibility", "best-practices", "seo"];

async function startAuditedService() {
  const service = await startService({
    name: "audit",
    build: !options["no-build"],
    vars: { WEBHOOK_SECRETS_KEY: newSecretKey(), LOCAL_DEV: "true" },
  });
  const demo = await seedDemo(service.baseUrl, service.adminToken);
  // The first pages a new user opens: the demo, the portal's sign-in, the API reference and the demo's privacy center.
  return { service, pages: ["/", "/portal", "/docs", `/privacy-center/${demo.projectId}`] };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** The audits of a category that did not score full marks (and count towards it), with what they report. */
const shortfalls = (lhr, category) =>
  lhr.categories[category].auditRefs
    .filter((ref) => ref.weight > 0 && lhr.audits[ref.id].score !== null && lhr.audits[ref.id].score < 1)
    .map((ref) => `${ref.id} (${lhr.audits[ref.id].displayValue || lhr.audits[ref.id].score})`);

const { service, pages } = await startAuditedService();
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? "/usr/bin/chromium",
  chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
});
const results = [];
try {
  for (const [formFactor, config] of Object.entries(formFactors)) for (const page of pages) {
    const reports = [];
    for (let run = 0; run < runs; run++) {
      const { lhr } = await lighthouse(`${service.baseUrl}${page}`, { port: chrome.port, output: "json", logLevel: "error", onlyCategories: categories }, config);
      if (lhr.runtimeError) throw new Error(`${page}: ${lhr.runtimeError.message}`);
      reports.push(lhr);
    }
    const scores = Object.fromEntries(categories.map((category) => [category, median(reports.map((lhr) => Math.round(lhr.categories[category].score * 100)))]));
    const last = reports.at(-1);
    results.push({
      page,
      formFactor,
      scores,
      runs: reports.map((lhr) => Object.fromEntries(categories.map((category) => [category, Math.round(lhr.categories[category].score * 100)]))),
      metrics: Object.fromEntries(
        ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift", "speed-index", "dom-size"].map((id) => [
          id,
          last.audits[id]?.displayValue,
        ]),
      ),
      shortfalls: Object.fromEntries(categories.map((category) => [category, shortfalls(last, category)]).filter(([, list]) => list.length > 0)),
    });
  }
} finally {
  await chrome.kill();
  await service.stop();
}

const lighthouseVersion = (await import("lighthouse/package.json", { with: { type: "json" } })).default.version;
const [load] = (await import("node:os")).loadavg();
console.log(`Lighthouse ${lighthouseVersion}, ${new Date().toISOString().slice(0, 10)}; median of ${runs} run(s) per page; load average ${load.toFixed(1)} at the end.\n`);
console.log(`| Page | Form factor | Performance | Accessibility | Best practices | SEO | FCP | LCP | TBT | CLS | DOM elements |`);
console.log(`|---|---|---|---|---|---|---|---|---|---|---|`);
for (const { page, formFactor, scores, metrics } of results) {
  const m = metrics;
  console.log(
    `| \`${page}\` | ${formFactor} | ${categories.map((c) => scores[c]).join(" | ")} | ${m["first-contentful-paint"]} | ${m["largest-contentful-paint"]} | ` +
      `${m["total-blocking-time"]} | ${m["cumulative-layout-shift"]} | ${m["dom-size"] ?? ""} |`,
  );
}
for (const { page, formFactor, shortfalls: missing, runs: each } of results) {
  if (runs > 1) console.log(`\n${page} (${formFactor}) runs: ${each.map((r) => categories.map((c) => r[c]).join("/")).join(", ")}`);
  for (const [category, list] of Object.entries(missing)) console.log(`${page} (${formFactor}) ${category} short of 100: ${list.join(", ")}`);
}
if (options.json) writeFileSync(options.json, JSON.stringify(results, null, 2) + "\n");
