// What the portal's browser tests share: a Chromium page that records script errors, axe scans, screenshots,
// and the steps that set the scene (sign in, create a project, create a backend client and get its token).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Browser, BrowserContext, Locator, Page, Request } from "playwright-core";
import { expect, inject, vi } from "vitest";
import { createDemoProject, demoName } from "../../scripts/seed.mjs";
import { artifactPath, launchBrowser } from "./browser";

export const baseUrl = inject("baseUrl");
export const adminToken = inject("adminToken");
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export type PortalBrowser = { browser: Browser; context: BrowserContext; page: Page; pageErrors: string[] };

/**
 * A project made as the seeded demo is: browser test files run side by side, so a file that edits the demo's settings
 * edits its own copy, not the demo other files are looking at. Named apart, as the seed finds the demo by its name.
 */
export const demoCopy = (): Promise<string> => createDemoProject(baseUrl, adminToken, `${demoName} (copy)`);

/** Each portal page's calls to the service that have not been answered yet, with when each left. */
const unanswered = new WeakMap<Page, Map<Request, number>>();

function trackCalls(page: Page) {
  const calls = new Map<Request, number>();
  page.on("request", (request) => void (request.url().startsWith(baseUrl) && calls.set(request, Date.now())));
  page.on("requestfinished", (request) => void calls.delete(request));
  page.on("requestfailed", (request) => void calls.delete(request));
  unanswered.set(page, calls);
}

/** A desktop-sized page; uncaught errors and CSP refusals are collected so a test can assert there were none. */
export async function openPortalBrowser(): Promise<PortalBrowser> {
  const browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, acceptDownloads: true });
  const page = await context.newPage();
  trackCalls(page);
  const pageErrors: string[] = [];
  page.on("pageerror", (error) => pageErrors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy/i.test(message.text())) pageErrors.push(message.text());
  });
  return { browser, context, page, pageErrors };
}

/**
 * axe-core in every frame of the page (the consent preview included), then a WCAG 2.2 A/AA run, once every finite
 * animation has ended (a banner caught fading in has the contrast of its half-way opacity). A document's
 * getAnimations() leaves out shadow trees, where the widget's fade-in runs, so each shadow root is asked too.
 */
