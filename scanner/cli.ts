import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { chromium, type Browser } from "playwright-core";
import { ScanReport } from "../worker/scans/report";
import { scanOrigin, type ScanPass } from "./crawl";
import { summarize } from "./summary";

const usage = "usage: npm run scan -- <url> [--pages N] [--project <id>] [--json <file>] [--cdp <ws-endpoint>] [--concurrency N]";

/** Flags as Debian's Chromium runs headless here and in CI: no sandbox (containers), no GPU, no background traffic. */
export const chromiumFlags = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"];

function browserOf(cdp: string | undefined): Promise<Browser> {
  if (cdp) return chromium.connectOverCDP(cdp);
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", headless: true, args: chromiumFlags });
}

/**
 * A POST to the project's API on the service `ASSENT_URL` names, with the token `ASSENT_TOKEN` holds: its JSON, or
 * the route's problem as the error.
 */
async function postToProject(projectId: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const base = process.env.ASSENT_URL ?? "http://localhost:8787";
  const token = process.env.ASSENT_TOKEN;
  if (!token) throw new Error("--project needs ASSENT_TOKEN (an admin or backend bearer token) in the environment");
  const res = await fetch(`${base}/privacy/v2/projects/${encodeURIComponent(projectId)}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`POST ${path} to ${base} failed: ${res.status} ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

/** The project's scan pass, sent on the scan's requests to its service (docs/scanner.md#scanning-a-site-that-runs-assent). */
async function passFor(projectId: string): Promise<{ passId: string; pass: ScanPass }> {
  const { passId, pass, header } = (await postToProject(projectId, "/scan-passes")) as { passId: string; pass: string; header: string };
  return { passId, pass: { service: new URL(process.env.ASSENT_URL ?? "http://localhost:8787").origin, header, value: pass } };
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
    const pass = values.project ? await passFor(values.project) : undefined;
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
    if (values.project) {
      const { visitorsRemoved } = await postToProject(values.project, "/scans", { report, passId: pass?.passId });
      console.log(`Report uploaded to project ${values.project}; ${visitorsRemoved} visitors the scan made there were deleted`);
    }
    return 0;
  } catch (error) {
    console.error(`scan: ${(error as Error).message}`);
    return 1;
  }
}

export { scanOrigin } from "./crawl";
export { summarize } from "./summary";
