import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import createClient from "openapi-fetch";
import { chromium, type Browser } from "playwright-core";
import type { paths } from "../shared/api/operations.ts";
import { ScanReport } from "../shared/scans/report.ts";
import { chromiumFlags, chromiumPath } from "./chromium.ts";
import { defaultLimits, maxPagesCap, scanOrigin, type ScanPass } from "./crawl.ts";
import { summarize } from "./summary.ts";

const usage = `usage: npm run scan -- <url> [--pages N (1-${maxPagesCap})] [--timeout S] [--project <id>] [--json <file>] [--cdp <ws-endpoint>] [--concurrency N]`;

/** Exit codes (docs/scanner.md#exit-codes). */
export const exitCodes = { scanned: 0, couldNotRun: 1, badArguments: 2, incomplete: 3 } as const;

/** The options that take a value, with the whole numbers each accepts. */
const numeric = { pages: [1, maxPagesCap], timeout: [1, 120], concurrency: [1, 16] } as const;
const valueOptions = ["pages", "timeout", "project", "json", "cdp", "concurrency"] as const;

class BadArguments extends Error {}

/**
 * The command line as options: `--pages -1` is read as the value -1 (Node's parser would take it for an option and
 * answer in its own words), so every bad value gets this command's message and exit 2.
 */
function parseCommandLine(argv: string[]) {
  const joined: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (valueOptions.some((name) => arg === `--${name}`) && i + 1 < argv.length) joined.push(`${arg}=${argv[++i]}`);
    else joined.push(arg);
  }
  let parsed;
  try {
    parsed = parseArgs({ args: joined, allowPositionals: true, options: Object.fromEntries(valueOptions.map((name) => [name, { type: "string" as const }])) });
  } catch (error) {
    throw new BadArguments((error as Error).message);
  }
  const { values, positionals } = parsed;
  const numbers = {} as Record<keyof typeof numeric, number | undefined>;
  for (const [name, [least, most]] of Object.entries(numeric) as [keyof typeof numeric, readonly [number, number]][]) {
    const value = values[name];
    if (value === undefined) continue;
    const n = /^\d+$/.test(value) ? Number(value) : NaN;
    if (!Number.isInteger(n) || n < least || n > most) throw new BadArguments(`--${name} takes a whole number from ${least} to ${most}, not "${value}"`);
    numbers[name] = n;
  }
  if (positionals.length !== 1) throw new BadArguments(positionals.length ? `one URL to start from, not ${positionals.length}` : "give the http(s) URL to start from");
  let url: URL;
  try {
    url = new URL(positionals[0]);
  } catch {
    throw new BadArguments(`"${positionals[0]}" is not a URL`);
  }
  if (!/^https?:$/.test(url.protocol)) throw new BadArguments(`the URL must be http or https, not ${url.protocol}`);
  return { url, values, numbers };
}

function browserOf(cdp: string | undefined): Promise<Browser> {
  if (cdp) return chromium.connectOverCDP(cdp);
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: chromiumFlags });
}

/** What `--project` needs, in the words of the CLI's errors and docs/scanner.md#the-cli. */
export const projectTokenNeeded =
  "--project needs ASSENT_TOKEN to hold an access token with the scans:write scope: POST /oauth/token with a backend client of that project " +
  "(grant_type=client_credentials, scope=scans:write). The admin token is for /admin/v1 only; project routes refuse it.";

/** The project's API on the service `ASSENT_URL` names, through the typed client, with the token `ASSENT_TOKEN` holds. */
function projectApi(projectId: string) {
  const baseUrl = process.env.ASSENT_URL ?? "http://localhost:8787";
  const token = process.env.ASSENT_TOKEN;
  if (!token) throw new Error(`${projectTokenNeeded} ASSENT_TOKEN is not set.`);
  const client = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${token}` } });
  const params = { path: { project_id: projectId } };
  /** An answer's JSON, or the route's problem as the error; a refused token says which token is needed. */
  const answered = async <T>(what: string, reply: Promise<{ data?: T; error?: unknown; response: Response }>) => {
    const { data, error, response } = await reply;
    if (data !== undefined) return data;
    const refused = response.status === 401 || response.status === 403 ? `${projectTokenNeeded} ` : "";
    throw new Error(`${refused}${what} at ${baseUrl} failed: ${response.status} ${JSON.stringify(error).slice(0, 500)}`);
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
  let command: ReturnType<typeof parseCommandLine>;
  try {
    command = parseCommandLine(argv);
  } catch (error) {
    console.error(`scan: ${(error as Error).message}\n${usage}`);
    return exitCodes.badArguments;
  }
  const { url, values, numbers } = command;
  try {
    const service = values.project ? projectApi(values.project) : undefined;
    const pass = await service?.pass();
    const browser = await browserOf(values.cdp);
    let report: ScanReport;
    try {
      const pageTimeoutMs = numbers.timeout === undefined ? defaultLimits.pageTimeoutMs : numbers.timeout * 1000;
      report = ScanReport.parse(await scanOrigin(browser, url.href, { maxPages: numbers.pages, concurrency: numbers.concurrency, pageTimeoutMs, pass: pass?.pass }));
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
    const unseen = report.pages.filter((p) => p.scanned === false);
    if (unseen.length === 0) return exitCodes.scanned;
    console.error(`scan: INCOMPLETE: ${unseen.length} of ${report.pages.length} pages could not be scanned as asked; what they set or load is not in the report:`);
    for (const p of unseen) console.error(`  ${p.url}: ${p.error?.code ?? "not scanned"}: ${p.error?.detail ?? ""}`);
    return exitCodes.incomplete;
  } catch (error) {
    console.error(`scan: ${(error as Error).message}`);
    return exitCodes.couldNotRun;
  }
}

export { scanOrigin } from "./crawl.ts";
export { chromiumFlags, chromiumPath } from "./chromium.ts";
export { summarize } from "./summary.ts";
