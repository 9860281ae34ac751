import { WorkerEntrypoint } from "cloudflare:workers";
import type { CrawlAnswer, CrawlRequest, ScannerService } from "../../shared/scans/scanner";
import { crawlWithBrowserRendering } from "./browser-rendering";

/**
 * The scanner's Worker (docs/scanner.md#the-scanners-worker): Browser Rendering, the crawl and the cookie database,
 * apart from the consent API so that none of it loads in the API's isolates. Its only caller is the API, through a
 * service binding (SCANNER, entrypoint `Scanner`); it has no public route.
 */
export class Scanner extends WorkerEntrypoint<{ BROWSER?: Fetcher }> implements ScannerService {
  crawl(request: CrawlRequest): Promise<CrawlAnswer> {
    return crawlWithBrowserRendering(this.env, request);
  }
}

export default {
  fetch: () => new Response(null, { status: 404 }),
} satisfies ExportedHandler;
