// The consent widget in Debian's Chromium, embedded in pages of another origin (a local Node server), against
// the real service started by global-setup.ts.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { launchBrowser } from "./browser";

const base = inject("baseUrl");
const adminToken = inject("adminToken");
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

type Json = Record<string, any>;

async function api(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: res.status === 204 ? {} : await res.json() };
}

async function ok(method: string, path: string, token: string, body?: unknown) {
  const reply = await api(method, path, token, body);
  if (reply.status >= 300) throw new Error(`${method} ${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body;
}

/** A project like a real shop's: a web client for the host origin, a backend client, three purposes in en+sv. */
async function shopProject(siteOrigin: string) {
  const project = await ok("POST", "/admin/v1/projects", adminToken, {
    name: "E2E shop",
    controller: { name: "Shop AB", email: "privacy@shop.example" },
    policies: { privacy: "https://shop.example/privacy" },
    jurisdiction: "SE",
    defaultLanguage: "en",
  });
  const projectId: string = project.projectId;
  const web = await ok("POST", `/admin/v1/projects/${projectId}/clients`, adminToken, {
    name: "Shop website",
    type: "web",
    allowedOrigins: [siteOrigin],
  });
  const backend = await ok("POST", `/admin/v1/projects/${projectId}/clients`, adminToken, { name: "Shop backend", type: "backend" });
  const tokenRes = await fetch(`${base}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: backend.clientId, client_secret: backend.clientSecret }),
  });
  const token: string = (await tokenRes.json()).access_token;
  const under = (path: string) => `/privacy/v2/projects/${projectId}${path}`;
  const text = (en: string, sv: string) => [
    { language: "en", text: en },
    { language: "sv", text: sv },
  ];
  const party = (referenceId: string, name: string, en: string, sv: string) =>
    ok("POST", under("/configurations/parties"), token, {
      referenceId,
      type: "company",
      details: { name, description: text(en, sv), policies: { privacy: `https://${referenceId}.example/privacy` } },
    });
  const shop = await party("shop", "Shop AB", "Runs the shop.", "Driver butiken.");
  const mailer = await party("mailer", "Mailer Inc", "Sends our newsletters.", "Skickar våra nyhetsbrev.");
  const partner = await party("partner", "Partner AB", "Makes offers with us.", "Gör erbjudanden med oss.");
  const group = (referenceId: string, name: string, en: string, sv: string) =>
    ok("POST", under("/configurations/data-groups"), token, { referenceId, name, description: text(en, sv) });
  const email = await group("email", "E-mail address", "Where we send offers.", "Dit vi skickar erbjudanden.");
  const usage = await group("usage", "Pages visited", "Which pages you open.", "Vilka sidor du öppnar.");
  const purpose = (body: Json) => ok("POST", under("/configurations/purposes"), token, { ...body, controllers: [shop.partyId] });
  const marketing = await purpose({
    referenceId: "marketing",
    name: "Marketing",
    description: text("Offers by e-mail, tailored to what you bought.", "Erbjudanden via e-post, anpassade efter dina köp."),
    legalGround: "consent",
    dataGroups: [email.dataGroupId],
    processors: [mailer.partyId],
    recipients: [partner.partyId],
  });
  const analytics = await purpose({
    referenceId: "analytics",
    name: "Analytics",
    description: text("Counting visits to improve the shop.", "Räknar besök för att förbättra butiken."),
    legalGround: "consent",
    dataGroups: [usage.dataGroupId],
  });
  const fraud = await purpose({
    referenceId: "fraud",
    name: "Fraud prevention",
    description: text("Checks orders for fraud.", "Kontrollerar beställningar mot bedrägerier."),
    legalGround: "legitimate_interests",
  });
  return { projectId, token, under, webClientId: web.clientId as string, marketing, analytics, fraud, email, mailer, partner, usage };
}

