// Both sides of a crawl refuse before reaching for a browser. The API: no scanner's Worker bound, or an origin the
// SSRF guard rejects. The scanner's Worker: no Browser Rendering binding, or such an origin (it does not take the
// API's word for it); and the guards it hands the crawl: registered origins only, and no navigation to a host the
// SSRF guard rejects.
import { describe, expect, it } from "vitest";
import type { Env } from "../../worker/env";
import { crawlInScanner } from "../../worker/scans/scanner";
import { crawlWithBrowserRendering, workerScanGuards } from "../../scanner/worker/browser-rendering";
import type { ScannerService } from "../../shared/scans/scanner";

const browser = { fetch: () => Promise.reject(new Error("no browser in this test")) } as unknown as Fetcher;
const pass = { service: "https://assent.example", header: "Assent-Scan-Pass", value: "a pass" };
const refusedOrigins = ["http://localhost:8080", "https://127.0.0.1", "https://10.0.0.5", "https://intranet.local"];

/** A scanner's Worker that records what it was asked, answering as `answer` says. */
function scanner(answer: Awaited<ReturnType<ScannerService["crawl"]>>) {
  const asked: Parameters<ScannerService["crawl"]>[0][] = [];
  const binding = { crawl: async (request: (typeof asked)[number]) => (asked.push(request), answer) } as unknown as Env["SCANNER"];
  return { asked, env: { SCANNER: binding } as Env };
}

describe("crawlInScanner (the API's side)", () => {
  it("answers 503 browser_unavailable without the SCANNER binding", async () => {
    await expect(crawlInScanner({} as Env, "https://shop.example", { maxPages: 20, registeredOrigins: [], pass })).rejects.toMatchObject({
      status: 503,
      code: "browser_unavailable",
    });
  });

  it("refuses loopback and private origins, as webhooks do, without asking the scanner", async () => {
    const { asked, env } = scanner({ problem: { status: 503, code: "unexpected", detail: "not asked" } });
    for (const origin of refusedOrigins) {
      await expect(crawlInScanner(env, origin, { maxPages: 1, registeredOrigins: [origin], pass })).rejects.toMatchObject({ status: 400, code: "origin_not_scannable" });
    }
    expect(asked).toEqual([]);
  });

  it("hands the scanner the origin, its limits, the pass and the loopback setting, and takes its problem as its own", async () => {
    const { asked, env } = scanner({ problem: { status: 503, code: "browser_unavailable", detail: "no BROWSER" } });
    await expect(crawlInScanner(env, "https://shop.example", { maxPages: 5, registeredOrigins: ["https://shop.example"], pass })).rejects.toMatchObject({
      status: 503,
      code: "browser_unavailable",
    });
    expect(asked).toEqual([{ origin: "https://shop.example", maxPages: 5, registeredOrigins: ["https://shop.example"], pass, allowLoopback: false }]);
  });
});

describe("crawlWithBrowserRendering (the scanner's Worker)", () => {
  it("answers 503 browser_unavailable without the BROWSER binding", async () => {
    expect(await crawlWithBrowserRendering({}, { origin: "https://shop.example", maxPages: 20, registeredOrigins: [], pass, allowLoopback: false })).toMatchObject({
      problem: { status: 503, code: "browser_unavailable" },
    });
  });

  it("refuses loopback and private origins, as webhooks do", async () => {
    for (const origin of refusedOrigins) {
      expect(await crawlWithBrowserRendering({ BROWSER: browser }, { origin, maxPages: 1, registeredOrigins: [origin], pass, allowLoopback: false })).toMatchObject({
        problem: { status: 400, code: "origin_not_scannable" },
      });
    }
  });

  it("follows only the project's registered public origins, and refuses navigations the SSRF guard refuses", () => {
    const { mayFollow, refuseNavigation } = workerScanGuards(false, ["https://shop.example", "https://www.shop.example"]);
    expect(mayFollow(new URL("https://www.shop.example/about"))).toBe(true);
    expect(mayFollow(new URL("https://blog.shop.example/"))).toBe(false);
    expect(mayFollow(new URL("http://shop.example/"))).toBe(false);
    for (const target of ["http://169.254.169.254/latest/meta-data/", "https://10.0.0.5/admin", "http://localhost:8080/", "https://intranet.local/"]) {
      expect(refuseNavigation(target)).toEqual(expect.any(String));
    }
    expect(refuseNavigation("https://www.shop.example/checkout")).toBeUndefined();
    expect(refuseNavigation("https://pay.provider.example/")).toBeUndefined();
  });
});
