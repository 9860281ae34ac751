import type { ScanPass } from "./pass";
import type { ScanReport } from "./report";

/**
 * The scanner's Worker (scanner/worker), as the API calls it through its SCANNER service binding: one method, a
 * crawl of one origin, answered with the report or with the problem that kept it from starting. A crawl that fails
 * midway throws, and the API records the error's message as the scan's problem.
 */
export type CrawlRequest = {
  origin: string;
  maxPages: number;
  /** The project's registered origins: the only ones whose pages the crawl follows. */
  registeredOrigins: string[];
  /** The scan's pass, sent on every request to the service (shared/scans/pass.ts). */
  pass: ScanPass;
  /** Whether loopback addresses may be crawled (the API's ALLOW_LOOPBACK_WEBHOOKS, local development only). */
  allowLoopback: boolean;
};

export type CrawlAnswer = { report: ScanReport } | { problem: { status: 400 | 503; code: string; detail: string } };

export interface ScannerService {
  crawl(request: CrawlRequest): Promise<CrawlAnswer>;
}
