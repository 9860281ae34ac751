// @assent/edge in workerd: a page's HTML gated by the project's list as the service answers it at blocking.json,
// through the runtime's own HTMLRewriter. The page in Chromium is test/e2e/blocking-edge.test.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { gate, gateHtml, type PageBlocking } from "../../packages/edge/src/index";
import { configuredTenant } from "./configuration-fixture";
import { admin, call, ok, origin } from "./helpers";

let blocking: PageBlocking;
let projectId: string;

beforeAll(async () => {
  ({ projectId } = await configuredTenant());
  ok(
    await admin("PUT", `/projects/${projectId}/blocking`, {
      enabled: true,
      entries: [
        { host: "www.googletagmanager.com", purpose: "analytics", source: "catalogue", vendor: "google-tag-manager" },
        { host: "connect.facebook.net", purpose: "marketing", source: "catalogue", vendor: "meta-pixel" },
        { host: "*.clarity.ms", purpose: "analytics", source: "catalogue", vendor: "microsoft-clarity" },
        { host: "www.youtube.com", purpose: "marketing", source: "catalogue", vendor: "youtube" },
        { host: "pixel.partner.example", purpose: "marketing", source: "manual" },
        { host: "*.partner.example", purpose: "analytics", source: "manual" },
      ],
    }),
  );
  blocking = ok(await call("GET", `/widget/v1/projects/${projectId}/blocking.json`));
});

const pageUrl = "https://shop.example/products/1";
const html = (body: string, headers: Record<string, string> = {}) =>
  new Response(body, { headers: { "content-type": "text/html; charset=utf-8", "content-length": String(body.length), etag: '"v1"', "x-site": "kept", ...headers } });
const gated = (body: string, options: { blocker?: boolean; list?: PageBlocking } = {}) =>
  gateHtml(html(body), options.list ?? blocking, { pageUrl, blocker: options.blocker ?? false }).text();
const blockerTag = () => `<script src="${origin}/widget/v1/projects/${projectId}/blocking.js"></script>`;