export async function expectAccessible(page: Page, name: string) {
  for (const frame of page.frames()) {
    await frame.evaluate(() => {
      const roots: (Document | ShadowRoot)[] = [document];
      for (let i = 0; i < roots.length; i++)
        roots.push(...Array.from(roots[i].querySelectorAll("*"), (element) => element.shadowRoot).filter((root) => root !== null));
      return Promise.all(
        roots
          .flatMap((root) => root.getAnimations())
          .filter((animation) => animation.effect?.getComputedTiming().iterations !== Infinity)
          .map((animation) => animation.finished.catch(() => undefined)),
      );
    });
    await frame.evaluate(axeSource);
  }
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: unknown[] }> } }).axe.run(
      document,
      { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] } },
    );
    return (result.violations as { id: string; help: string; nodes: { target: string[] }[] }[]).map(
      (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`,
    );
  });
  expect(violations, `axe violations on ${name}`).toEqual([]);
}

/** A picture kept as portal-<name>.png in the screenshots folder (browser.ts); passing confirmations are left out so they do not cover the page. */
export const shot = (page: Page, name: string, { fullPage = true } = {}) =>
  page.screenshot({ path: artifactPath(`portal-${name}`), fullPage, style: ".toast-region { display: none; }" });

/** Waits for the page to catch up: generous, since the machine is shared and the service runs in wrangler dev. */
export const poll = <T>(read: () => Promise<T> | T, timeout = 15_000) => expect.poll(read, { timeout });

/**
 * Waits for `locator` to show; if the page shows a problem instead (`role="alert"`: a failed load), fails at once
 * with its text, so a failure says what the service answered rather than only that something did not appear. When
 * neither shows, the failure says what the page shows instead and which of its calls to the service are unanswered.
 */
export async function shown(page: Page, locator: Locator) {
  const problem = page.locator('[role="alert"]');
  // The first of them that is visible: a hidden alert earlier in the page (a closed dialog's) is not the answer.
  await locator.or(problem).filter({ visible: true }).first().waitFor().catch(async (error: Error) => {
    const main = await page.locator("main").innerText({ timeout: 1000 }).catch(() => "(no main)");
    const calls = [...(unanswered.get(page) ?? [])].map(([call, sent]) => `${call.method()} ${new URL(call.url()).pathname} (${Math.round((Date.now() - sent) / 1000)} s)`);
    throw new Error(`${error.message}\nThe page ${page.url()} shows: ${main.replace(/\s+/g, " ").slice(0, 400)}\nIts unanswered calls to the service: ${calls.join(", ") || "none"}`);
  });
  if (!(await locator.first().isVisible())) throw new Error(`The page shows a problem instead: ${(await problem.allInnerTexts()).join(" | ")}`);
}

export const dialog = (page: Page, id: string) => page.locator(`dialog#${id}`);

/** A call to the API with a bearer token, as an integrating backend makes it. */
export async function api(token: string, method: string, path: string, body?: unknown) {
  const res = await fetch(baseUrl + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  // Accepted (202) and No Content (204) answers may carry no body.
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/**
 * The newest sign-in link's secret mailed to `to` (an invitation or a sign-in link), read from the captured outbox of
 * the admin token's organization, which the outbox keeps under the organization's id.
 */
export async function mailedSignInSecret(to: string): Promise<string> {
  const organizationId = (await api(adminToken, "GET", "/admin/v1/audit?limit=1")).body.items[0].organizationId as string;
  // vi.waitFor, not expect.poll: this also runs in beforeAll.
  return vi.waitFor(
    async () => {
      const mailed = await api(adminToken, "GET", `/admin/v1/projects/${organizationId}/email-outbox?to=${encodeURIComponent(to)}`);
      const secret = /#sign-in=(sil_[A-Za-z0-9_-]+)/.exec(mailed.body.items[0]?.text ?? "")?.[1];
      if (!secret) throw new Error(`no sign-in link mailed to ${to} yet`);
      return secret;
    },
    { timeout: 30_000, interval: 100 },
  );
}

/**
 * A portal session opened outside the browser (`{ link }` or `{ adminToken }`), and a call in it as the portal makes
 * one: the cookie, the CSRF token, the same origin. `status` reads the session itself (401 once it has ended).
 */
export async function portalSession(credential: { link: string } | { adminToken: string }) {
  const opened = await fetch(`${baseUrl}/portal/api/session`, {
    method: "POST",
    headers: { origin: baseUrl, "content-type": "application/json" },
    body: JSON.stringify(credential),
  });
  expect(opened.status).toBe(201);
  const cookie = /(__Host-assent_portal=[^;]+)/.exec(opened.headers.get("set-cookie") ?? "")![1];
  const { csrfToken } = (await opened.json()) as { csrfToken: string };
  return {
    call: async (method: string, path: string, body: unknown) => {
      const reply = await fetch(baseUrl + path, {
        method,
        headers: { cookie, origin: baseUrl, "x-csrf-token": csrfToken, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return { status: reply.status, body: (await reply.json()) as Record<string, string> };
    },
    status: async () => (await fetch(`${baseUrl}/portal/api/session`, { headers: { cookie } })).status,
  };
}

/** The client-credentials grant, answered as it is (status and body), so refusals can be asserted too. */
export async function tokenStatus(clientId: string, clientSecret: string) {
  const res = await fetch(`${baseUrl}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret }),
  });
  return { status: res.status, body: await res.json() };
}

/** Signs in with the admin token and lands on the project list. */
export async function signIn(page: Page) {
  await page.goto(`${baseUrl}/portal/`);
  await page.getByLabel("Admin token").fill(adminToken);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.getByRole("heading", { name: "Projects", level: 1 }).waitFor();
}

export type NewProject = { name: string; legalName: string; email: string; privacyPolicy: string; jurisdiction: string };

/**
 * Fills the open “New project” dialog, submits it and waits for the new project's clients page.
 * Returns the project's id, read from the address.
 */
export async function submitNewProject(page: Page, project: NewProject) {
  const form = dialog(page, "new-project");
  await form.getByLabel("Project name").fill(project.name);
  await form.getByLabel("Legal name").fill(project.legalName);
  await form.getByLabel("Privacy e-mail").fill(project.email);
  await form.getByLabel("Privacy policy URL").fill(project.privacyPolicy);
  await form.getByLabel("Jurisdiction").fill(project.jurisdiction);
  await form.getByRole("button", { name: "Create project" }).click();
  await page.getByRole("heading", { name: "Clients", level: 2 }).waitFor();
  const projectId = decodeURIComponent(new URL(page.url()).pathname.split("/")[3]);
  expect(projectId).toMatch(/^prj_/);
  return projectId;
}

/**
 * Creates a backend client on the clients page and reads the id and secret from the dialog that shows the
 * secret once. The dialog is left open for the caller to inspect and close (`closeSecretDialog`).
 */
export async function createBackendClient(page: Page, name: string) {
  await page.getByRole("button", { name: "New client" }).click();
  const form = dialog(page, "new-client");
  await form.getByLabel("Name").fill(name);
  await form.getByLabel(/Backend/).check();
  await form.getByRole("button", { name: "Create client" }).click();
  const secretDialog = dialog(page, "client-secret");
  await secretDialog.getByRole("heading", { name: `Client “${name}” created` }).waitFor();
  const clientSecret = await secretDialog.getByLabel("Client secret").inputValue();
  const clientId = (await secretDialog.locator("#new-client-id").textContent())!.trim();
  return { clientId, clientSecret, secretDialog };
}

/** Closes the secret dialog the way an operator does, after storing the secret. */
export async function closeSecretDialog(page: Page) {
  const secretDialog = dialog(page, "client-secret");
  await secretDialog.getByRole("button", { name: "I have stored the secret" }).click();
  await poll(() => secretDialog.evaluate((d) => (d as HTMLDialogElement).open)).toBe(false);
}

/** An access token for a client, from its id and secret. */
export async function accessToken(clientId: string, clientSecret: string): Promise<string> {
  const issued = await tokenStatus(clientId, clientSecret);
  expect(issued.status).toBe(200);
  return issued.body.access_token;
}
