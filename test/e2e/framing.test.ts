// Finding: /portal/app and /portal/preview (static files) had no CSP and no frame-ancestors, so another site could
// frame the portal and trick an operator into clicks. Here a page of another origin frames each portal page in a
// real Chromium, and none of them loads; the preview still loads inside the portal itself. Also: the cron, run
// as `npm start` runs it, succeeds on a fresh start.
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchBrowser } from "./browser";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

/** Opens a page of another origin that frames `target`, and tells whether the framed document loaded. */
async function framedFromElsewhere(page: Page, target: string) {
  // Another origin on this machine: the same server under the name localhost (a public origin could not frame
  // loopback at all, by Chromium's private network rules).
  await page.goto(inject("baseUrl").replace("127.0.0.1", "localhost") + "/healthz");
  await page.setContent(`<!doctype html><iframe src="${target}"></iframe>`, { waitUntil: "load" });
  // A frame refused by frame-ancestors never gets the target's document (Chromium shows its error page instead).
  const frames = page.frames().filter((f) => f !== page.mainFrame());
  return { frames: frames.length, loaded: frames.some((f) => f.url().startsWith(inject("baseUrl"))) };
}

for (const path of ["/portal", "/portal/app", "/portal/preview", "/portal/projects", "/docs", "/"]) {
  it(`refuses to be framed by another site: ${path}`, async () => {
    const page = await browser.newPage();
    const response = await page.request.get(`${inject("baseUrl")}${path}`);
    expect(response.headers()["content-security-policy"]).toMatch(/frame-ancestors '(none|self)'/);
    expect(response.headers()["x-content-type-options"]).toBe("nosniff");
    expect(response.headers()["referrer-policy"]).toBeTruthy();
    const result = await framedFromElsewhere(page, `${inject("baseUrl")}${path}`);
    expect(result.frames).toBe(1);
    expect(result.loaded).toBe(false);
    await page.close();
  });
}

it("detects a frame that did load (control: a JSON answer sets no frame-ancestors)", async () => {
  const page = await browser.newPage();
  expect(await framedFromElsewhere(page, `${inject("baseUrl")}/healthz`)).toEqual({ frames: 1, loaded: true });
  await page.close();
});

it("runs the cron on a fresh start, as npm start does", async () => {
  const res = await fetch(`${inject("baseUrl")}/__scheduled?cron=*+*+*+*+*`);
  expect(res.status).toBe(200);
  expect(await res.text()).toBe("Ran scheduled event");
});
