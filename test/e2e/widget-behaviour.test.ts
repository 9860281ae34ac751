// The widget's behaviour at the edges: concurrency, an API that is down or hangs, dismissal, gating of elements
// added later, iframes and inline scripts, the page-level `window.assent`, tokens that are refused, and names and
// links that must not be trusted. Against the real service as it is (the widget falls back to its three calls).
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./browser";
import {
  banner, base, dialog, events, gatedScript, hostSite, identitiesMade, ok, recordRequests, shopPage, shopProject, tabTo, visitor,
  waitForEvent, type Json, type Shop,
} from "./widget-helpers";

let browser: Browser;
let site: Awaited<ReturnType<typeof hostSite>>;
let shop: Shop;

const nonce = "e2e-nonce-1";

beforeAll(async () => {
  site = await hostSite();
  shop = await shopProject(site.origin);
  const element = `<assent-consent project="${shop.projectId}"></assent-consent>`;
  Object.assign(site.pages, {
    "/plain.html": { body: shopPage(shop.projectId) },
    "/two.html": { body: shopPage(shop.projectId, { extra: element }) },
    "/gating.html": {
      body: shopPage(shop.projectId, {
        extra:
          `<p id="inline">not run</p><script type="text/plain" data-assent-purpose="analytics" nonce="${nonce}">` +
          `document.getElementById("inline").textContent = "ran";</script>` +
          `<iframe title="video" data-assent-purpose="marketing analytics" data-src="/frame.html"></iframe>`,
      }),
      headers: { "content-security-policy": `script-src 'self' 'nonce-${nonce}' ${base}; frame-src 'self'` },
    },
    "/frame.html": { body: "<!doctype html><title>frame</title><p>video</p>" },
    // The visitor is in the search field before the widget runs (a classic script runs while the page parses).
    "/search.html": {
      body: shopPage(shop.projectId, {
        extra: `<input id="search" aria-label="Search"><script>document.getElementById("search").focus();</script>`,
      }),
    },
    // The host sets the provider before the widget's script runs (a module script runs after parsing).
    "/provider.html": {
      body: shopPage(shop.projectId).replace(
        "</body>",
        `<script>document.querySelector("assent-consent").tokenProvider = () => window.__tokens.shift();</script></body>`,
      ),
    },
    "/gated.js": gatedScript,
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

const gatedText = (page: Page, id: string) => page.locator(`#${id}`).textContent();

describe("one identity per first visit", () => {
  it("two elements on one page and two tabs opened at once: one identity", async () => {
    const { context, page } = await visitor(browser);
    const second = await context.newPage();
    const requests = [...[page, second].map(recordRequests)];
    await Promise.all([page.goto(`${site.origin}/two.html`), second.goto(`${site.origin}/two.html`)]);
    await Promise.all([page, second].map((p) => waitForEvent(p, "assent-ready")));
    await page.waitForFunction(() => (window as any).__events.filter((e: any) => e.type === "assent-ready").length === 2);
    const identities = new Set([...(await events(page, "assent-ready")), ...(await events(second, "assent-ready"))].map((d: Json) => d.identityId));
    expect(identities.size).toBe(1);
    expect(identitiesMade(requests.flat())).toBe(1);
    // GETs (here: the state read back after a save) carry nothing that needs a preflight beyond the bearer token.
    await page.evaluate(() => (window as any).assent.show());
    await dialog(page).getByRole("button", { name: "Accept all" }).click();
    await waitForEvent(page, "assent-change");
    const gets = requests.flat().filter((r) => r.method === "GET" && !r.path.startsWith("/widget/"));
    expect(gets.length).toBeGreaterThan(0);
    for (const get of gets) expect(get.headers["content-type"]).toBeUndefined();
    await context.close();
  });

  it("two tabs at once, where the second one's storage has not yet heard of the first one's key: one identity", async () => {
    // Chromium passes a localStorage write from one tab's process to another's without ordering it against Web Locks:
    // a tab granted the lock the moment the minting tab releases it can still read no visitor key (measured: about
    // 2 in 100 such pairs). Here each tab's first read of the key is that stale read, so the race is always lost.
    const { context, page } = await visitor(browser);
    await context.addInitScript((project) => {
      const read = Storage.prototype.getItem;
      let stale = true;
      Storage.prototype.getItem = function (this: Storage, key: string) {
        if (stale && this === localStorage && key.startsWith("assent:") && key.endsWith(`:${project}`)) {
          stale = false;
          return null;
        }
        return read.call(this, key);
      };
    }, shop.projectId);
    const second = await context.newPage();
    const requests = [page, second].map(recordRequests);
    await Promise.all([page.goto(`${site.origin}/plain.html`), second.goto(`${site.origin}/plain.html`)]);
    await Promise.all([page, second].map((p) => waitForEvent(p, "assent-ready")));
    const identities = new Set([...(await events(page, "assent-ready")), ...(await events(second, "assent-ready"))].map((d: Json) => d.identityId));
    expect(identitiesMade(requests.flat())).toBe(1);
    expect(identities.size).toBe(1);
    await context.close();
  });
});

describe("when the service is unavailable", () => {
  it("a Reject all taken while the API is down is kept on the device and sent when it answers", async () => {
    const { context, page } = await visitor(browser);
    const down = (route: { abort(): Promise<void> }) => route.abort();
    await context.route(/\/(browser|privacy)\//, down);
    await page.goto(`${site.origin}/plain.html`);
    await banner(page).waitFor({ state: "visible" });
    await page.getByRole("button", { name: "Reject all" }).click();
    await banner(page).waitFor({ state: "detached" });
    await context.unroute(/\/(browser|privacy)\//, down);
    await page.reload();
    await page.waitForFunction(() => (window as any).__events.some((e: any) => e.type === "assent-ready"));
    const [ready] = await events(page, "assent-ready");
    expect(ready.consents).toEqual({ marketing: false, analytics: false, fraud: true });
    const { items } = await ok("GET", shop.under(`/permissions?identityId=${ready.identityId}`), shop.token);
    expect(items.map((i: Json) => i.request.purposes.map((p: Json) => [p.referenceId, p.status]))).toEqual([
      [
        ["marketing", "denied"],
        ["analytics", "denied"],
      ],
    ]);
    expect(await banner(page).count()).toBe(0);
    await context.close();
  });

  it("a hanging API gives up after 8 s, says so, and Try again recovers", async () => {
    const { context, page } = await visitor(browser);
    const hang = () => new Promise<void>(() => {});
    await context.route(/\/browser\//, hang);
    await page.goto(`${site.origin}/plain.html`);
    await waitForEvent(page, "assent-error");
    await banner(page).getByRole("alert").waitFor();
    expect(await banner(page).getByRole("button", { name: "Accept all" }).isDisabled()).toBe(true);
    await context.unroute(/\/browser\//, hang);
    await banner(page).getByRole("button", { name: "Try again" }).click();
    await page.waitForFunction(() => (window as any).__events.some((e: any) => e.type === "assent-ready"));
    await banner(page).getByRole("button", { name: "Accept all" }).click();
    await banner(page).waitFor({ state: "detached" });
    expect((await events(page, "assent-change"))[0].consents).toEqual({ marketing: true, analytics: true, fraud: true });
    await context.close();
  });
});

describe("a page on an origin no web client of the project lists", () => {
  it("the console names the origin and where to register it; then the widget behaves as when the service is down", async () => {
    const elsewhere = await shopProject("https://elsewhere.example");
    site.pages["/unregistered.html"] = { body: shopPage(elsewhere.projectId) };
    const { context, page } = await visitor(browser);
    const logged: string[] = [];
    page.on("console", (message) => logged.push(`${message.type()}: ${message.text()}`));
    await page.goto(`${site.origin}/unregistered.html`);
    await waitForEvent(page, "assent-error");
    expect((await events(page, "assent-error"))[0].status).toBe(403);
    await banner(page).getByRole("alert").waitFor();
    expect(await banner(page).getByRole("button", { name: "Reject all" }).isDisabled()).toBe(false);
    expect(await banner(page).getByRole("button", { name: "Accept all" }).isDisabled()).toBe(true);
    const named = logged.filter((line) => line.startsWith("error: Assent:") && line.includes(site.origin));
    expect(named).toHaveLength(1);
    expect(named[0]).toContain(`${base}/portal/projects/${elsewhere.projectId}/clients`);
    expect(logged.filter((line) => /CORS|Access-Control/i.test(line))).toEqual([]);
    await context.close();
  });
});

describe("dismissal", () => {
  it("Escape closes the banner for this session, and the page and the native app hear of it", async () => {
    const { context, page } = await visitor(browser);
    await page.goto(`${site.origin}/plain.html`);
    await banner(page).waitFor({ state: "visible" });
    await page.keyboard.press("Escape");
    await banner(page).waitFor({ state: "detached" });
    expect(await events(page, "assent-dismiss")).toHaveLength(1);
    const native = await page.evaluate(() => (window as any).__native.map(([side, m]: [string, any]) => `${side} ${m.type}`));
    expect(native).toContain("ios assent-dismiss");
    expect(native).toContain("android assent-dismiss");
    await page.reload();
    await waitForEvent(page, "assent-ready");
    await page.waitForLoadState("networkidle");
    expect(await banner(page).count()).toBe(0);
    expect(await gatedText(page, "gated")).toBe("not run");
    await context.close();
  });
});

describe("focus", () => {
  it("a visitor already in a field of the page keeps it: the banner shows without taking focus, and Tab reaches it", async () => {
    const { context, page } = await visitor(browser);
    await page.goto(`${site.origin}/search.html`);
    await waitForEvent(page, "assent-ready");
    await banner(page).waitFor({ state: "visible" });
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("search");
    await page.keyboard.type("boots");
    expect(await page.locator("#search").inputValue()).toBe("boots");
    await tabTo(page, "Accept all");
    await context.close();
  });
});

describe("gating", () => {
  it("inline scripts (nonce kept) and iframes are released; elements added later are released when allowed", async () => {
    const { context, page } = await visitor(browser);
    await page.goto(`${site.origin}/gating.html`);
    await banner(page).waitFor({ state: "visible" });
    const addLate = (id: string) =>
      page.evaluate(
        ({ id, nonce }) => {
          const p = Object.assign(document.createElement("p"), { id, textContent: "not run" });
          const script = Object.assign(document.createElement("script"), { type: "text/plain", nonce, text: `document.getElementById("${id}").textContent = "ran";` });
          script.dataset.assentPurpose = "marketing";
          document.body.append(p, script);
        },
        { id, nonce },
      );
    await addLate("early");
    expect(await gatedText(page, "early")).toBe("not run");
    expect(await page.locator("iframe").getAttribute("src")).toBeNull();
    await page.getByRole("button", { name: "Accept all" }).click();
    await banner(page).waitFor({ state: "detached" });
    expect(await gatedText(page, "inline")).toBe("ran");
    expect(await gatedText(page, "early")).toBe("ran");
    expect(await page.locator("iframe").getAttribute("src")).toBe("/frame.html");
    await addLate("late");
    await page.waitForFunction(() => document.getElementById("late")?.textContent === "ran");
    expect(await page.evaluate(() => (window as any).__violations)).toEqual([]);
    await context.close();
  });
});

describe("window.assent, for pages that do not hold the element", () => {
  it("ready, getConsent, on('change') and show()", async () => {
    const { context, page } = await visitor(browser);
    await page.goto(`${site.origin}/plain.html`);
    const ready = await page.evaluate(() => (window as any).assent.ready);
    expect(ready.consents).toEqual({ marketing: false, analytics: false, fraud: true });
    await page.evaluate(() => (window as any).assent.on("change", (state: any) => ((window as any).__heard = state.consents)));
    await page.evaluate(() => (window as any).assent.show());
    await dialog(page).waitFor({ state: "visible" });
    await page.getByRole("button", { name: "Accept all" }).click();
    await dialog(page).waitFor({ state: "hidden" });
    expect(await page.evaluate(() => (window as any).__heard)).toEqual({ marketing: true, analytics: true, fraud: true });
    expect(await page.evaluate(() => (window as any).assent.getConsent().consents)).toEqual({ marketing: true, analytics: true, fraud: true });
    await context.close();
  });

  it("ready settles for a returning visitor too, whose stored decision is announced as the script starts", async () => {
    const { context, page } = await visitor(browser);
    await page.goto(`${site.origin}/plain.html`);
    await banner(page).getByRole("button", { name: "Accept all" }).click();
    await banner(page).waitFor({ state: "detached" });
    await page.reload();
    const ready = await page.evaluate(() => (window as any).assent.ready);
    expect(ready.consents).toEqual({ marketing: true, analytics: true, fraud: true });
    await context.close();
  });

  it("show() just after the preferences were closed opens them again (the queued close event does not undo it)", async () => {
    const { context, page } = await visitor(browser);
    await page.goto(`${site.origin}/plain.html`);
    await page.evaluate(() => (window as any).assent.ready);
    await page.evaluate(() => (window as any).assent.show());
    await dialog(page).waitFor({ state: "visible" });
    // Close with the x and reopen in the same task, before the dialog's close event is dispatched.
    await page.evaluate(() => {
      const host = document.querySelector("assent-consent")!;
      const root = host.shadowRoot!;
      // Listening after the widget, so this runs once the widget has handled the event.
      root.querySelector("dialog")!.addEventListener("close", () => ((window as any).__closeHandled = true), { once: true });
      (root.querySelector("[part~=close]") as HTMLElement).click();
      (window as any).assent.show();
    });
    // The widget renders in a microtask, so whatever the close event set in motion has rendered once this resolves.
    await page.waitForFunction(() => (window as any).__closeHandled);
    expect(await dialog(page).isVisible()).toBe(true);
    await context.close();
  });
});

describe("tokens from the host", () => {
  it("a tokenProvider is asked again after a 401 and the widget carries on with the new token", async () => {
    const identity = await ok("POST", shop.under("/identities"), shop.token, { referenceId: "signed-in-1" });
    const good = (await ok("POST", shop.under(`/identities/${identity.identityId}/tokens`), shop.token)).access_token as string;
    const [header, payload] = good.split(".");
    const refused = `${header}.${payload}.AAAA`;
    const { context, page } = await visitor(browser);
    await context.addInitScript(({ refused, good }) => ((window as any).__tokens = [refused, good]), { refused, good });
    await page.goto(`${site.origin}/provider.html`);
    await waitForEvent(page, "assent-ready");
    expect((await events(page, "assent-ready"))[0].identityId).toBe(identity.identityId);
    expect(await page.evaluate(() => (window as any).__tokens.length)).toBe(0);
    expect(await events(page, "assent-error")).toEqual([]);
    await context.close();
  });
});

describe("texts and links from the configuration are data, never code or patterns", () => {
  it("a controller name with $' and $& is shown as written; javascript: and data: policy links are left out", async () => {
    const other = await shopProject(site.origin, {
      controller: { name: "Ca$'h & $& Co", email: "privacy@cash.example" },
      policies: { privacy: "https://cash.example/privacy", terms: "https://cash.example/terms", cookie: "https://cash.example/cookies" },
    });
    site.pages["/cash.html"] = { body: shopPage(other.projectId) };
    const { context, page } = await visitor(browser);
    // The API refuses such links (test/security), so they are put into the answer on the wire: the widget must not
    // trust whatever reaches it (an older record, a compromised proxy).
    await context.route(/\/bootstrap$/, async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      const answer = await route.fetch();
      const body = await answer.json();
      Object.assign(body.configuration.project.policies, { privacy: "javascript:alert(1)", terms: "data:text/html,hi" });
      await route.fulfill({ response: answer, json: body });
    });
    await page.goto(`${site.origin}/cash.html`);
    await banner(page).waitFor({ state: "visible" });
    expect(await banner(page).locator("#banner-text").textContent()).toMatch(/^Ca\$'h & \$& Co would like to use your data/);
    expect(await banner(page).locator("a").evaluateAll((links) => links.map((a) => a.getAttribute("href")))).toEqual(["https://cash.example/cookies"]);
    await context.close();
  });

  it("without a controller, the project's name stands in", async () => {
    const other = await shopProject(site.origin, { controller: null });
    site.pages["/nameless.html"] = { body: shopPage(other.projectId) };
    const { context, page } = await visitor(browser);
    await page.goto(`${site.origin}/nameless.html`);
    await banner(page).waitFor({ state: "visible" });
    expect(await banner(page).locator("#banner-text").textContent()).toMatch(/^E2E shop would like/);
    await context.close();
  });
});
