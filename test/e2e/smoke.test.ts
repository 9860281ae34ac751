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

it("the API reference fits a 375 px phone, renders the descriptions' Markdown and shows the real version", async () => {
  const page = await browser.newPage({ viewport: { width: 375, height: 740 } });
  await page.goto(`${inject("baseUrl")}/docs`);
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, view: innerWidth }));
  expect(widths.page).toBeLessThanOrEqual(widths.view);
  // Descriptions are Markdown: `code` becomes <code>, and no literal backticks remain in the text.
  const text = await page.locator("body").innerText();
  expect(text).not.toContain("`");
  expect(await page.locator("p code", { hasText: "application/problem+json" }).count()).toBeGreaterThan(0);
  const version = JSON.parse((await import("node:fs")).readFileSync("package.json", "utf8")).version;
  expect(await page.locator("h1").innerText()).toContain(version);
  await page.close();
});
