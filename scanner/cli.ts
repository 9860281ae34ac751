import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import createClient from "openapi-fetch";
import { chromium, type Browser } from "playwright-core";
import type { paths } from "../shared/api/operations.ts";
import { ScanReport } from "../shared/scans/report.ts";
import { scanOrigin, type ScanPass } from "./crawl.ts";
import { summarize } from "./summary.ts";

const usage = "usage: npm run scan -- <url> [--pages N] [--project <id>] [--json <file>] [--cdp <ws-endpoint>] [--concurrency N]";

/** Flags as Debian's Chromium runs headless here and in CI: no sandbox (containers), no GPU, no background traffic. */
export const chromiumFlags = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"];

function browserOf(cdp: string | undefined): Promise<Browser> {
  if (cdp) return chromium.connectOverCDP(cdp);
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", headless: true, args: chromiumFlags });
}

/** The project's API on the service `ASSENT_URL` names, through the typed client, with the token `ASSENT_TOKEN` holds. */
function projectApi(projectId: string) {
  const baseUrl = process.env.ASSENT_URL ?? "http://localhost:8787";
  const token = process.env.ASSENT_TOKEN;
  if (!token) throw new Error("--project needs ASSENT_TOKEN (an admin or backend bearer token) in the environment");
  const client = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${token}` } });
  const params = { path: { project_id: projectId } };
  /** An answer's JSON, or the route's problem as the error. */
  const answered = async <T>(what: string, reply: Promise<{ data?: T; error?: unknown; response: Response }>) => {
    const { data, error, response } = await reply;
    if (data === undefined) throw new Error(`${what} at ${baseUrl} failed: ${response.status} ${JSON.stringify(error).slice(0, 500)}`);
    return data;
  };
  return {
    /** The project's scan pass, sent on the scan's requests to the service (docs/scanner.md#scanning-a-site-that-runs-assent). */
    async pass(): Promise<{ passId: string; pass: ScanPass }> {
      const { passId, pass, header } = await answered("POST …/scan-passes", client.POST("/privacy/v2/projects/{project_id}/scan-passes", { params }));
      return { passId, pass: { service: new URL(baseUrl).origin, header, value: pass } };
    },
    /** Stores the report, deleting the visitors made under the pass; how many went. */
    async upload(report: ScanReport, passId?: string): Promise<number> {
      const body = { report, passId };
      const stored = await answered("POST …/scans", client.POST("/privacy/v2/projects/{project_id}/scans", { params, body }));
      return "visitorsRemoved" in stored ? stored.visitorsRemoved : 0;
    },
  };
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
    const service = values.project ? projectApi(values.project) : undefined;
    const pass = await service?.pass();
    const browser = await browserOf(values.cdp);
    let report: ScanReport;
    try {
      report = ScanReport.parse(await scanOrigin(browser, url.href, { maxPages, concurrency, pass: pass?.pass }));
    } finally {
      await browser.close().catch(() => {});
    }
    console.log(summarize(report));
    if (values.json) {
      writeFileSync(values.json, JSON.stringify(report, null, 2) + "\n");
      console.log(`\nReport written to ${values.json}`);
    }
    if (service) {
      const visitorsRemoved = await service.upload(report, pass?.passId);
      console.log(`Report uploaded to project ${values.project}; ${visitorsRemoved} visitors the scan made there were deleted`);
    }
    return 0;
  } catch (error) {
    console.error(`scan: ${(error as Error).message}`);
    return 1;
  }
}

export { scanOrigin } from "./crawl.ts";
export { summarize } from "./summary.ts";
