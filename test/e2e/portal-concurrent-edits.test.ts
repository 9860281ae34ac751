// Two operators edit the same purpose in the portal at once, each in their own browser context (own session).
// The one who saves second is told that someone else changed the record, and nothing of theirs is written over the
// first one's change: the portal sends the ETag it read as If-Match, and the API answers 412.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./browser";
import { accessToken, adminToken, api, baseUrl, dialog, expectAccessible, poll, signIn } from "./portal-helpers";

let browser: Browser;
const pageErrors: string[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** A signed-in operator in a context of their own, on the project's configuration page. */
async function editor(projectId: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  page.on("pageerror", (error) => pageErrors.push(error.message));
  await signIn(page);
  await page.goto(`${baseUrl}/portal/projects/${projectId}/configuration`);
  await page.locator('tr[data-purpose="newsletter"]').waitFor();
  return page;
}

/** Opens the purpose's editor, replaces its English text and says the change needs no new consent. */
async function change(page: Page, text: string) {
  await page.getByRole("button", { name: "Edit purpose Newsletter" }).click();
  const form = dialog(page, "config-editor");
  await form.getByLabel("Text (en)").fill(text);
  await form.getByRole("group", { name: "Does this change require new consent?" }).getByLabel(/No, it corrects/).check();
  return form;
}

describe("two editors of one purpose", () => {
  it("refuses the second save with a message and a reload, and keeps the first editor's change", async () => {
    const admin = async (method: string, path: string, body?: unknown) => api(adminToken, method, `/admin/v1${path}`, body);
    const project = await admin("POST", "/projects", { name: "Two editors", controller: { name: "Shop AB" } });
    const projectId = project.body.projectId as string;
    const client = await admin("POST", `/projects/${projectId}/clients`, { name: "Backend", type: "backend" });
    const token = await accessToken(client.body.clientId, client.body.clientSecret);
    const under = `/privacy/v2/projects/${projectId}`;
    const party = await api(token, "POST", `${under}/configurations/parties`, { referenceId: "shop", type: "company", details: { name: "Shop AB" } });
    const created = await api(token, "POST", `${under}/configurations/purposes`, {
      referenceId: "newsletter",
      name: "Newsletter",
      legalGround: "consent",
      description: [{ language: "en", text: "Offers by e-mail." }],
      controllers: [party.body.partyId],
    });
    expect(created.status).toBe(201);
    const purposePath = `${under}/configurations/purposes/${created.body.purposeId}`;

    const [first, second] = [await editor(projectId), await editor(projectId)];
    // Both open the editor on the same version of the purpose, then the first saves.
    const firstForm = await change(first, "Offers by e-mail, monthly.");
    const secondForm = await change(second, "Offers by e-mail, weekly.");
    await firstForm.getByRole("button", { name: "Save" }).click();
    await poll(() => first.locator('tr[data-purpose="newsletter"]').textContent()).toContain("monthly");

    await secondForm.getByRole("button", { name: "Save" }).click();
    const alert = secondForm.getByRole("alert");
    await alert.getByText("Someone else changed this record").waitFor();
    expect(await alert.textContent()).toContain("nothing was overwritten");
    await expectAccessible(second, "concurrent edit refused");

    const stored = await api(token, "GET", purposePath);
    expect(stored.body.description).toEqual([{ language: "en", text: "Offers by e-mail, monthly." }]);
    expect(stored.body.version).toBe("1");

    // The offered reload shows the first editor's version; editing from there saves normally.
    await alert.getByRole("button", { name: "Reload" }).click();
    await poll(() => second.locator('tr[data-purpose="newsletter"]').textContent()).toContain("monthly");
    const again = await change(second, "Offers by e-mail, weekly.");
    await again.getByRole("button", { name: "Save" }).click();
    await poll(async () => (await api(token, "GET", purposePath)).body.description[0].text).toBe("Offers by e-mail, weekly.");
    expect(pageErrors).toEqual([]);
  });
});
