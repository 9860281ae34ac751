import { afterAll, beforeAll, expect, inject, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchBrowser } from "./browser";

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

it("serves the API reference to a real browser", async () => {
  const page = await browser.newPage();
  await page.goto(`${inject("baseUrl")}/docs`);
  expect(await page.locator("h1").textContent()).toContain("Assent");
  expect(await page.locator("code", { hasText: "/oauth/token" }).count()).toBeGreaterThan(0);
});
