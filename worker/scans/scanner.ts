import type { Env } from "../env";
import { loopbackAllowed, webhookUrlProblem } from "../../shared/ssrf";
import { ApiError, badRequest } from "../lib/errors";
import type { ScanPass } from "../../shared/scans/pass";
import type { ScanReport } from "../../shared/scans/report";

/** The command that scans an origin from the operator's machine and stores the report in the project. */
export const scanCommand = (origin: string, projectId = "<project_id>") => `npm run scan -- ${origin} --project ${projectId}`;

/** 503 when this deployment has no scanner's Worker: the scan can still run elsewhere, with the CLI. */
export const browserUnavailable = (origin: string, projectId?: string) =>
  new ApiError(
    503,
    "browser_unavailable",
    `This deployment has no scanner with Browser Rendering (the SCANNER binding), so it cannot scan sites itself. Scan from your machine and upload the report: ${scanCommand(origin, projectId)}`,
    { members: { command: scanCommand(origin, projectId) } },
  );

/**
 * Crawls an origin in the scanner's Worker (scanner/worker, the SCANNER service binding), which holds Browser
 * Rendering and the crawl, so that the API's isolates never load them. Refuses before calling it: without the
 * binding, `browserUnavailable`; an origin the SSRF guard refuses, 400 `origin_not_scannable`. The scanner's own
 * refusals come back as the same problems.
 */
export async function crawlInScanner(env: Env, origin: string, options: { maxPages: number; registeredOrigins: string[]; pass: ScanPass }): Promise<ScanReport> {
  if (!env.SCANNER) throw browserUnavailable(origin);
  // Only public origins, as for webhooks: the crawl must not become a way into private networks.
  const allowLoopback = loopbackAllowed(env);
  const problem = webhookUrlProblem(origin, allowLoopback);
  if (problem) throw badRequest("origin_not_scannable", problem);
  const answer = await env.SCANNER.crawl({ origin, ...options, allowLoopback });
  if ("problem" in answer) throw new ApiError(answer.problem.status, answer.problem.code, answer.problem.detail);
  return answer.report;
}