/** The host site: plain pages on another origin, each with the widget's one script tag. */
function hostPages(projectId: string, assent: string) {
  const element = (attrs = "") =>
    `<assent-consent project="${projectId}" application="e2e-shop" internal-reference="order-42" ${attrs}></assent-consent>`;
  const body = (attrs = "") => `<h1>Shop</h1><button id="settings">Privacy settings</button>
    <p id="gated">not run</p>
    <script type="text/plain" data-assent-purpose="marketing" src="/gated.js"></script>
    ${element(attrs)}`;
  const html = (head: string, content: string) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>${head}</head><body>${content}</body></html>`;
  const moduleTag = `<script type="module" src="${assent}/widget/assent.js"></script>`;
  return {
    "/plain.html": { body: html(moduleTag, body()) },
    "/swedish.html": { body: html(moduleTag, body('lang="sv"')) },
    "/classic.html": { body: html(`<script src="${assent}/widget/assent.classic.js"></script>`, body()) },
    "/down.html": { body: html(moduleTag, body('api="http://127.0.0.1:9"')) },
    "/strict.html": {
      body: html(moduleTag, body()),
      headers: {
        "content-security-policy":
          `default-src 'self'; script-src 'self' ${assent}; style-src 'self'; connect-src ${assent}; ` +
          "img-src 'self'; base-uri 'none'; object-src 'none'",
      },
    },
    "/gated.js": { body: `document.getElementById("gated").textContent = "ran";`, type: "text/javascript" },
  } as Record<string, { body: string; headers?: Record<string, string>; type?: string }>;
}

let browser: Browser;
let site: Server;
let siteOrigin: string;
let shop: Awaited<ReturnType<typeof shopProject>>;
let pages: ReturnType<typeof hostPages> = {};

beforeAll(async () => {
  site = createServer((req, res) => {
    const page = pages[new URL(req.url ?? "/", "http://x").pathname];
    if (!page) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": `${page.type ?? "text/html"}; charset=utf-8`, ...page.headers }).end(page.body);
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  // "localhost" and "127.0.0.1" are different origins: the pages are cross-origin to the service.
  siteOrigin = `http://localhost:${(site.address() as AddressInfo).port}`;
  shop = await shopProject(siteOrigin);
  pages = hostPages(shop.projectId, base);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => site?.close(resolve));
});

