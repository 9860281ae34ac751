// The vendors' real host names answered by one local TLS server, as an auditor's crawler sees a page: Chromium
// resolves every name below to it (`--host-resolver-rules`) and accepts its self-signed certificate, made here with
// openssl for this run. It records every request by host, and every TLS connection by the name the browser asked
// for (a `preconnect` opens one without a request). Vendor scripts it serves only note on the page that they ran,
// and what of the dataLayer they found then.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TLSSocket } from "node:tls";
import type { Browser } from "playwright-core";
import { chromium } from "playwright-core";
import { chromiumPath, launchArgs } from "./browser";

/** Every vendor host the fixture page names; each answered by the stand-in. */
export const vendorHosts = [
  "www.googletagmanager.com",
  "region1.google-analytics.com",
  "connect.facebook.net",
  "www.facebook.com",
  "static.hotjar.com",
  "script.hotjar.com",
  "www.clarity.ms",
  "snap.licdn.com",
  "px.ads.linkedin.com",
  "analytics.tiktok.com",
  "www.youtube.com",
  "player.vimeo.com",
  "www.google.com",
  "maps.googleapis.com",
  "cdn.tracker.example",
  // Listed nowhere: a page's marker that its calls before had their turn.
  "sentinel.example",
] as const;

export type Hit = { host: string; path: string };

/** The script a vendor file runs: its name in `__ran`, and the dataLayer's consent commands and events it found. */
const script = (name: string) =>
  `(window.__ran = window.__ran || []).push(${JSON.stringify(name)});
(window.__found = window.__found || {})[${JSON.stringify(name)}] = (window.dataLayer || []).map(function (e) {
  return e && typeof e.length === "number" ? Array.prototype.slice.call(e, 0, 2).join(" ") : e && e.event;
});`;

/** What a path answers: a script named after its vendor, a page, or a 1×1 GIF. */
function answer(host: string, path: string): { type: string; body: string } {
  const names: Record<string, string> = {
    "/gtag/js": "gtag.js",
    "/gtm.js": "gtm.js",
    "/en_US/fbevents.js": "fbevents.js",
    "/c/hotjar-1234567.js": "hotjar",
    "/tag/abcdefghij": "clarity",
    "/li.lms-analytics/insight.min.js": "linkedin",
    "/i18n/pixel/events.js": "tiktok",
  };
  const pathname = path.split("?")[0];
  if (names[pathname]) {
    const extra = pathname === "/en_US/fbevents.js" ? "fbq.callMethod = function () { fbq.queue.push(arguments); };" : "";
    return { type: "text/javascript", body: script(names[pathname]) + extra };
  }
  if (pathname.endsWith(".js")) return { type: "text/javascript", body: script(`${host}${pathname}`) };
  if (/\/(embed|video|maps\/embed|ns\.html)/.test(pathname)) return { type: "text/html", body: `<!doctype html><title>${host}</title><p>${host}</p>` };
  return { type: "image/gif", body: "GIF89a\x01\x00\x01\x00\x00\x00\x00;" };
}

export async function vendorStandIn(): Promise<{
  port: number;
  hits: Hit[];
  connections: string[];
  launch(): Promise<Browser>;
  close(): Promise<void>;
}> {
  const folder = mkdtempSync(join(tmpdir(), "assent-standin-"));
  const [key, cert] = [join(folder, "key.pem"), join(folder, "cert.pem")];
  execFileSync("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj", "/CN=vendor stand-in", "-keyout", key, "-out", cert], {
    stdio: "ignore",
  });
  const hits: Hit[] = [];
  const connections: string[] = [];
  const server: Server = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
    const host = (req.headers.host ?? "").replace(/:\d+$/, "");
    hits.push({ host, path: req.url ?? "/" });
    const { type, body } = answer(host, req.url ?? "/");
    res.writeHead(200, { "content-type": type, "cache-control": "no-store", "access-control-allow-origin": "*" }).end(body);
  });
  server.on("secureConnection", (socket: TLSSocket) => connections.push(String((socket as TLSSocket & { servername?: string }).servername ?? "")));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  rmSync(folder, { recursive: true, force: true });
  return {
    port,
    hits,
    connections,
    launch: () =>
      chromium.launch({
        executablePath: chromiumPath,
        headless: true,
        args: [...launchArgs, `--host-resolver-rules=${vendorHosts.map((host) => `MAP ${host} 127.0.0.1:${port}`).join(", ")}`, "--ignore-certificate-errors"],
      }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
