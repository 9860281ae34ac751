// The consent widget in Debian's Chromium, embedded in pages of another origin (a local Node server), against
// the real service started by global-setup.ts. This file runs against the service as it is (no bootstrap stand-in):
// the widget finds no bootstrap endpoint and falls back to its three calls; widget-bootstrap.test.ts covers the
// one-request path.
import { createHash } from "node:crypto";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shippedStrings } from "../../shared/i18n/shipped";
import { browserSignals } from "../../shared/signals/signals";
import { artifactPath, launchBrowser } from "./browser";
import {
  axeRun, axeSource, banner, base, dialog, events, focused, gatedRan, gatedScript, hostSite, identitiesMade, moduleTag, ok, recordRequests, shopPage, shopProject,
  switchStates, tabTo, visitor, waitForEvent, type Json, type Shop,
} from "./widget-helpers";

let browser: Browser;
let site: Awaited<ReturnType<typeof hostSite>>;
let shop: Shop;

beforeAll(async () => {
  site = await hostSite();
  shop = await shopProject(site.origin);
  const page = (options?: Parameters<typeof shopPage>[1]) => ({ body: shopPage(shop.projectId, options) });
  Object.assign(site.pages, {
    "/plain.html": page(),
    "/swedish.html": page({ attrs: 'lang="sv"' }),
    "/classic.html": page({ head: `<script src="${base}/widget/assent.classic.js"></script>` }),
    "/twice.html": page({ head: `${moduleTag}<script src="${base}/widget/assent.classic.js"></script>${moduleTag.replace(".js", ".js?again")}` }),
    "/down.html": page({ attrs: 'api="http://127.0.0.1:9"' }),
    "/strict.html": {
      body: shopPage(shop.projectId),
      headers: {
        "content-security-policy":
          `default-src 'self'; script-src 'self' ${base}; style-src 'self'; connect-src ${base}; ` +
          "img-src 'self'; base-uri 'none'; object-src 'none'",
      },
    },
    "/gated.js": gatedScript,
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

const looks = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((buttons) =>
    buttons.map((b) => {
      const s = getComputedStyle(b);
      return [b.getBoundingClientRect().width, b.getBoundingClientRect().height, s.backgroundColor, s.color, s.fontWeight, s.fontSize];
    }),
  );

describe("a first visit on a plain page with one script tag", () => {
  let context: BrowserContext;
  let page: Page;
  let identityId: string;
  let requests: ReturnType<typeof recordRequests>;

  beforeAll(async () => {
    ({ context, page } = await visitor(browser));
    requests = recordRequests(page);
    await page.goto(`${site.origin}/plain.html`);
    await banner(page).waitFor({ state: "visible" });
  });
  afterAll(() => context.close());

  it("opens the first layer by itself: a labelled, non-modal banner with three alike choices, nothing pre-approved", async () => {
    const ready = await events(page, "assent-ready");
    expect(ready).toHaveLength(1);
    identityId = ready[0].identityId;
    expect(identityId).toMatch(/^idn_/);
    expect(ready[0].consents).toEqual({ marketing: false, analytics: false, fraud: true });
    expect(await page.getByRole("dialog", { name: "Your privacy choices" }).count()).toBe(1);
    expect(await banner(page).getAttribute("aria-modal")).toBeNull();
    expect(await dialog(page).count()).toBe(0); // the second layer is not even loaded
    expect(await banner(page).locator("button").allTextContents()).toEqual(["Reject all", "Customize", "Accept all"]);
    const buttons = await looks(page, "assent-consent [part~=banner] button");
    expect(new Set(buttons.map((l) => JSON.stringify(l))).size).toBe(1);
    expect(await page.locator("#gated").textContent()).toBe("not run");
  });

  it("axe finds no violations in the first layer", async () => {
    await page.addScriptTag({ content: axeSource });
    expect(await axeRun(page)).toEqual([]);
  });

  it("by keyboard alone: focus starts in the banner, Customize loads the preferences, Tab stays inside, a toggle and save", async () => {
    expect(await page.evaluate(() => document.querySelector("assent-consent")!.shadowRoot!.activeElement?.getAttribute("part"))).toBe("banner");
    expect(requests.some((r) => r.path.includes("/widget/preferences."))).toBe(false);
    await tabTo(page, "Customize");
    await page.keyboard.press("Enter");
    await dialog(page).waitFor({ state: "visible" });
    expect(requests.some((r) => r.path.includes("/widget/preferences."))).toBe(true);
    expect(await banner(page).count()).toBe(0);
    expect(await dialog(page).getAttribute("aria-modal")).toBe("true");
    expect(await switchStates(page)).toEqual({ Marketing: false, Analytics: false });
    const seen = new Set<string | null>();
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press("Tab");
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe("ASSENT-CONSENT");
      seen.add(await focused(page));
    }
    expect(seen).toContain("Reject all");
    expect(seen).toContain("Close");
    expect(await looks(page, "assent-consent .foot button").then((l) => new Set(l.map((x) => JSON.stringify(x))).size)).toBe(1);
  });

  it("axe finds no violations in the open preferences, details expanded", async () => {
    await page.locator("assent-consent details").evaluateAll((all) => all.forEach((d) => ((d as HTMLDetailsElement).open = true)));
    expect(await axeRun(page)).toEqual([]);
  });

  it("looks like a product people trust (screenshots in the artifacts folder)", async () => {
    await page.locator("assent-consent details").evaluateAll((all) => all.forEach((d, i) => ((d as HTMLDetailsElement).open = i === 0)));
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.screenshot({ path: artifactPath("widget-dialog") });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: artifactPath("widget-mobile") });
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("saves a partial choice: Marketing on", async () => {
    await tabTo(page, "Marketing");
    await page.keyboard.press("Space");
    expect(await switchStates(page)).toEqual({ Marketing: true, Analytics: false });
    await tabTo(page, "Save choices");
    await page.keyboard.press("Enter");
    await dialog(page).waitFor({ state: "hidden" });
    const [change] = await events(page, "assent-change");
    expect(change.consents).toEqual({ marketing: true, analytics: false, fraud: true });
    await gatedRan(page);
    expect(await page.evaluate(() => (document.querySelector("assent-consent") as any).hasConsent("analytics"))).toBe(false);
    const native = await page.evaluate(() => (window as any).__native);
    expect(native.filter(([, m]: [string, Json]) => m.type === "assent-change").map(([side]: [string]) => side)).toEqual(["ios", "android"]);
  });

  it("stored one permission request with versions, statuses and meta, readable through the API", async () => {
    const { items } = await ok("GET", shop.under(`/permissions?identityId=${identityId}`), shop.token);
    expect(items).toHaveLength(1);
    const [record] = items;
    expect(record.requested).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$/);
    expect(record.meta).toEqual({
      requestedBy: shop.webClientId,
      context: { collectionMethod: "web-dialog", application: "e2e-shop", internalReference: "order-42", language: "en" },
    });
    expect(record.request.purposes).toEqual([
      {
        purposeId: shop.marketing.purposeId,
        referenceId: "marketing",
        version: "1",
        status: "approved",
        dataGroups: [{ dataGroupId: shop.email.dataGroupId, referenceId: "email", status: "approved" }],
        processors: [{ partyId: shop.mailer.partyId, referenceId: "mailer", status: "approved" }],
        recipients: [{ partyId: shop.partner.partyId, referenceId: "partner", status: "approved" }],
      },
      {
        purposeId: shop.analytics.purposeId,
        referenceId: "analytics",
        version: "1",
        status: "denied",
        dataGroups: [{ dataGroupId: shop.usage.dataGroupId, referenceId: "usage", status: "denied" }],
        processors: [],
        recipients: [],
      },
    ]);
  });

  it("made one identity, found again through the hash of the key kept in localStorage", async () => {
    expect(identitiesMade(requests)).toBe(1);
    const key = await page.evaluate((name) => localStorage.getItem(name), `assent:${base}:${shop.projectId}`);
    const hash = createHash("sha256").update(key!).digest("hex");
    const identity = await ok("GET", shop.under(`/identities/aliases/${encodeURIComponent(`urn:svc:assent-visitor:${hash}`)}`), shop.token);
    expect(identity.identityId).toBe(identityId);
  });

  it("after a reload: the stored decision applies at once, nothing asks again; show() reopens, Escape returns focus", async () => {
    await page.reload();
    await waitForEvent(page, "assent-ready");
    expect((await events(page, "assent-ready"))[0]).toMatchObject({ identityId, consents: { marketing: true, analytics: false } });
    await gatedRan(page);
    await page.waitForFunction(() => !document.querySelector("assent-consent")!.shadowRoot!.querySelector("[popover]"));
    await page.locator("#settings").focus();
    await page.evaluate(() => (document.querySelector("assent-consent") as any).show());
    await dialog(page).waitFor({ state: "visible" });
    await page.waitForFunction(() => document.querySelector("assent-consent")!.shadowRoot!.querySelectorAll(".purpose").length === 3);
    expect(await switchStates(page)).toEqual({ Marketing: true, Analytics: false });
    expect(await page.locator("assent-consent .tag.new").count()).toBe(0);
    await page.keyboard.press("Escape");
    await dialog(page).waitFor({ state: "hidden" });
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("settings");
  });

  it("posts an objection for a purpose that rests on another legal ground", async () => {
    await page.evaluate(() => (document.querySelector("assent-consent") as any).show());
    await page.getByRole("button", { name: "Object: Fraud prevention" }).click();
    await page.locator("assent-consent").getByText("Objection sent").waitFor();
    const { items } = await ok("GET", shop.under(`/objections?identityId=${identityId}`), shop.token);
    expect(items.map((o: Json) => [o.request.purposes[0].purposeId, o.status])).toEqual([[shop.fraud.purposeId, "received"]]);
  });
});

describe("other visitors", () => {
  it("with Global Privacy Control: the first layer says why everything starts off, and Reject all records it", async () => {
    const { context, page } = await visitor(browser, { gpc: true });
    await page.goto(`${site.origin}/plain.html`);
    await banner(page).waitFor({ state: "visible" });
    expect(await banner(page).locator(".note").textContent()).toContain("Global Privacy Control");
    await page.getByRole("button", { name: "Reject all" }).click();
    await banner(page).waitFor({ state: "detached" });
    expect((await events(page, "assent-change"))[0].consents).toMatchObject({ marketing: false, analytics: false });
    await context.close();
  });

  it("under a strict Content-Security-Policy: styled, no violations, and it saves (first layer and second)", async () => {
    const { context, page } = await visitor(browser);
    await page.goto(`${site.origin}/strict.html`);
    await banner(page).waitFor({ state: "visible" });
    expect(await banner(page).evaluate((b) => getComputedStyle(b).position)).toBe("fixed");
    await page.getByRole("button", { name: "Customize" }).click();
    await dialog(page).waitFor({ state: "visible" });
    expect(await dialog(page).evaluate((d) => getComputedStyle(d).borderTopLeftRadius)).toBe("14px");
    await page.getByRole("button", { name: "Accept all" }).click();
    await dialog(page).waitFor({ state: "hidden" });
    expect((await events(page, "assent-change"))[0].consents).toEqual({ marketing: true, analytics: true, fraud: true });
    await gatedRan(page);
    expect(await page.evaluate(() => (window as any).__violations)).toEqual([]);
    await context.close();
  });

  it("in Swedish, texts and the recorded language follow lang; the words come with the bootstrap, no language file", async () => {
    const { context, page } = await visitor(browser);
    const requests = recordRequests(page);
    await page.goto(`${site.origin}/swedish.html`);
    await banner(page).waitFor({ state: "visible" });
    expect(requests.filter((r) => r.path.startsWith("/widget/") && !/^\/widget\/(assent|analytics)\./.test(r.path)).map((r) => r.path)).toEqual([]);
    expect(await page.getByRole("dialog", { name: "Dina integritetsval" }).count()).toBe(1);
    await page.getByRole("button", { name: "Anpassa" }).click();
    await dialog(page).waitFor({ state: "visible" });
    expect(await page.locator("assent-consent").getByText("Erbjudanden via e-post, anpassade efter dina köp.").count()).toBe(1);
    await page.getByRole("button", { name: "Neka alla" }).click();
    await dialog(page).waitFor({ state: "hidden" });
    const identityId = (await events(page, "assent-ready"))[0].identityId;
    const { items } = await ok("GET", shop.under(`/permissions?identityId=${identityId}`), shop.token);
    expect(items[0].meta.context.language).toBe("sv");
    await context.close();
  });

  it("a native app injects a backend-minted token for a known identity", async () => {
    const identity = await ok("POST", shop.under("/identities"), shop.token, { referenceId: "app-user-7" });
    const minted = await ok("POST", shop.under(`/identities/${identity.identityId}/tokens`), shop.token);
    const { context, page } = await visitor(browser, { native: { token: minted.access_token } });
    await page.goto(`${site.origin}/plain.html`);
    await banner(page).waitFor({ state: "visible" });
    expect((await events(page, "assent-ready"))[0].identityId).toBe(identity.identityId);
    await page.getByRole("button", { name: "Accept all" }).click();
    await banner(page).waitFor({ state: "detached" });
    const state = await ok("GET", shop.under(`/identities/${identity.identityId}/permission-state`), shop.token);
    expect(state.purposes.map((p: Json) => [p.referenceId, p.status]).sort()).toEqual([["analytics", "approved"], ["marketing", "approved"]]);
    // No visitor identity was made: only the decision is kept on the device.
    expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => !k.endsWith(":decision")))).toEqual([]);
    await context.close();
  });

  it("the classic-script build works where modules cannot be used, second layer included", async () => {
    const { context, page } = await visitor(browser);
    await page.goto(`${site.origin}/classic.html`);
    await banner(page).waitFor({ state: "visible" });
    await page.getByRole("button", { name: "Customize" }).click();
    await dialog(page).waitFor({ state: "visible" });
    expect(await switchStates(page)).toEqual({ Marketing: false, Analytics: false });
    await context.close();
  });

  it("registering the element twice (both builds, the module under two URLs) is harmless", async () => {
    const { context, page } = await visitor(browser);
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`${site.origin}/twice.html`);
    await banner(page).waitFor({ state: "visible" });
    await page.getByRole("button", { name: "Accept all" }).click();
    await banner(page).waitFor({ state: "detached" });
    expect(await events(page, "assent-ready")).toHaveLength(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("when the API is down the page keeps working, the visitor can still reject, and nothing claims to be saved", async () => {
    const { context, page } = await visitor(browser);
    await page.goto(`${site.origin}/down.html`);
    await waitForEvent(page, "assent-error");
    await banner(page).waitFor({ state: "visible" });
    expect(await page.locator("h1").textContent()).toBe("Shop");
    expect(await banner(page).locator("[role=alert]").textContent()).toContain("could not be reached");
    // Empty controller name never shows: the words for "this site" stand in.
    expect(await banner(page).locator("#banner-text").textContent()).toMatch(/^This site would like/);
    expect(await banner(page).locator("button[disabled]").allTextContents()).toEqual(["Customize", "Accept all"]);
    await page.getByRole("button", { name: "Reject all" }).click();
    await banner(page).waitFor({ state: "detached" });
    expect((await events(page, "assent-change"))[0].consents).toEqual({});
    expect(await page.locator("#gated").textContent()).toBe("not run");
    const errors = await page.evaluate(() => (window as any).__native.filter(([, m]: [string, any]) => m.type === "assent-error"));
    expect(errors.length).toBeGreaterThan(0);
    await context.close();
  });
});

describe("serving the widget", () => {
  it("serves the stable name briefly cached and the hashed names immutable, all readable cross-origin", async () => {
    const manifest = await (await fetch(`${base}/widget/manifest.json`)).json();
    const stable = await fetch(`${base}/widget/assent.js`);
    const hashed = await fetch(`${base}/widget/${manifest["assent.js"].file}`);
    expect(stable.headers.get("cache-control")).toContain("max-age=300");
    expect(hashed.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(stable.headers.get("access-control-allow-origin")).toBe("*");
    expect(stable.headers.get("content-type")).toContain("javascript");
    // What the service honours, from shared/signals/signals.ts's table, and where it is described.
    for (const file of [stable, hashed]) {
      expect(file.headers.get("assent-signals")).toBe(browserSignals.map((signal) => signal.name).join(", "));
      expect(file.headers.get("link")).toBe('</.well-known/privacy-signals.json>; rel="describedby"; type="application/json"');
    }
    const code = Buffer.from(await hashed.arrayBuffer());
    expect(`sha384-${createHash("sha384").update(code).digest("base64")}`).toBe(manifest["assent.js"].integrity);
    const lazy = manifest["assent.js"].chunks.find((name: string) => name.startsWith("preferences."));
    expect((await fetch(`${base}/widget/${lazy}`)).headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    // The budgets the build enforces: eager part 10 KiB + 483 bytes (docs/widget.md), everything 20 KiB + 104 (min+gzip).
    expect(manifest["assent.js"].gzipBytes).toBeLessThanOrEqual(10 * 1024 + 483);
    expect(manifest["assent.js"].totalGzipBytes).toBeLessThanOrEqual(20 * 1024 + 104);
    expect(manifest["assent.classic.js"].totalGzipBytes).toBeLessThanOrEqual(20 * 1024 + 104);
  });

  it("serves each language as its own immutable file, and neither build carries any language", async () => {
    const manifest = await (await fetch(`${base}/widget/manifest.json`)).json();
    const { folder, count, largest } = manifest["assent.js"].languages;
    expect(count).toBe(Object.keys(shippedStrings).length);
    expect(largest.gzipBytes).toBeLessThanOrEqual(2 * 1024);
    const german = await fetch(`${base}/widget/${folder}/de.json`);
    expect(german.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(german.headers.get("access-control-allow-origin")).toBe("*");
    expect(await german.json()).toEqual(shippedStrings.de);
    for (const build of ["assent.js", "assent.classic.js"]) {
      const code = await (await fetch(`${base}/widget/${build}`)).text();
      expect(code, build).not.toContain(shippedStrings.de.rejectAll);
      expect(code, build).not.toContain(shippedStrings.en.noticeOptIn.slice(4, 40));
    }
  });

  it("the demo page at / shows the widget working on the seeded project", async () => {
    const { context, page } = await visitor(browser);
    await page.goto(`${base}/`);
    await waitForEvent(page, "assent-ready");
    expect(await page.locator("#identity").textContent()).toMatch(/Visitor identity: idn_/);
    expect(await page.evaluate(() => (window as any).__violations)).toEqual([]);
    await context.close();
  });
});
