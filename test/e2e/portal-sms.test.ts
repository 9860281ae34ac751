// The portal's SMS page in Debian's Chromium against `wrangler dev` with no SMS route configured (as `npm start`):
// the routes with their health, and the project's messages with their trails.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  accessToken,
  adminToken,
  api,
  baseUrl,
  closeSecretDialog,
  createBackendClient,
  expectAccessible,
  openPortalBrowser,
  type PortalBrowser,
  shot,
  shown,
  signIn,
  submitNewProject,
} from "./portal-helpers";

let portal: PortalBrowser;
let page: Page;

beforeAll(async () => {
  portal = await openPortalBrowser();
  page = portal.page;
});

afterAll(async () => {
  await portal?.browser.close();
});

describe("the portal's SMS page", () => {
  it("shows the routes' health and each message's trail", async () => {
    await signIn(page);
    await page.getByRole("button", { name: "New project" }).click();
    await submitNewProject(page, {
      name: "Fjäll SMS",
      legalName: "Fjäll SMS AB",
      email: "privacy@fjall.example",
      privacyPolicy: "https://fjall.example/privacy",
      jurisdiction: "SE",
    });
    const client = await createBackendClient(page, "Notifications backend");
    await closeSecretDialog(page);
    const token = await accessToken(client.clientId, client.clientSecret);
    expect((await api(adminToken, "PUT", `/admin/v1/sms/clients/${client.clientId}`)).status).toBe(201);
    // The spec's answer is 200 with no body, so not through `api` (which reads JSON).
    const sent = await fetch(`${baseUrl}/v1/sms`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ genericSMSMessagePayload: { receiver: "+46701234567", sender: "Fjall", message: "Din kod är 123456" } }),
    });
    expect(sent.status).toBe(200);

    await page.getByRole("link", { name: "SMS" }).click();
    await page.getByRole("heading", { name: "SMS", level: 2 }).waitFor();
    const route = page.locator('tr[data-route="sms_hub"]');
    await shown(page, route);
    expect(await route.locator('td[data-label="Provider"]').innerText()).toContain("gateway");
    expect(await route.locator('td[data-label="Waiting"]').innerText()).toBe("0");

    const message = page.locator("tbody tr[data-message-id]");
    expect(await message.count()).toBe(1);
    expect(await message.locator('td[data-label="Status"]').innerText()).toContain("outbox_only");
    expect(await message.locator('td[data-label="Text"]').innerText()).toContain("Din kod är 123456");
    await message.getByText("2 steps").click();
    const steps = message.locator("ol li");
    expect(await steps.count()).toBe(2);
    expect(await steps.nth(0).innerText()).toContain("pending");
    expect(await steps.nth(1).innerText()).toContain("outbox_only");
    await expectAccessible(page, "SMS page");
    await shot(page, "sms");
    expect(portal.pageErrors).toEqual([]);
  });
});
