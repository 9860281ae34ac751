// The Worker's front-end refuses before reaching for a browser: no binding, or an origin the SSRF guard rejects; and
// the guards it hands the crawl: registered origins only, and no navigation to a host the SSRF guard rejects.
import { describe, expect, it } from "vitest";
import type { Env } from "../../worker/env";
import { crawlWithBrowserRendering, workerScanGuards } from "../../worker/scans/browser-rendering";

const browser = { fetch: () => Promise.reject(new Error("no browser in this test")) } as unknown as Fetcher;
const pass = { service: "https://assent.example", header: "Assent-Scan-Pass", value: "a pass" };

describe("crawlWithBrowserRendering", () => {
  it("answers 503 browser_unavailable without the BROWSER binding", async () => {
    await expect(crawlWithBrowserRendering({} as Env, "https://shop.example", { maxPages: 20, registeredOrigins: [], pass })).rejects.toMatchObject({
      status: 503,
      code: "browser_unavailable",
    });
  });

  it("refuses loopback and private origins, as webhooks do", async () => {
    for (const origin of ["http://localhost:8080", "https://127.0.0.1", "https://10.0.0.5", "https://intranet.local"]) {
      await expect(crawlWithBrowserRendering({ BROWSER: browser } as Env, origin, { maxPages: 1, registeredOrigins: [origin], pass })).rejects.toMatchObject({
        status: 400,
        code: "origin_not_scannable",
      });
    }
  });

  it("follows only the project's registered public origins, and refuses navigations the SSRF guard refuses", () => {
    const { mayFollow, refuseNavigation } = workerScanGuards({} as Env, ["https://shop.example", "https://www.shop.example"]);
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
