// Frames gated by hand in the widget's own form (`<iframe data-assent-purpose data-src>`, the markup the scanner
// proposes), in Debian's Chromium against the real service: a YouTube embed and a frame of a host the vendor catalogue
// does not know, each from a `*.localhost` host served by a local server that records every request
// (blocking-vendors.ts). No blocker on these pages: the widget alone draws their click-to-load placeholders.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./browser";
import { seen, statusOf, testEntries, vendorServer } from "./blocking-vendors";
import {
  adminToken, axeSource, banner, base, dialog, events, hostSite, moduleTag, ok, recordRequests, shopPage, shopProject, visitor, waitForEvent, type Json,
  type Shop,
} from "./widget-helpers";

let browser: Browser;
let site: Awaited<ReturnType<typeof hostSite>>;
let vendors: Awaited<ReturnType<typeof vendorServer>>;
let shop: Shop;

const frameHosts = ["www.youtube.localhost", "media.partner.localhost"];
const youtube = "Load the video from YouTube: this shares data with Google";
const partner = "Load content from media.partner.localhost and consent to Analytics";

function page(projectId: string, lang: string) {
  const at = (host: string) => `http://${host}:${vendors.port}`;
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>Shop</title>${moduleTag}</head><body>
<main><h1>Shop</h1>
<iframe width="560" height="315" title="YouTube video player" data-assent-purpose="marketing" data-src="${at(frameHosts[0])}/embed/xyz"></iframe>
<iframe title="Partner content" data-assent-purpose="analytics" data-src="${at(frameHosts[1])}/embed/xyz"></iframe></main>
<assent-consent project="${projectId}" regime="opt-in"></assent-consent>
</body></html>`;
}

beforeAll(async () => {
  [site, vendors] = await Promise.all([hostSite(), vendorServer()]);
  shop = await shopProject(site.origin);
  // The project's list names the test's YouTube host with its catalogue vendor (as blocking.test.ts does); the
  // partner's host is on no list and in no catalogue.
  await ok("PUT", `/admin/v1/projects/${shop.projectId}/blocking`, adminToken, { enabled: true, entries: testEntries });
  Object.assign(site.pages, {
    "/frames.html": { body: page(shop.projectId, "en") },
    "/frames-sv.html": { body: page(shop.projectId, "sv") },
    "/plain.html": { body: shopPage(shop.projectId) },
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await Promise.all([site?.close(), vendors?.close()]);
});

/** What the frames' hosts have been asked for. */
const framesFetched = () => seen(vendors.requests.filter((request) => frameHosts.includes(request.host)));
const frameSrc = (p: Page, title: string) => p.locator(`iframe[title="${title}"]`).getAttribute("src");

describe("hand-gated frames on a first visit", () => {
  let p: Page;
  let identityId: string;

  let requests: ReturnType<typeof recordRequests>;

  beforeAll(async () => {
    vendors.requests.length = 0;
    p = (await visitor(browser)).page;
    requests = recordRequests(p);
    await p.goto(`${site.origin}/frames.html`);
    await waitForEvent(p, "assent-ready");
    identityId = (await events(p, "assent-ready"))[0].identityId;
  });

  it("get a button in their place naming what loads and who receives the data, and nothing is fetched from their hosts", async () => {
    await p.getByRole("button", { name: youtube }).waitFor();
    await p.getByRole("button", { name: partner }).waitFor();
    expect(await p.locator(".assent-placeholder").count()).toBe(2);
    expect(await p.locator("iframe").evaluateAll((frames) => frames.map((frame) => [frame.getAttribute("src"), (frame as HTMLElement).style.display]))).toEqual([
      [null, "none"],
      [null, "none"],
    ]);
    // The placeholder takes the frame's size.
    expect(await p.locator(".assent-placeholder").first().evaluate((box) => [box.style.width, box.style.height])).toEqual(["560px", "315px"]);
    expect(framesFetched()).toEqual([]);
    // The placeholders' code is a chunk of its own, which this page needs.
    expect(requests.some((request) => request.path.startsWith("/widget/gated-frames."))).toBe(true);
  });

  it("axe finds no violations in the placeholders", async () => {
    await p.addScriptTag({ content: axeSource });
    const violations = await p.evaluate(async () => {
      const { violations } = await (window as any).axe.run(document.querySelectorAll(".assent-placeholder"), {
        runOnly: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"],
      });
      return violations.map((v: Json) => ({ id: v.id, nodes: v.nodes.map((n: Json) => n.target) }));
    });
    expect(violations).toEqual([]);
  });

  it("a click records consent to the frame's purpose alone (a receipt and assent-change follow) and loads it", async () => {
    await p.getByRole("button", { name: youtube }).click();
    await p.waitForFunction(() => document.querySelector("iframe[title='YouTube video player']")?.getAttribute("src")?.endsWith("/embed/xyz"));
    await expect.poll(() => p.locator(".assent-placeholder").count()).toBe(1);
    expect(await p.locator("iframe[title='YouTube video player']").isVisible()).toBe(true);
    const [change] = await events(p, "assent-change");
    expect(change.consents).toMatchObject({ marketing: true, analytics: false });
    expect(change.receipt).toEqual(expect.any(String));
    expect(await statusOf(shop, identityId)).toEqual({ marketing: "approved" });
    await expect.poll(framesFetched).toEqual(["www.youtube.localhost /embed/xyz"]);
    // The other frame's purpose is still unanswered: it stays held, and the banner still asks.
    expect(await frameSrc(p, "Partner content")).toBeNull();
    expect(await banner(p).isVisible()).toBe(true);
  });

  it("approving the purpose in the dialog takes the last placeholder away and loads its frame", async () => {
    await banner(p).getByRole("button", { name: "Customize" }).click();
    await dialog(p).getByRole("switch", { name: "Analytics", exact: true }).click();
    await dialog(p).getByRole("button", { name: "Save choices" }).click();
    await p.waitForFunction(() => document.querySelector("iframe[title='Partner content']")?.getAttribute("src")?.endsWith("/embed/xyz"));
    await expect.poll(() => p.locator(".assent-placeholder").count()).toBe(0);
    expect(await p.locator("iframe[title='Partner content']").isVisible()).toBe(true);
    expect(await statusOf(shop, identityId)).toEqual({ marketing: "approved", analytics: "approved" });
    await expect.poll(() => framesFetched().sort()).toEqual(frameHosts.map((host) => `${host} /embed/xyz`).sort());
    await p.context().close();
  });
});

describe("hand-gated frames for a returning visitor", () => {
  it("who refused: placeholders from the stored decision, and a click that cannot be recorded loads nothing", async () => {
    const { page: p } = await visitor(browser);
    await p.goto(`${site.origin}/frames.html`);
    await banner(p).getByRole("button", { name: "Reject all" }).click();
    await waitForEvent(p, "assent-change");
    await p.reload();
    await p.getByRole("button", { name: youtube }).waitFor();
    await p.getByRole("button", { name: partner }).waitFor();
    expect(await banner(p).count()).toBe(0);
    // The service refuses the next recording: the frame stays held and its button can be tried again.
    await p.route(`${base}/privacy/v2/projects/*/permissions`, (route) => route.fulfill({ status: 503, body: "" }));
    await p.getByRole("button", { name: partner }).click();
    await waitForEvent(p, "assent-error");
    await expect.poll(() => p.getByRole("button", { name: partner }).getAttribute("aria-disabled")).toBeNull();
    expect(await frameSrc(p, "Partner content")).toBeNull();
    await p.unroute(`${base}/privacy/v2/projects/*/permissions`);
    await p.getByRole("button", { name: partner }).click();
    await p.waitForFunction(() => document.querySelector("iframe[title='Partner content']")?.getAttribute("src")?.endsWith("/embed/xyz"));
    expect(await frameSrc(p, "YouTube video player")).toBeNull();
    await p.context().close();
  });
});

describe("a held frame the page takes away", () => {
  it("takes its placeholder with it, and leaves the other frame's", async () => {
    const { page: p } = await visitor(browser);
    await p.goto(`${site.origin}/frames.html`);
    await p.getByRole("button", { name: youtube }).waitFor();
    await p.getByRole("button", { name: partner }).waitFor();
    // The first goes while another frame is held; the second is the last held one, after which no release wakes the
    // placeholders' code: each must go all the same.
    await p.evaluate(() => document.querySelector("iframe[title='Partner content']")!.remove());
    await p.getByRole("button", { name: partner }).waitFor({ state: "detached" });
    expect(await p.getByRole("button", { name: youtube }).isVisible()).toBe(true);
    await p.evaluate(() => document.querySelector("iframe[title='YouTube video player']")!.remove());
    await p.getByRole("button", { name: youtube }).waitFor({ state: "detached" });
    expect(await p.locator(".assent-placeholder").count()).toBe(0);
    await p.context().close();
  });
});

describe("a page without a gated frame", () => {
  it("does not load the placeholders' code", async () => {
    const { page: p } = await visitor(browser);
    const requests = recordRequests(p);
    await p.goto(`${site.origin}/plain.html`);
    await waitForEvent(p, "assent-ready");
    await banner(p).waitFor();
    expect(requests.some((request) => request.path.startsWith("/widget/gated-frames."))).toBe(false);
    await p.context().close();
  });
});

describe("hand-gated frames in the page's language", () => {
  it("speak Swedish on a Swedish page, and a keyboard loads the frame", async () => {
    const { page: p } = await visitor(browser);
    await p.goto(`${site.origin}/frames-sv.html`);
    await p.getByRole("button", { name: "Läs in innehåll från media.partner.localhost och samtyck till Analytics" }).waitFor();
    const button = p.getByRole("button", { name: "Läs in videon från YouTube: det delar data med Google" });
    await button.focus();
    await p.keyboard.press("Enter");
    await p.waitForFunction(() => document.querySelector("iframe[title='YouTube video player']")?.getAttribute("src")?.endsWith("/embed/xyz"));
    expect((await events(p, "assent-change"))[0].consents).toMatchObject({ marketing: true, analytics: false });
    // The button is gone with its placeholder: focus moves to what it loaded rather than back to the page's start.
    await p.waitForFunction(() => document.activeElement?.getAttribute("title") === "YouTube video player");
    await p.context().close();
  });
});
