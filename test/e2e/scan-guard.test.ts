// The Worker-run scan's guard (shared/ssrf.ts scanRequestGuard, applied by scanner/devtools.ts guardRequests) in
// Debian's Chromium: a scanned page whose images, scripts' fetches, frames (a cross-site one in its own renderer
// among them), WebSocket and redirects point at 127.0.0.1, at names that resolve to 10.x or 169.254.169.254, and at
// the service's own admin API. The browser maps every *.scan.test name to this machine, so a request the guard let
// through would reach the fixture, which records every request it gets; the guard resolves names through a stand-in
// for DNS, as the scanner's Worker does through DNS over HTTPS.
import { createServer, type IncomingMessage } from "node:http";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scanOrigin } from "../../scanner/crawl";
import { ScanReport } from "../../shared/scans/report";
import { scanRequestGuard } from "../../shared/ssrf";
import { chromiumPath, launchArgs } from "./browser";

/** Where the stand-in DNS points each name: the shop and its frames' site are public; the others are inside. */
const dns: Record<string, string[]> = {
  "shop.scan.test": ["93.184.216.34"],
  "frames.scan.test": ["93.184.216.35"],
  "service.scan.test": ["104.16.0.2"],
  "internal.scan.test": ["10.0.0.7"],
  "metadata.scan.test": ["169.254.169.254"],
};

let browser: Browser;
let port = 0;
const received: string[] = [];
const at = (host: string) => `http://${host}:${port}`;

const server = createServer((req: IncomingMessage, res) => {
  const host = (req.headers.host ?? "").replace(/:\d+$/, "");
  const path = new URL(req.url ?? "/", "http://x").pathname;
  received.push(`${host}${path}`);
  const page = (body: string) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(`<!doctype html><title>t</title>${body}`);
  const moved = (to: string) => res.writeHead(302, { location: to }).end();
  if (host === "shop.scan.test") {
    switch (path) {
      case "/":
        return page(`
          <img src="http://127.0.0.1:${port}/literal.png">
          <img src="${at("internal.scan.test")}/private.png">
          <img src="${at("metadata.scan.test")}/latest/meta-data/">
          <img src="/hop-to-internal.png">
          <img src="${at("service.scan.test")}/widget/ok.png">
          <iframe src="${at("frames.scan.test")}/frame"></iframe>
          <iframe src="/frame-hop"></iframe>
          <iframe src="${at("service.scan.test")}/admin/v1/projects"></iframe>
          <a href="/moved">moved</a>
          <script>
            fetch("${at("metadata.scan.test")}/fetched").catch(() => {});
            fetch("/hop-fetch").catch(() => {});
            try { new WebSocket("ws://internal.scan.test:${port}/socket"); } catch {}
          </script>`);
      case "/hop-to-internal.png":
        return moved(`${at("internal.scan.test")}/redirected.png`);
      case "/hop-fetch":
        return moved(`http://127.0.0.1:${port}/fetch-redirected`);
      case "/frame-hop":
        return moved(`${at("metadata.scan.test")}/frame-navigated`);
      case "/moved":
        return moved(`${at("internal.scan.test")}/admin`);
    }
  }
  if (host === "frames.scan.test" && path === "/frame") {
    return page(`
      <img src="${at("internal.scan.test")}/from-frame.png">
      <img src="/frame-hop.png">
      <script>fetch("http://127.0.0.1:${port}/frame-fetched").catch(() => {});</script>`);
  }
  if (host === "frames.scan.test" && path === "/frame-hop.png") return moved(`${at("metadata.scan.test")}/frame-redirected.png`);
  if (path.endsWith(".png")) return res.writeHead(200, { "content-type": "image/gif" }).end(Buffer.from("R0lGODlhAQABAAAAACw=", "base64"));
  return page(`<p>${host}${path}</p>`);
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
  browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: [...launchArgs, "--host-resolver-rules=MAP *.scan.test 127.0.0.1"] });
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => server.close(resolve));
});

describe("a Worker-run scan's guard, on every request the browser makes", () => {
  it("keeps subresources, frames, fetches, sockets and redirects away from inside addresses and the service's own API", async () => {
    const guard = scanRequestGuard({ allowLoopback: false, service: at("service.scan.test"), resolve: async (host) => dns[host] ?? [] });
    const report = ScanReport.parse(
      await scanOrigin(browser, `${at("shop.scan.test")}/`, {
        maxPages: 2,
        pageTimeoutMs: 30_000,
        settleMs: 1_000,
        guard,
        mayFollow: (url) => url.origin === at("shop.scan.test"),
      }),
    );
    const pages = Object.fromEntries(report.pages.map((p) => [p.url.slice(at("shop.scan.test").length), p.error?.code ?? "ok"]));
    expect(pages).toEqual({ "/": "ok", "/moved": "navigation_refused" });
    // What may be reached was: the test would pass vacuously if the page never loaded its parts.
    expect(received).toEqual(
      expect.arrayContaining(["shop.scan.test/", "shop.scan.test/hop-to-internal.png", "shop.scan.test/hop-fetch", "frames.scan.test/frame", "frames.scan.test/frame-hop.png", "service.scan.test/widget/ok.png"]),
    );
    const inside = received.filter((seen) => /^(127\.0\.0\.1|internal\.scan\.test|metadata\.scan\.test)\//.test(seen) || (seen.startsWith("service.scan.test/") && !seen.startsWith("service.scan.test/widget/")));
    expect(inside).toEqual([]);
  }, 120_000);
});
