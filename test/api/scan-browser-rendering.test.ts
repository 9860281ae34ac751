// Both sides of a crawl refuse before reaching for a browser. The API: no scanner's Worker bound, or an origin the
// SSRF guard rejects. The scanner's Worker: no Browser Rendering binding, or such an origin (it does not take the
// API's word for it); and the guards it hands the crawl: registered origins only, and no request of the browser to a
// host that resolves inside, nor to the service's own origin beyond a page's doors (scanner/devtools.ts applies it).
import { describe, expect, it } from "vitest";
import type { Env } from "../../worker/env";
import { crawlInScanner } from "../../worker/scans/scanner";
import { crawlWithBrowserRendering, workerScanGuards } from "../../scanner/worker/browser-rendering";
import { dohResolver } from "../../scanner/worker/dns";
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

  /** A stand-in for DNS: names as a scanned page might point them, at public and at inside addresses. */
  const dns: Record<string, string[]> = {
    "shop.example": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
    "www.shop.example": ["93.184.216.34"],
    "pay.provider.example": ["104.16.0.1"],
    "assent.example": ["104.16.0.2"],
    "internal.shop.example": ["10.0.0.7"],
    "metadata.shop.example": ["169.254.169.254"],
    "loopback.shop.example": ["127.0.0.1"],
    "mixed.shop.example": ["93.184.216.34", "192.168.1.1"],
    "v6-inside.shop.example": ["fd00::1"],
    "v6-mapped.shop.example": ["::ffff:10.0.0.1"],
  };
  const resolve = async (host: string) => {
    if (host === "broken-dns.example") throw new Error("resolver down");
    return dns[host] ?? [];
  };
  const { mayFollow, guard } = workerScanGuards({ allowLoopback: false, registeredOrigins: ["https://shop.example", "https://www.shop.example"], pass }, resolve);

  it("follows only the project's registered origins", () => {
    expect(mayFollow(new URL("https://www.shop.example/about"))).toBe(true);
    expect(mayFollow(new URL("https://blog.shop.example/"))).toBe(false);
    expect(mayFollow(new URL("http://shop.example/"))).toBe(false);
  });

  it("refuses any request to a host that is, or resolves to, a private, loopback or link-local address", async () => {
    for (const target of [
      "http://169.254.169.254/latest/meta-data/",
      "https://10.0.0.5/admin",
      "http://127.0.0.1:8787/admin/v1/projects",
      "http://[::1]/",
      "http://localhost:8080/",
      "https://intranet.local/",
      "https://internal.shop.example/pixel.gif",
      "https://metadata.shop.example/latest/meta-data/iam/",
      "https://loopback.shop.example/",
      "https://mixed.shop.example/",
      "https://v6-inside.shop.example/",
      "https://v6-mapped.shop.example/",
      "wss://internal.shop.example/socket",
      "https://nowhere.example/",
      "https://broken-dns.example/",
      "file:///etc/passwd",
    ]) {
      expect(await guard(target), target).toEqual(expect.any(String));
    }
    expect(await guard("https://metadata.shop.example/")).toContain("169.254.169.254");
  });

  it("lets requests to public hosts through, over http too, and what never leaves the browser", async () => {
    for (const target of ["https://www.shop.example/checkout", "http://shop.example/", "https://pay.provider.example/", "data:image/gif;base64,R0lGOD", "about:blank"]) {
      expect(await guard(target), target).toBeUndefined();
    }
  });

  it("lets the page reach the service only through the doors a page running Assent calls", async () => {
    for (const door of ["/widget/v1/assent.js", "/browser/v1/projects/prj_1/bootstrap", "/privacy/v2/projects/prj_1/permissions"]) {
      expect(await guard(`https://assent.example${door}`), door).toBeUndefined();
    }
    for (const inside of ["/admin/v1/projects", "/oauth/token", "/portal/", "/v1/sms", "/privacy-center/prj_1", "/openapi.json"]) {
      expect(await guard(`https://assent.example${inside}`), inside).toEqual(expect.stringContaining("service's own origin"));
    }
  });

  it("resolves each host once per crawl", async () => {
    const asked: string[] = [];
    const once = workerScanGuards({ allowLoopback: false, registeredOrigins: [], pass }, async (host) => (asked.push(host), dns[host] ?? [])).guard;
    await Promise.all([once("https://shop.example/a.png"), once("https://shop.example/b.js"), once("https://shop.example/c")]);
    expect(asked).toEqual(["shop.example"]);
  });
});

describe("dohResolver (the scanner's Worker's DNS)", () => {
  /** A stand-in for DNS over HTTPS in its JSON form. */
  const doh = (answers: Record<string, { Status: number; Answer?: { type: number; data: string }[] }>) =>
    (async (input: string | URL | Request) => {
      const url = new URL(String(input));
      const answer = answers[`${url.searchParams.get("name")} ${url.searchParams.get("type")}`];
      return answer ? Response.json(answer) : new Response("no", { status: 502 });
    }) as typeof fetch;

  it("answers the A and AAAA addresses, past CNAMEs; none for NXDOMAIN; throws on a failure", async () => {
    const resolve = dohResolver(
      doh({
        "cdn.example A": { Status: 0, Answer: [{ type: 5, data: "edge.example." }, { type: 1, data: "10.1.2.3" }] },
        "cdn.example AAAA": { Status: 0, Answer: [{ type: 28, data: "2606:4700::1" }] },
        "gone.example A": { Status: 3 },
        "gone.example AAAA": { Status: 3 },
        "servfail.example A": { Status: 2 },
        "servfail.example AAAA": { Status: 2 },
      }),
    );
    expect(await resolve("cdn.example")).toEqual(["10.1.2.3", "2606:4700::1"]);
    expect(await resolve("gone.example")).toEqual([]);
    await expect(resolve("servfail.example")).rejects.toThrow();
    await expect(resolve("unanswered.example")).rejects.toThrow();
  });
});