describe("the edge's rewriting of a page's HTML", () => {
  it("marks a listed classic script held, as text/plain, keeping its src and other attributes", async () => {
    expect(await gated(`<script async src="https://www.googletagmanager.com/gtag/js?id=G-1"></script>`)).toBe(
      `<script async src="https://www.googletagmanager.com/gtag/js?id=G-1" type="text/plain" data-assent-held="analytics"></script>`,
    );
    expect(await gated(`<script type="text/javascript" src="//connect.facebook.net/en_US/fbevents.js"></script>`)).toBe(
      `<script type="text/plain" src="//connect.facebook.net/en_US/fbevents.js" data-assent-held="marketing"></script>`,
    );
  });

  it("matches wildcards, and names every purpose of every entry covering the host", async () => {
    expect(await gated(`<script src="https://www.clarity.ms/tag/abc"></script>`)).toContain(`data-assent-held="analytics"`);
    expect(await gated(`<img src="https://pixel.partner.example/p.gif" alt="">`)).toBe(
      `<img alt="" data-src="https://pixel.partner.example/p.gif" data-assent-held="marketing analytics">`,
    );
  });

  it("moves a listed frame's and image's src to data-src, dropping an image's srcset", async () => {
    expect(await gated(`<iframe width="560" src="https://www.youtube.com/embed/xyz"></iframe>`)).toBe(
      `<iframe width="560" data-src="https://www.youtube.com/embed/xyz" data-assent-held="marketing"></iframe>`,
    );
    expect(await gated(`<img src="https://a.partner.example/1.png" srcset="https://a.partner.example/2.png 2x">`)).toBe(
      `<img data-src="https://a.partner.example/1.png" data-assent-held="analytics">`,
    );
  });

  it("drops resource hints to listed hosts and keeps everything else", async () => {
    const page = [
      `<link rel="preconnect" href="https://www.googletagmanager.com">`,
      `<link rel="dns-prefetch" href="//connect.facebook.net">`,
      `<link rel="preload" as="script" href="https://www.clarity.ms/tag/abc">`,
      `<link rel="stylesheet" href="https://fonts.example/a.css">`,
      `<link rel="preconnect" href="https://cdn.shop.example">`,
    ].join("");
    expect(await gated(page)).toBe(`<link rel="stylesheet" href="https://fonts.example/a.css"><link rel="preconnect" href="https://cdn.shop.example">`);
  });

  it("leaves the page's own, unlisted, module, already gated and unusable URLs as they are", async () => {
    const untouched = [
      `<script src="/app.js"></script>`,
      `<script src="https://cdn.shop.example/lib.js"></script>`,
      `<script type="module" src="https://www.clarity.ms/tag/module.js"></script>`,
      `<script type="text/plain" data-assent-purpose="marketing" src="https://connect.facebook.net/x.js"></script>`,
      `<iframe data-assent-purpose="marketing" data-src="https://www.youtube.com/embed/a"></iframe>`,
      `<img src="http://[bad" alt="">`,
      `<img src="data:image/gif;base64,R0lGOD" alt="">`,
      `<script>new Image().src = "https://pixel.partner.example/p.gif";</script>`,
    ].join("\n");
    expect(await gated(untouched)).toBe(untouched);
  });

  it("resolves relative and protocol-relative URLs against the page", async () => {
    expect(await gated(`<img src="//a.partner.example/1.png"><img src="img/1.png">`)).toBe(
      `<img data-src="//a.partner.example/1.png" data-assent-held="analytics"><img src="img/1.png">`,
    );
  });

  it("matches hosts, not text: a listed name elsewhere in a URL is not its host", async () => {
    const page = `<img src="/r?to=connect.facebook.net"><script src="https://cdn.shop.example/www.clarity.ms.js"></script>`;
    expect(await gated(page)).toBe(page);
    expect(await gated(`<img src="HTTPS://PIXEL.PARTNER.EXAMPLE/p.gif">`)).toBe(`<img data-src="HTTPS://PIXEL.PARTNER.EXAMPLE/p.gif" data-assent-held="marketing analytics">`);
  });

  it("puts the project's blocker first in <head>, dropping the page's own copy", async () => {
    const page = `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title>${blockerTag()}</head><body></body></html>`;
    expect(await gated(page, { blocker: true })).toBe(`<!doctype html><html><head>${blockerTag()}<meta charset="utf-8"><title>Shop</title></head><body></body></html>`);
    // A document written without <head>: before <body>.
    expect(await gated(`<title>Shop</title><body><img src="/logo.png" alt=""></body>`, { blocker: true })).toBe(
      `<title>Shop</title>${blockerTag()}<body><img src="/logo.png" alt=""></body>`,
    );
    expect(await gated(`<head></head>`)).toBe(`<head></head>`);
  });

  it("with blocking switched off, gates nothing (the blocker still goes in, holding nothing)", async () => {
    const page = `<head></head><script src="https://connect.facebook.net/en_US/fbevents.js"></script>`;
    expect(await gated(page, { list: { ...blocking, entries: [] }, blocker: true })).toBe(`<head>${blockerTag()}</head><script src="https://connect.facebook.net/en_US/fbevents.js"></script>`);
  });

  it("works with the longest list the service keeps (500 hosts)", async () => {
    const entries = Array.from({ length: 500 }, (_, i) => ({ host: `t${i}.tracker.example`, purpose: "marketing", vendor: null }));
    expect(await gated(`<img src="https://t499.tracker.example/p.gif"><img src="https://t500.tracker.example/p.gif">`, { list: { ...blocking, entries } })).toBe(
      `<img data-src="https://t499.tracker.example/p.gif" data-assent-held="marketing"><img src="https://t500.tracker.example/p.gif">`,
    );
  });

  it("drops the origin's length and validators, keeps its status and other headers", async () => {
    const answer = gateHtml(html(`<img src="https://pixel.partner.example/p.gif">`), blocking, { pageUrl });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("x-site")).toBe("kept");
    expect(answer.headers.get("content-length")).toBeNull();
    expect(answer.headers.get("etag")).toBeNull();
    expect(await answer.text()).toBe(`<img data-src="https://pixel.partner.example/p.gif" data-assent-held="marketing analytics">`);
  });

  it("passes anything but a successful HTML answer unchanged", async () => {
    const json = new Response(`{"src":"https://connect.facebook.net"}`, { headers: { "content-type": "application/json" } });
    expect(gateHtml(json, blocking, { pageUrl })).toBe(json);
    const missing = html(`<script src="https://connect.facebook.net/x.js"></script>`);
    const notFound = new Response(missing.body, { status: 404, headers: missing.headers });
    expect(gateHtml(notFound, blocking, { pageUrl })).toBe(notFound);
  });

  it("serves the page ungated, not failed, when the service cannot be reached and no list is known", async () => {
    const page = html(`<script src="https://connect.facebook.net/x.js"></script>`);
    const answer = await gate(new Request(pageUrl), page, { service: "https://assent.invalid", project: projectId });
    expect(answer).toBe(page);
  });
});
