// The portal's Wording page (docs/languages.md#a-projects-own-words): the widget's strings per language with English beside them, a live preview
// in the preview frame, validation from the API, the translation coverage table; checked through the API.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shippedStrings } from "../../shared/i18n/shipped";
import { adminToken, api, baseUrl, demoCopy, expectAccessible, openPortalBrowser, poll, shot, signIn, tokenStatus, type PortalBrowser } from "./portal-helpers";

let portal: PortalBrowser;
const demo = await demoCopy();
/** A backend's token for the demo project (the wording routes take `config:read` / `config:write`). */
let token = "";
const wording = (language: string) => `/privacy/v2/projects/${demo}/configurations/ui-strings/${language}`;

beforeAll(async () => {
  const backend = await api(adminToken, "POST", `/admin/v1/projects/${demo}/clients`, { name: "Wording test backend", type: "backend" });
  token = (await tokenStatus(backend.body.clientId, backend.body.clientSecret)).body.access_token;
  portal = await openPortalBrowser();
  await signIn(portal.page);
});
afterAll(async () => {
  await api(token, "DELETE", wording("de"));
  await portal?.browser.close();
});

describe("the Wording page", () => {
  it("overrides a German string with a live preview, refuses a lost placeholder, and shows what lacks a text", async () => {
    const { page } = portal;
    await page.goto(`${baseUrl}/portal/projects/${demo}/wording`);
    await page.getByRole("heading", { name: "Translation coverage" }).waitFor();
    await page.getByLabel("Language", { exact: true }).selectOption("de");
    const acceptAll = page.getByLabel("acceptAll in de");
    await acceptAll.waitFor();
    expect(await acceptAll.getAttribute("placeholder")).toBe(shippedStrings.de.acceptAll);
    await acceptAll.fill("Alles klar");

    // The preview frame loads lazily, once in view.
    await page.locator("#widget-preview-frame").scrollIntoViewIfNeeded();
    const preview = page.frameLocator("#widget-preview-frame").locator("assent-consent");
    await poll(() => preview.getByRole("button", { name: "Alles klar" }).count()).toBe(1);
    expect(await preview.getByRole("button", { name: shippedStrings.de.rejectAll }).count()).toBe(1);
    await page.getByRole("heading", { name: "Words in de" }).scrollIntoViewIfNeeded();
    await shot(page, "wording", { fullPage: false });

    await page.getByRole("button", { name: "Save wording" }).click();
    await poll(() => page.getByRole("status").textContent()).toContain("Wording in de saved.");
    const saved = await api(token, "GET", wording("de"));
    expect(saved.body.overrides).toEqual({ acceptAll: "Alles klar" });

    await page.getByLabel("intro in de").fill("Wir nutzen Ihre Daten.");
    await page.getByRole("button", { name: "Save wording" }).click();
    await poll(() => page.getByRole("alert").first().textContent()).toContain("Keep the placeholders exactly as in English: {c}");
    expect((await api(token, "GET", wording("de"))).body.overrides).toEqual({ acceptAll: "Alles klar" });

    const project = (await api(adminToken, "GET", `/admin/v1/projects/${demo}`)).body;
    expect(await page.locator("table").first().getByRole("cell", { name: project.defaultLanguage, exact: true }).count()).toBe(1);
    await expectAccessible(page, "wording");
    expect(portal.pageErrors).toEqual([]);
  });

  it("keeps the operator's focus while the preview follows every key, on both layers", async () => {
    const { page } = portal;
    await page.goto(`${baseUrl}/portal/projects/${demo}/wording`);
    await page.getByLabel("Language", { exact: true }).selectOption("de");
    await page.locator("#widget-preview-frame").scrollIntoViewIfNeeded();
    const preview = page.frameLocator("#widget-preview-frame").locator("assent-consent");
    await poll(() => preview.getByRole("button", { name: shippedStrings.de.rejectAll }).count()).toBe(1);

    // Typed key by key, as an operator types: each key re-renders the preview, whose widget focuses what it shows.
    const typeInto = async (key: string, text: string) => {
      const field = page.getByLabel(`${key} in de`);
      await field.click();
      const scrolled = await page.evaluate(() => scrollY);
      await field.pressSequentially(text, { delay: 20 });
      expect(await field.inputValue()).toBe(text);
      expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(`${key} in de`);
      // Nor does the page jump to the frame.
      expect(await page.evaluate(() => scrollY)).toBe(scrolled);
    };
    await typeInto("rejectAll", "Nein danke");
    await poll(() => preview.getByRole("button", { name: "Nein danke" }).count()).toBe(1);

    await page.getByLabel("Preferences").check();
    await poll(() => preview.locator("dialog[open]").count()).toBe(1);
    await typeInto("save", "Speichern bitte");
    await poll(() => preview.getByRole("button", { name: "Speichern bitte" }).count()).toBe(1);
    expect(portal.pageErrors).toEqual([]);
  });
});
