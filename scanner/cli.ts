import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { chromium, type Browser } from "playwright-core";
import { ScanReport } from "../worker/scans/report";
import { madeByScan, type ScanVisitor } from "../shared/scan-visitors";
import { scanOrigin } from "./crawl";
import { summarize } from "./summary";

const usage = "usage: npm run scan -- <url> [--pages N] [--project <id>] [--json <file>] [--cdp <ws-endpoint>] [--concurrency N]";

/** Flags as Debian's Chromium runs headless here and in CI: no sandbox (containers), no GPU, no background traffic. */
export const chromiumFlags = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"];

function browserOf(cdp: string | undefined): Promise<Browser> {
  if (cdp) return chromium.connectOverCDP(cdp);
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", headless: true, args: chromiumFlags });
}

/** The project's API on the service `ASSENT_URL` names, with the token `ASSENT_TOKEN` holds. */
function projectApi(projectId: string) {
  const base = process.env.ASSENT_URL ?? "http://localhost:8787";
  const token = process.env.ASSENT_TOKEN;
  if (!token) throw new Error("--project needs ASSENT_TOKEN (an admin or backend bearer token) in the environment");
  const call = (method: string, path: string, init: { body?: unknown; headers?: Record<string, string> } = {}) =>
    fetch(`${base}/privacy/v2/projects/${encodeURIComponent(projectId)}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(init.body === undefined ? {} : { "content-type": "application/json" }), ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
  return { base, call };
}

/** Uploads the report to the project (`POST …/scans`); the route's problem on failure. */
async function upload(report: ScanReport, projectId: string): Promise<void> {
  const { base, call } = projectApi(projectId);
  const res = await call("POST", "/scans", { body: { report } });
  if (!res.ok) throw new Error(`upload to ${base} failed: ${res.status} ${(await res.text()).slice(0, 500)}`);
}

/**
 * Deletes the identities the scan's visits made in the project, as the Worker's scans do: each is read first, and
 * only one `madeByScan` agrees to is deleted, at the revision read. Needs `identities:read` and `identities:write`;
 * without them the visitors stay, and the message says so.
 */
async function removeVisitors(projectId: string, scanStarted: string, visitors: ScanVisitor[]): Promise<string> {
  const { call } = projectApi(projectId);
  const ids = [...new Set(visitors.filter((visitor) => visitor.project === projectId).map((visitor) => visitor.identityId))];
  let removed = 0;
  for (const id of ids) {
    const path = `/identities/${encodeURIComponent(id)}`;
    const read = await call("GET", path);
    if (read.status === 404) continue;
    if (!read.ok) return `${ids.length - removed} visitors the scan made stay in project ${projectId}: reading them answered ${read.status}.`;
    if (!madeByScan(await read.json(), scanStarted)) continue;
    const etag = read.headers.get("etag");
    const deleted = await call("DELETE", path, { headers: etag ? { "if-match": etag } : {} });
    if (deleted.status === 204) removed++;
    else if (deleted.status !== 404 && deleted.status !== 412) {
      return `${ids.length - removed} visitors the scan made stay in project ${projectId}: deleting them answered ${deleted.status}.`;
    }
  }
  return `Removed ${removed} visitors the scan made in project ${projectId}`;
}

export async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { pages: { type: "string" }, project: { type: "string" }, json: { type: "string" }, cdp: { type: "string" }, concurrency: { type: "string" } },
    });
  } catch (error) {
    console.error(`${(error as Error).message}\n${usage}`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [target] = positionals;
  const number = (value: string | undefined, name: string) => {
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive whole number`);
    return n;
  };
  let url: URL;
  try {
    url = new URL(target ?? "");
    if (!/^https?:$/.test(url.protocol)) throw new Error();
  } catch {
    console.error(`scan: give the http(s) URL to start from\n${usage}`);
    return 2;
  }
  try {
    const maxPages = number(values.pages, "pages");
    const concurrency = number(values.concurrency, "concurrency");
    const browser = await browserOf(values.cdp);
    let report: ScanReport;
    const visitors: ScanVisitor[] = [];
    try {
      report = ScanReport.parse(await scanOrigin(browser, url.href, { maxPages, concurrency, onVisitor: (visitor) => visitors.push(visitor) }));
    } finally {
      await browser.close().catch(() => {});
    }
    console.log(summarize(report));
    if (values.json) {
      writeFileSync(values.json, JSON.stringify(report, null, 2) + "\n");
      console.log(`\nReport written to ${values.json}`);
    }
    if (values.project) {
      await upload(report, values.project);
      console.log(`Report uploaded to project ${values.project}`);
      console.log(await removeVisitors(values.project, report.startedAt, visitors));
    }
    return 0;
  } catch (error) {
    console.error(`scan: ${(error as Error).message}`);
    return 1;
  }
}

export { scanOrigin } from "./crawl";
export { summarize } from "./summary";
