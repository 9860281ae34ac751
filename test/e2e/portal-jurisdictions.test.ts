// The portal's part of docs/jurisdictions.md: jurisdiction rules and Consent Mode settings under Settings, and the Consent Mode
// types in the purpose editor, each checked through the API afterwards.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminToken, api, baseUrl, demoCopy, dialog, expectAccessible, openPortalBrowser, poll, signIn, type PortalBrowser } from "./portal-helpers";

let portal: PortalBrowser;
const demo = await demoCopy();

beforeAll(async () => {
  portal = await openPortalBrowser();
  await signIn(portal.page);
});
afterAll(async () => {
  await portal?.browser.close();
});

describe("jurisdictions and Consent Mode in the portal", () => {
  it("applies a preset, refuses a bad rule with its line, and saves Consent Mode settings", async () => {
    const { page } = portal;
    await page.goto(`${baseUrl}/portal/projects/${demo}/settings`);
    await page.getByRole("heading", { name: "Jurisdictions" }).waitFor();
    const rules = page.getByLabel(/Rules, one per line/);
    expect(await rules.inputValue()).toContain("EEA opt-in");
    await page.getByLabel("Start from a preset").selectOption("opt-in-outside-us");
    expect(await rules.inputValue()).toBe("US opt-out");
    await page.getByRole("button", { name: "Save rules" }).click();
    await poll(() => page.getByRole("status").textContent()).toContain("Jurisdiction rules saved.");
    const saved = await api(adminToken, "GET", `/admin/v1/projects/${demo}/jurisdictions`);
    expect(saved.body).toMatchObject({ preset: "opt-in-outside-us", rest: "opt-in" });

    await rules.fill("Europe opt-in");
    await page.getByRole("button", { name: "Save rules" }).click();
    await poll(() => page.getByRole("alert").first().textContent()).toContain("Line 1 (area)");

    await page.getByLabel("Wait for update (milliseconds)").fill("750");
    await page.getByLabel("URL passthrough").check();
    await page.getByRole("button", { name: "Save Consent Mode" }).click();
    await poll(() => page.getByRole("status").textContent()).toContain("Consent Mode settings saved.");
    const consentMode = await api(adminToken, "GET", `/admin/v1/projects/${demo}/consent-mode`);
    expect(consentMode.body).toEqual({ enabled: true, waitForUpdate: 750, urlPassthrough: true, adsDataRedaction: true });
    await expectAccessible(page, "jurisdiction settings");
    expect(portal.pageErrors).toEqual([]);
  });

  it("edits a purpose's Consent Mode types", async () => {
    const { page } = portal;
    await page.goto(`${baseUrl}/portal/projects/${demo}/configuration`);
    await page.getByRole("button", { name: "Edit purpose Improving the shop" }).click();
    const form = dialog(page, "config-editor");
    const types = form.getByRole("group", { name: "Google Consent Mode types" });
    expect(await types.getByLabel("analytics_storage").isChecked()).toBe(true);
    expect(await types.getByLabel("ad_storage").isChecked()).toBe(false);
    await types.getByLabel("personalization_storage").check();
    await form.getByRole("group", { name: "Does this change require new consent?" }).getByLabel(/No/).check();
    await form.getByRole("button", { name: "Save" }).click();
    const mapped = async () => {
      const res = await fetch(`${baseUrl}/browser/v1/projects/${demo}/bootstrap`, {
        method: "POST",
        headers: { origin: baseUrl, "content-type": "text/plain" },
        body: "{}",
      });
      const body = await res.json();
      return body.configuration.purposes.find((p: { referenceId: string }) => p.referenceId === "analytics").consentMode;
    };
    await poll(mapped).toEqual(["analytics_storage", "personalization_storage"]);

    // And back as the seed made it: a type unchecked is saved too.
    await page.getByRole("button", { name: "Edit purpose Improving the shop" }).click();
    await types.getByLabel("personalization_storage").uncheck();
    await form.getByRole("group", { name: "Does this change require new consent?" }).getByLabel(/No/).check();
    await form.getByRole("button", { name: "Save" }).click();
    await poll(mapped).toEqual(["analytics_storage"]);
    expect(portal.pageErrors).toEqual([]);
  });
});
