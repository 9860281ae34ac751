// What Lighthouse (`npm run audit:pages`, docs/audits.md) holds the first pages to, checked in Chromium on every run:
// no failed request or console error, a description and an icon, a robots.txt, touch targets of 24 px, long-lived
// caching for the demo's own files, and a portal sign-in that loads neither the signed-in pages nor a doomed session.
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchBrowser } from "./browser";

const baseUrl = inject("baseUrl");
const adminToken = inject("adminToken");
const firstPages = ["/", "/portal", "/docs"];

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

/** A phone-sized page that records console errors and every answer of 400 or more (favicon requests included). */
async function recordingPage() {
  const page = await browser.newPage({ viewport: { width: 412, height: 823 } });
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("response", (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
  return { page, problems };
}

/** Waits until the browser has asked for the page's icon (Chromium does so after load) and everything is quiet. */
const settled = (page: Page) => page.waitForLoadState("networkidle");

it.each(firstPages)("%s logs no error, fails no request, and has a description and an icon", async (path) => {
  const { page, problems } = await recordingPage();
  await page.goto(`${baseUrl}${path}`);
  await settled(page);
  expect(problems).toEqual([]);
  const { description, icon } = await page.evaluate(() => ({
    description: document.querySelector<HTMLMetaElement>('meta[name="description"]')?.content,
    icon: document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.getAttribute("href"),
  }));
  expect(description?.length).toBeGreaterThan(20);
  expect(icon).toBeTruthy();
  const iconAnswer = await fetch(new URL(icon!, page.url()));
  expect(iconAnswer.status).toBe(200);
  expect(iconAnswer.headers.get("content-type")).toMatch(/^image\//);
  await page.close();
});

it("answers /robots.txt and /favicon.ico, which crawlers and browsers ask for unprompted", async () => {
  const robots = await fetch(`${baseUrl}/robots.txt`);
  expect(robots.status).toBe(200);
  expect(robots.headers.get("content-type")).toMatch(/^text\/plain/);
  const rules = await robots.text();
  expect(rules).toMatch(/^User-agent: \*$/m);
  // The pages stay crawlable: nothing disallows the demo, the reference or the portal's sign-in.
  expect(rules).not.toMatch(/^Disallow: \/(docs|portal)?\s*$/m);
  const icon = await fetch(`${baseUrl}/favicon.ico`);
  expect(icon.status).toBe(200);
  expect(icon.headers.get("content-type")).toMatch(/^image\//);
});

it("/docs: every summary is a target of at least 24 by 24 px on a phone, laid out where it is (none overlaps the next)", async () => {
  const page = await browser.newPage({ viewport: { width: 412, height: 823 } });
  await page.goto(`${baseUrl}/docs`);
  const boxes = await page.evaluate(() => Array.from(document.querySelectorAll("summary"), (summary) => summary.getBoundingClientRect().toJSON() as DOMRect));
  expect(boxes.filter((box) => box.height < 24 || box.width < 24).map((box) => `${box.width}x${box.height}`)).toEqual([]);
  // Lighthouse measures every target of the page at once: one whose layout was skipped (content-visibility) is
  // measured on top of its neighbours.
  expect(boxes.slice(1).filter((box, i) => box.top < boxes[i].bottom).length).toBe(0);
  await page.close();
});

it("/docs lets the page fetch /robots.txt, as Lighthouse does from the page (nothing runs there to use it)", async () => {
  const page = await browser.newPage();
  await page.goto(`${baseUrl}/docs`);
  expect(await page.evaluate(async () => (await fetch("/robots.txt")).status)).toBe(200);
  await page.close();
});

it("the demo's scripts and stylesheets are content-addressed and cached for a year", async () => {
  const page = await browser.newPage();
  const cached: { url: string; cacheControl: string }[] = [];
  page.on("response", async (response) => {
    const type = response.request().resourceType();
    if ((type === "script" || type === "stylesheet") && response.url().startsWith(baseUrl)) {
      cached.push({ url: response.url(), cacheControl: (await response.allHeaders())["cache-control"] ?? "" });
    }
  });
  await page.goto(`${baseUrl}/`);
  await settled(page);
  const urls = cached.map(({ url }) => new URL(url).pathname);
  // The widget, the demo's stylesheet and its script at least.
  expect(urls).toEqual(expect.arrayContaining([expect.stringMatching(/^\/widget\/assent\.[0-9a-f]+\.js$/), expect.stringMatching(/^\/demo\/demo\.[0-9a-f]+\.css$/)]));
  for (const { url, cacheControl } of cached) {
    expect(cacheControl, url).toMatch(/max-age=31536000/);
    expect(cacheControl, url).toMatch(/immutable/);
  }
  await page.close();
});

it("the portal's sign-in asks nothing of the session API without a session, and loads the signed-in pages only after sign-in", async () => {
  const { page, problems } = await recordingPage();
  const sessionCalls: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/portal/api/session") sessionCalls.push(request.method());
  });
  await page.goto(`${baseUrl}/portal`);
  await page.getByLabel("Admin token").waitFor();
  await settled(page);
  expect(sessionCalls).toEqual([]);
  expect(await page.evaluate(() => ["ap-projects", "ap-overview", "ap-configuration"].filter((tag) => customElements.get(tag)))).toEqual([]);

  await page.getByLabel("Admin token").fill(adminToken);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.getByRole("heading", { name: "Projects", level: 1 }).waitFor();
  expect(sessionCalls).toEqual(["POST"]);
  // A reload resumes the session it has a cookie for.
  await page.reload();
  await page.getByRole("heading", { name: "Projects", level: 1 }).waitFor();
  expect(sessionCalls).toEqual(["POST", "GET"]);
  expect(problems).toEqual([]);
  await page.close();
});