/** A fresh visitor (own storage), recording CSP violations, native-bridge messages and widget events. */
async function visitor(options: { gpc?: boolean; native?: Json } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US" });
  await context.addInitScript(
    ({ gpc, native }) => {
      const w = window as any;
      w.__violations = [];
      w.__events = [];
      w.__native = [];
      document.addEventListener("securitypolicyviolation", (e) => w.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
      for (const type of ["assent-ready", "assent-change", "assent-error"]) {
        document.addEventListener(type, (e) => w.__events.push({ type, detail: (e as CustomEvent).detail }));
      }
      if (gpc) Object.defineProperty(Navigator.prototype, "globalPrivacyControl", { get: () => true });
      w.webkit = { messageHandlers: { assent: { postMessage: (m: unknown) => w.__native.push(["ios", m]) } } };
      w.AssentAndroid = { postMessage: (m: string) => w.__native.push(["android", JSON.parse(m)]) };
      if (native) w.AssentNative = native;
    },
    { gpc: options.gpc ?? false, native: options.native },
  );
  return { context, page: await context.newPage() };
}

const dialog = (page: Page) => page.locator("assent-consent dialog");
const events = (page: Page, type: string) =>
  page.evaluate((t) => (window as any).__events.filter((e: Json) => e.type === t).map((e: Json) => e.detail), type);

/** What has focus, looking into shadow roots: its accessible label or text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return active ? (active.getAttribute("aria-label") ?? active.textContent?.trim() ?? active.tagName) : null;
  });

async function tabTo(page: Page, label: string) {
  for (let i = 0; i < 40; i++) {
    if ((await focused(page)) === label) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`Tab never reached ${label}; focus is on ${await focused(page)}`);
}

const switchStates = (page: Page) =>
  page.evaluate(() => {
    const root = document.querySelector("assent-consent")!.shadowRoot!;
    return Object.fromEntries(
      Array.from(root.querySelectorAll<HTMLInputElement>(".purpose > .row [role=switch]")).map((s) => [s.getAttribute("aria-label"), s.checked]),
    );
  });

describe("a first visit on a plain page with one script tag", () => {
  let context: BrowserContext;
  let page: Page;
  let identityId: string;

  beforeAll(async () => {
    ({ context, page } = await visitor());
    await page.goto(`${siteOrigin}/plain.html`);
    await dialog(page).waitFor({ state: "visible" });
  });
  afterAll(() => context.close());

  it("opens by itself, labelled, modal, with nothing pre-approved", async () => {
    const ready = await events(page, "assent-ready");
    expect(ready).toHaveLength(1);
    identityId = ready[0].identityId;
    expect(identityId).toMatch(/^idn_/);
    expect(await dialog(page).getAttribute("aria-modal")).toBe("true");
    expect(await page.getByRole("dialog", { name: "Your privacy choices" }).count()).toBe(1);
    expect(await switchStates(page)).toEqual({ Marketing: false, Analytics: false });
    expect(await page.locator("assent-consent .note").count()).toBe(0); // no GPC notice without GPC
    // The three choices are equally prominent: same size and colours.
    const looks = await page.locator("assent-consent footer button").evaluateAll((buttons) =>
      buttons.map((b) => {
        const s = getComputedStyle(b);
        return [b.getBoundingClientRect().width, b.getBoundingClientRect().height, s.backgroundColor, s.color, s.fontWeight];
      }),
    );
    expect(looks).toHaveLength(3);
    expect(new Set(looks.map((l) => JSON.stringify(l))).size).toBe(1);
  });

  it("keeps Tab inside the dialog", async () => {
    const seen = new Set<string | null>();
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press("Tab");
      const inside = await page.evaluate(() => document.activeElement?.tagName === "ASSENT-CONSENT");
      expect(inside).toBe(true);
      seen.add(await focused(page));
    }
    expect(seen).toContain("Reject all");
    expect(seen).toContain("Close");
  });

  it("axe finds no violations in the open dialog, details expanded", async () => {
    await page.locator("assent-consent details").evaluateAll((all) => all.forEach((d) => ((d as HTMLDetailsElement).open = true)));
    await page.addScriptTag({ content: axeSource });
    const result = await page.evaluate(async () => {
      const axe = (window as any).axe;
      const { violations } = await axe.run(document.querySelector("assent-consent"), {
        runOnly: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"],
      });
      return violations.map((v: Json) => ({ id: v.id, nodes: v.nodes.map((n: Json) => n.target) }));
    });
    expect(result).toEqual([]);
  });

  it("looks like a product people trust (screenshot kept in test/artifacts)", async () => {
    mkdirSync("test/artifacts", { recursive: true });
    await page.locator("assent-consent details").evaluateAll((all) => all.forEach((d, i) => ((d as HTMLDetailsElement).open = i === 0)));
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.screenshot({ path: "test/artifacts/widget-dialog.png" });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: "test/artifacts/widget-mobile.png" });
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("is operated by keyboard alone: toggle Marketing, save", async () => {
    await tabTo(page, "Marketing");
    await page.keyboard.press("Space");
    expect(await switchStates(page)).toEqual({ Marketing: true, Analytics: false });
    await tabTo(page, "Save choices");
    await page.keyboard.press("Enter");
    await dialog(page).waitFor({ state: "hidden" });
    const [change] = await events(page, "assent-change");
    expect(change.consents).toEqual({ marketing: true, analytics: false, fraud: true });
    expect(await page.locator("#gated").textContent()).toBe("ran");
    expect(await page.evaluate(() => (document.querySelector("assent-consent") as any).hasConsent("analytics"))).toBe(false);
    // Native bridges got the same state.
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

  it("finds the visitor again through the hash of the key kept in localStorage", async () => {
    const key = await page.evaluate(() => Object.entries(localStorage).find(([k]) => k.startsWith("assent:"))?.[1]);
    const hash = createHash("sha256").update(key!).digest("hex");
    const identity = await ok("GET", shop.under(`/identities/aliases/${encodeURIComponent(`urn:svc:assent-visitor:${hash}`)}`), shop.token);
    expect(identity.identityId).toBe(identityId);
  });

  it("shows the saved state after a reload, without asking again, and returns focus on Escape", async () => {
    await page.reload();
    await page.waitForFunction(() => (window as any).__events.some((e: Json) => e.type === "assent-ready"));
    expect((await events(page, "assent-ready"))[0].identityId).toBe(identityId);
    expect(await dialog(page).isVisible()).toBe(false);
    expect(await page.locator("#gated").textContent()).toBe("ran");
    await page.locator("#settings").focus();
    await page.evaluate(() => (document.querySelector("assent-consent") as any).show());
    await dialog(page).waitFor({ state: "visible" });
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
  it("with Global Privacy Control: everything consent-based starts off and the dialog says why", async () => {
    const { context, page } = await visitor({ gpc: true });
    await page.goto(`${siteOrigin}/plain.html`);
    await dialog(page).waitFor({ state: "visible" });
    expect(await page.locator("assent-consent .note").textContent()).toContain("Global Privacy Control");
    expect(await switchStates(page)).toEqual({ Marketing: false, Analytics: false });
    await page.getByRole("button", { name: "Reject all" }).click();
    await dialog(page).waitFor({ state: "hidden" });
    expect((await events(page, "assent-change"))[0].consents).toMatchObject({ marketing: false, analytics: false });
    await context.close();
  });

  it("under a strict Content-Security-Policy: styled, no violations, and it saves", async () => {
    const { context, page } = await visitor();
    await page.goto(`${siteOrigin}/strict.html`);
    await dialog(page).waitFor({ state: "visible" });
    expect(await dialog(page).evaluate((d) => getComputedStyle(d).borderTopLeftRadius)).toBe("14px");
    await page.getByRole("button", { name: "Accept all" }).click();
    await dialog(page).waitFor({ state: "hidden" });
    expect((await events(page, "assent-change"))[0].consents).toEqual({ marketing: true, analytics: true, fraud: true });
    expect(await page.locator("#gated").textContent()).toBe("ran");
    expect(await page.evaluate(() => (window as any).__violations)).toEqual([]);
    await context.close();
  });

  it("in Swedish, texts and the recorded language follow lang", async () => {
    const { context, page } = await visitor();
    await page.goto(`${siteOrigin}/swedish.html`);
    await dialog(page).waitFor({ state: "visible" });
    expect(await page.getByRole("dialog", { name: "Dina integritetsval" }).count()).toBe(1);
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
    const { context, page } = await visitor({ native: { token: minted.access_token } });
    await page.goto(`${siteOrigin}/plain.html`);
    await dialog(page).waitFor({ state: "visible" });
    expect((await events(page, "assent-ready"))[0].identityId).toBe(identity.identityId);
    await page.getByRole("button", { name: "Accept all" }).click();
    await dialog(page).waitFor({ state: "hidden" });
    const state = await ok("GET", shop.under(`/identities/${identity.identityId}/permission-state`), shop.token);
    expect(state.purposes.map((p: Json) => [p.referenceId, p.status]).sort()).toEqual([["analytics", "approved"], ["marketing", "approved"]]);
    expect(await page.evaluate(() => Object.keys(localStorage).length)).toBe(0); // no visitor identity was made
    await context.close();
  });

  it("the classic-script build works where modules cannot be used", async () => {
    const { context, page } = await visitor();
    await page.goto(`${siteOrigin}/classic.html`);
    await dialog(page).waitFor({ state: "visible" });
    expect(await switchStates(page)).toEqual({ Marketing: false, Analytics: false });
    await context.close();
  });

  it("when the API is down the page keeps working, the dialog says so and nothing claims to be saved", async () => {
    const { context, page } = await visitor();
    await page.goto(`${siteOrigin}/down.html`);
    await page.waitForFunction(() => (window as any).__events.some((e: Json) => e.type === "assent-error"));
    expect(await dialog(page).isVisible()).toBe(false);
    expect(await page.locator("h1").textContent()).toBe("Shop");
    await page.evaluate(() => (document.querySelector("assent-consent") as any).show());
    await dialog(page).waitFor({ state: "visible" });
    await page.locator("assent-consent [role=alert]").waitFor();
    expect(await page.locator("assent-consent [role=alert]").textContent()).toContain("could not be reached");
    expect(await page.locator("assent-consent footer button[disabled]").count()).toBe(3);
    expect(await events(page, "assent-change")).toEqual([]);
    expect(await page.locator("#gated").textContent()).toBe("not run");
    await context.close();
  });
});

describe("serving the widget", () => {
  it("serves the stable name briefly cached and the hashed name immutable, both readable cross-origin", async () => {
    const manifest = await (await fetch(`${base}/widget/manifest.json`)).json();
    const stable = await fetch(`${base}/widget/assent.js`);
    const hashed = await fetch(`${base}/widget/${manifest["assent.js"].file}`);
    expect(stable.headers.get("cache-control")).toContain("max-age=300");
    expect(hashed.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(stable.headers.get("access-control-allow-origin")).toBe("*");
    expect(stable.headers.get("content-type")).toContain("javascript");
    const code = Buffer.from(await hashed.arrayBuffer());
    expect(`sha384-${createHash("sha384").update(code).digest("base64")}`).toBe(manifest["assent.js"].integrity);
    expect(manifest["assent.classic.js"].gzipBytes).toBeLessThanOrEqual(12 * 1024);
    expect(manifest["assent.js"].gzipBytes).toBeLessThanOrEqual(12 * 1024);
  });

  it("the demo page at / shows the widget working on the seeded project", async () => {
    const { context, page } = await visitor();
    await page.goto(`${base}/`);
    await page.waitForFunction(() => (window as any).__events.some((e: Json) => e.type === "assent-ready"));
    expect(await page.locator("#identity").textContent()).toMatch(/Visitor identity: idn_/);
    expect(await page.evaluate(() => (window as any).__violations)).toEqual([]);
    await context.close();
  });
});
