import type { Env } from "../env";
import { ApiError } from "../lib/errors";
import type { ScanReport } from "./report";

/** The command that scans an origin from the operator's machine and stores the report in the project. */
export const scanCommand = (origin: string, projectId = "<project_id>") => `npm run scan -- ${origin} --project ${projectId}`;

/** 503 when this deployment has no Browser Rendering binding: the scan can still run elsewhere, with the CLI. */
export const browserUnavailable = (origin: string, projectId?: string) =>
  new ApiError(
    503,
    "browser_unavailable",
    `This deployment has no Browser Rendering binding (BROWSER), so it cannot scan sites itself. Scan from your machine and upload the report: ${scanCommand(origin, projectId)}`,
    { members: { command: scanCommand(origin, projectId) } },
  );

/**
 * The Worker's front-end of the crawl: a browser from the `BROWSER` binding, driven by the same crawl module as the
 * CLI (scanner/). Without the binding it throws `browserUnavailable`.
 */
export async function crawlWithBrowserRendering(env: Env, origin: string, options: { maxPages: number }): Promise<ScanReport> {
  if (!env.BROWSER) throw browserUnavailable(origin);
  // The crawl module and its Browser Rendering adapter come with the scanner (scan-crawl); until then a queued scan fails with this.
  throw new ApiError(503, "browser_unavailable", `This build has no crawl module to drive Browser Rendering with (up to ${options.maxPages} pages of ${origin}).`, {
    members: { command: scanCommand(origin) },
  });
}
