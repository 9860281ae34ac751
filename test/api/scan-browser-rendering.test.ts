// The Worker's front-end refuses before reaching for a browser: no binding, or an origin the SSRF guard rejects.
import { describe, expect, it } from "vitest";
import type { Env } from "../../worker/env";
import { crawlWithBrowserRendering } from "../../worker/scans/browser-rendering";

const browser = { fetch: () => Promise.reject(new Error("no browser in this test")) } as unknown as Fetcher;

describe("crawlWithBrowserRendering", () => {
  it("answers 503 browser_unavailable without the BROWSER binding", async () => {
    await expect(crawlWithBrowserRendering({} as Env, "https://shop.example", { maxPages: 20 })).rejects.toMatchObject({
      status: 503,
      code: "browser_unavailable",
    });
  });

  it("refuses loopback and private origins, as webhooks do", async () => {
    for (const origin of ["http://localhost:8080", "https://127.0.0.1", "https://10.0.0.5", "https://intranet.local"]) {
      await expect(crawlWithBrowserRendering({ BROWSER: browser } as Env, origin, { maxPages: 1 })).rejects.toMatchObject({
        status: 400,
        code: "origin_not_scannable",
      });
    }
  });
});
