// What the widget's browser tests share: the real service (global-setup.ts), a shop-like project made through its
// API, host pages on another origin, and fresh visitors that record what the widget tells the page.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { inject } from "vitest";

export const base = inject("baseUrl");
export const adminToken = inject("adminToken");
export const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export type Json = Record<string, any>;

export async function api(method: string, path: string, token: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: res.status === 204 ? {} : await res.json() };
}

export async function ok(method: string, path: string, token: string, body?: unknown) {
  const reply = await api(method, path, token, body);
  if (reply.status >= 300) throw new Error(`${method} ${path}: ${reply.status} ${JSON.stringify(reply.body)}`);
  return reply.body;
}

/** A project like a real shop's: a web client for the host origin, a backend client, three purposes in en+sv. */
export async function shopProject(
  siteOrigin: string,
  {
    controller = { name: "Shop AB", email: "privacy@shop.example" } as Json | null,
    policies = { privacy: "https://shop.example/privacy" } as Json,
    // Locally the project's jurisdiction stands in for the visitor's place (worker/jurisdictions/local.ts).
    jurisdiction = "SE",
  } = {},
) {
  const project = await ok("POST", "/admin/v1/projects", adminToken, {
    name: "E2E shop",
    ...(controller ? { controller } : {}),
    policies,
    jurisdiction,
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
  const party = (referenceId: string, name: string, en: string, sv: string, policies: Json = { privacy: `https://${referenceId}.example/privacy` }) =>
    ok("POST", under("/configurations/parties"), token, { referenceId, type: "company", details: { name, description: text(en, sv), policies } });
  const shop = await party("shop", "Shop AB", "Runs the shop.", "Driver butiken.");
  const mailer = await party("mailer", "Mailer Inc", "Sends our newsletters.", "Skickar våra nyhetsbrev.");
  const partner = await party("partner", "Partner AB", "Makes offers with us.", "Gör erbjudanden med oss.");
  const group = (referenceId: string, name: string, en: string, sv: string) =>
    ok("POST", under("/configurations/data-groups"), token, { referenceId, name, description: text(en, sv) });
  const email = await group("email", "E-mail address", "Where we send offers.", "Dit vi skickar erbjudanden.");
  const usage = await group("usage", "Pages visited", "Which pages you open.", "Vilka sidor du öppnar.");
  // Purposes carry their Consent Mode types, and the project turns Consent Mode on.
  await ok("PUT", `/admin/v1/projects/${projectId}/consent-mode`, adminToken, {
    enabled: true,
    waitForUpdate: 500,
    urlPassthrough: true,
    adsDataRedaction: true,
  });
  const purpose = (body: Json) =>
    ok("POST", under("/configurations/purposes"), token, {
      ...body,
      controllers: [shop.partyId],
      consentMode: consentModeOf[body.referenceId] ?? [],
    });
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
  return { projectId, token, under, webClientId: web.clientId as string, shop, marketing, analytics, fraud, email, mailer, partner, usage };
}
export type Shop = Awaited<ReturnType<typeof shopProject>>;

type Pages = Record<string, { body: string; headers?: Record<string, string>; type?: string }>;

/** The host site: plain pages on another origin ("localhost" while the service is on 127.0.0.1). */
export async function hostSite(): Promise<{ origin: string; pages: Pages; close(): Promise<void> }> {
  const pages: Pages = {};
  const server: Server = createServer((req, res) => {
    const page = pages[new URL(req.url ?? "/", "http://x").pathname];
    if (!page) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": `${page.type ?? "text/html"}; charset=utf-8`, ...page.headers }).end(page.body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://localhost:${(server.address() as AddressInfo).port}`,
    pages,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export const moduleTag = `<script type="module" src="${base}/widget/assent.js"></script>`;

/**
 * A page with the widget's one script tag, a gated script, a settings button and the element, in the opt-in regime
 * unless `attrs` names another (the first of two attributes wins; the service honours it in local development).
 */
/** `regime`: the regime the element forces (`attrs` may force another: the first attribute wins); null forces none. */
export function shopPage(
  projectId: string,
  { attrs = "", head = moduleTag, lang = "en", extra = "", htmlAttrs = "", regime = "opt-in" as string | null } = {},
) {
  return `<!doctype html><html lang="${lang}" ${htmlAttrs}><head><meta charset="utf-8"><title>Shop</title>${head}</head><body>
    <h1>Shop</h1><button id="settings">Privacy settings</button>
    <p id="gated">not run</p>
    <script type="text/plain" data-assent-purpose="marketing" src="/gated.js"></script>
    ${extra}
    <assent-consent project="${projectId}" application="e2e-shop" internal-reference="order-42" ${attrs} ${regime ? `regime="${regime}"` : ""}></assent-consent></body></html>`;
}

export const gatedScript = { body: `document.getElementById("gated").textContent = "ran";`, type: "text/javascript" };

/** Waits for the gated script to run: once released it is fetched from the host site, so it runs a moment after the decision. */
export const gatedRan = (page: Page) => page.locator("#gated", { hasText: /^ran$/ }).waitFor();

type VisitorOptions = {
  gpc?: boolean;
  native?: Json;
  viewport?: { width: number; height: number };
  locale?: string;
  colorScheme?: "light" | "dark";
  forcedColors?: "active" | "none";
  reducedMotion?: "reduce" | "no-preference";
};

/** What `visitor` records on the page's window, and the native bridges it stands in for. */
export type Recorded = {
  __violations: string[];
  __events: { type: string; detail: Json }[];
  __native: [string, unknown][];
  webkit?: { messageHandlers: { assent: { postMessage(message: unknown): void } } };
  AssentAndroid?: { postMessage(message: string): void };
  AssentNative?: Json;
  dataLayer?: unknown[];
};

/** A fresh visitor (own storage), recording CSP violations, native-bridge messages and widget events. */
export async function visitor(browser: Browser, options: VisitorOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 900 },
    locale: options.locale ?? "en-US",
    colorScheme: options.colorScheme ?? "light",
    forcedColors: options.forcedColors ?? "none",
    reducedMotion: options.reducedMotion ?? "no-preference",
    extraHTTPHeaders: options.gpc ? { "sec-gpc": "1" } : {},
  });
  await context.addInitScript(
    ({ gpc, native }) => {
      const w = window as unknown as Recorded;
      w.__violations = [];
      w.__events = [];
      w.__native = [];
      document.addEventListener("securitypolicyviolation", (e) => w.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
      for (const type of ["assent-ready", "assent-change", "assent-error", "assent-dismiss"]) {
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

/** axe over the widget once its fade-ins have ended: a layer caught mid-animation has the contrast of its opacity then. */
export async function axeRun(page: Page) {
  return page.evaluate(async () => {
    const axe = (window as any).axe;
    const animations = document.querySelector("assent-consent")!.shadowRoot!.getAnimations();
    await Promise.all(animations.filter((a) => a.effect?.getComputedTiming().iterations !== Infinity).map((a) => a.finished.catch(() => undefined)));
    const { violations } = await axe.run(document.querySelector("assent-consent"), {
      runOnly: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"],
    });
    return violations.map((v: Json) => ({ id: v.id, nodes: v.nodes.map((n: Json) => n.target) }));
  });
}

export const banner = (page: Page) => page.locator("assent-consent [part~=banner]");
export const dialog = (page: Page) => page.locator("assent-consent dialog");
export const events = (page: Page, type: string) =>
  page.evaluate((t) => (window as unknown as Recorded).__events.filter((e) => e.type === t).map((e) => e.detail), type);
export const waitForEvent = (page: Page, type: string) =>
  page.waitForFunction((t) => (window as unknown as Recorded).__events.some((e) => e.type === t), type);

/**
 * Waits until the widget has taken the service's answer for a visitor who decided before: the stored decision is
 * announced at once with no saved purposes, and the purposes this visitor answered come only with the answer. The
 * widget acts on the answer in the same task (a first layer that asks again is rendered in its microtasks), so once
 * this returns, "no banner" means the service's answer asked for none.
 */
export const answeredByService = (page: Page) =>
  page.waitForFunction(() => ((document.querySelector("assent-consent") as any)?.consent?.purposes.length ?? 0) > 0);

/** What the page's dataLayer holds, gtag commands (arguments objects) as arrays, GTM events as they are. */
export const dataLayer = (page: Page) =>
  page.evaluate(() =>
    ((window as unknown as Recorded).dataLayer ?? []).map((entry): unknown =>
      typeof entry === "object" && entry !== null && "length" in entry ? Array.from(entry as ArrayLike<unknown>) : entry,
    ),
  );

/** What has focus, looking into shadow roots: its accessible label or text. */
export const focused = (page: Page) =>
  page.evaluate(() => {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return active ? (active.getAttribute("aria-label") ?? active.textContent?.trim() ?? active.tagName) : null;
  });

export async function tabTo(page: Page, label: string) {
  for (let i = 0; i < 40; i++) {
    if ((await focused(page)) === label) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(`Tab never reached ${label}; focus is on ${await focused(page)}`);
}

export const switchStates = (page: Page) =>
  page.evaluate(() => {
    const root = document.querySelector("assent-consent")!.shadowRoot!;
    return Object.fromEntries(
      Array.from(root.querySelectorAll<HTMLInputElement>(".purpose > .row [role=switch]")).map((s) => [s.getAttribute("aria-label"), s.checked]),
    );
  });

/** Requests the page made to the service, in order: method and path. */
type Seen = { method: string; path: string; headers: Record<string, string>; body?: string; status?: number };
export function recordRequests(page: Page): Seen[] {
  const seen: Seen[] = [];
  const byRequest = new Map<unknown, Seen>();
  page.on("request", (request) => {
    if (!request.url().startsWith(base)) return;
    const entry = { method: request.method(), path: new URL(request.url()).pathname, headers: request.headers(), body: request.postData() ?? undefined };
    byRequest.set(request, entry);
    seen.push(entry);
  });
  page.on("response", (response) => {
    const entry = byRequest.get(response.request());
    if (entry) entry.status = response.status();
  });
  return seen;
}

/** The calls that made a new visitor identity: a visitor token minted (201), or a bootstrap that minted without a key. */
export const identitiesMade = (requests: Seen[]) =>
  requests.filter(
    (r) =>
      r.method === "POST" &&
      ((r.path.endsWith("/visitor-tokens") && r.status === 201) ||
        (r.path.endsWith("/bootstrap") && r.status === 200 && !r.headers.authorization && !JSON.parse(r.body ?? "{}").visitorKey)),
  ).length;

/** Which Consent Mode types the shop's purposes stand for. */
const consentModeOf: Record<string, string[]> = {
  marketing: ["ad_storage", "ad_user_data", "ad_personalization"],
  analytics: ["analytics_storage"],
};

/** Bodies of every permission the page posts, recorded as they leave the browser (the real service answers). */
export function recordPermissionBodies(context: BrowserContext): Json[] {
  const bodies: Json[] = [];
  context.on("request", (request) => {
    if (request.method() === "POST" && /\/privacy\/v2\/projects\/[^/]+\/permissions$/.test(request.url())) {
      bodies.push(JSON.parse(request.postData() || "{}"));
    }
  });
  return bodies;
}
