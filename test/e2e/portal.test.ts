// The self-service portal end to end, in Debian's Chromium: sign-in, projects, clients and their secrets,
// configuration with purpose versions, the request queues, an identity's data export, overview, sign-out.
// Every page is scanned with axe-core (WCAG 2.2 AA) and photographed into test/artifacts/.
import { text } from "node:stream/consumers";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoProjectId } from "./service-ready";
import {
  adminToken,
  api,
  baseUrl,
  closeSecretDialog,
  createBackendClient,
  dialog,
  expectAccessible,
  openPortalBrowser,
  poll,
  type PortalBrowser,
  shot,
  submitNewProject,
  tokenStatus,
} from "./portal-helpers";

let portal: PortalBrowser;
let context: BrowserContext;
let page: Page;

/** What the flow creates, carried from step to step. */
const flow = {
  projectId: "",
  clientId: "",
  firstSecret: "",
  secondSecret: "",
  token: "",
  purposeId: "",
  identityId: "",
  erasureId: "",
};

beforeAll(async () => {
  portal = await openPortalBrowser();
  ({ context, page } = portal);
});

afterAll(async () => {
  await portal?.browser.close();
});

describe("the portal", () => {
  it("signs in with the keyboard alone and keeps nothing secret in storage", async () => {
    await page.goto(`${baseUrl}/portal/`);
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await expectAccessible(page, "sign-in");
    await shot(page, "sign-in");

    // A wrong token gets a clear message from the problem details.
    await page.keyboard.press("Tab");
    await poll(() => page.evaluate(() => document.activeElement?.id)).toBe("admin-token");
    await page.keyboard.type("not-the-token");
    await page.keyboard.press("Enter");
    await poll(() => page.getByRole("alert").textContent()).toContain("That is not the admin token.");

    await page.getByLabel("Admin token").fill("");
    await page.keyboard.type(adminToken);
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Projects", level: 1 }).waitFor();

    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ name: "__Host-assent_portal", httpOnly: true, secure: true, sameSite: "Strict", path: "/" });
    expect(cookie.expires * 1000 - Date.now()).toBeLessThanOrEqual(3600_000);
    const stored = await page.evaluate(() => ({ local: { ...localStorage }, session: { ...sessionStorage } }));
    expect(JSON.stringify(stored)).not.toContain(adminToken);
    expect(stored).toEqual({ local: {}, session: {} });
    // The SPA keeps working across a reload: the session is resumed from the cookie.
    await page.reload();
    await page.getByRole("heading", { name: "Projects", level: 1 }).waitFor();
  });

  it("creates a project", async () => {
    await page.getByRole("button", { name: "New project" }).click();
    const form = dialog(page, "new-project");
    // The API's validation problem is shown field by field.
    await form.getByLabel("Privacy e-mail").fill("not-an-address");
    await form.getByRole("button", { name: "Create project" }).click();
    await poll(() => form.getByRole("alert").textContent()).toContain("Controller e-mail: Invalid email address");
    expect(await form.getByRole("alert").textContent()).toContain("Name: Required.");
    await expectAccessible(page, "new project dialog");

    flow.projectId = await submitNewProject(page, {
      name: "Nordic Outdoor",
      legalName: "Nordic Outdoor AB",
      email: "privacy@nordic-outdoor.example",
      privacyPolicy: "https://nordic-outdoor.example/privacy",
      jurisdiction: "SE",
    });
    expect(await page.locator("h1").textContent()).toBe("Nordic Outdoor");
  });

  it("creates a backend client whose secret, shown once, gets a token", async () => {
    const created = await createBackendClient(page, "Order service");
    ({ clientId: flow.clientId, clientSecret: flow.firstSecret } = created);
    expect(await created.secretDialog.textContent()).toContain("It is shown only once");
    expect(flow.firstSecret).toMatch(/^as_/);
    await expectAccessible(page, "client secret dialog");
    await shot(page, "client-secret");

    const issued = await tokenStatus(flow.clientId, flow.firstSecret);
    expect(issued.status).toBe(200);
    expect(issued.body.token_type.toLowerCase()).toBe("bearer");

    await closeSecretDialog(page);
    // Gone from the page for good: only its hash is kept.
    expect(await page.content()).not.toContain(flow.firstSecret);
  });

  it("regenerates the secret, and the old one is refused at once", async () => {
    await page.getByRole("button", { name: "Regenerate secret of Order service" }).click();
    const confirm = dialog(page, "regenerate-secret");
    expect(await confirm.textContent()).toContain("The current secret stops working at once.");
    await confirm.getByRole("button", { name: "Regenerate secret" }).click();

    const secretDialog = dialog(page, "client-secret");
    await secretDialog.getByRole("heading", { name: "New secret for “Order service”" }).waitFor();
    flow.secondSecret = await secretDialog.getByLabel("Client secret").inputValue();
    expect(flow.secondSecret).not.toBe(flow.firstSecret);
    await closeSecretDialog(page);

    const refused = await tokenStatus(flow.clientId, flow.firstSecret);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe("invalid_client");
    const issued = await tokenStatus(flow.clientId, flow.secondSecret);
    expect(issued.status).toBe(200);
    flow.token = issued.body.access_token;

    await page.getByRole("heading", { name: /Backend/ }).waitFor();
    await expectAccessible(page, "clients");
    await shot(page, "clients");
  });

  it("creates a purpose, then edits it with “requires new consent” and sees the version change", async () => {
    await page.getByRole("link", { name: "Configuration" }).click();
    await page.getByRole("heading", { name: "Configuration", level: 2 }).waitFor();

    await page.getByRole("button", { name: "New party" }).click();
    let form = dialog(page, "config-editor");
    await form.getByLabel("Name", { exact: true }).fill("Nordic Outdoor AB");
    await form.getByLabel("Reference id").fill("nordic-outdoor");
    await form.getByLabel("Privacy e-mail").fill("privacy@nordic-outdoor.example");
    await form.getByRole("button", { name: "Save" }).click();
    await page.getByRole("cell", { name: /Nordic Outdoor AB/ }).first().waitFor();

    await page.getByRole("button", { name: "New data group" }).click();
    form = dialog(page, "config-editor");
    await form.getByLabel("Name", { exact: true }).fill("E-mail address");
    await form.getByLabel("Reference id").fill("email");
    await form.getByLabel("Text (en)").fill("The address we send the newsletter to.");
    await form.getByRole("button", { name: "Save" }).click();
    await page.getByRole("cell", { name: /E-mail address/ }).first().waitFor();

    await page.getByRole("button", { name: "New purpose" }).click();
    form = dialog(page, "config-editor");
    await form.getByLabel("Name", { exact: true }).fill("Newsletter");
    await form.getByLabel("Reference id").fill("newsletter");
    await form.getByLabel("Text (en)").fill("A monthly e-mail with offers.");
    await form.getByRole("button", { name: "Add a language" }).click();
    await form.locator("#purpose-desc-lang-1").fill("sv");
    await form.getByLabel("Text (sv)").fill("Ett månatligt e-brev med erbjudanden.");
    await form.getByRole("group", { name: "Data groups used" }).getByLabel("E-mail address").check();
    await form.getByRole("group", { name: /Controllers/ }).getByLabel("Nordic Outdoor AB").check();
    await form.getByRole("button", { name: "Save" }).click();
    const row = page.locator('tr[data-purpose="newsletter"]');
    await row.waitFor();
    expect(await row.locator(".purpose-version").textContent()).toBe("v1");

    await page.getByRole("button", { name: "Edit purpose Newsletter" }).click();
    form = dialog(page, "config-editor");
    await form.getByLabel("Text (en)").fill("A monthly e-mail with offers, now with partner offers.");
    const question = form.getByRole("group", { name: "Does this change require new consent?" });
    expect(await form.locator("#resulting-version").textContent()).toContain("Currently version 1");
    await question.getByLabel(/Yes/).check();
    expect(await form.locator("#resulting-version").textContent()).toContain("Saving creates version 2");
    await expectAccessible(page, "purpose editor");
    await shot(page, "purpose-editor", { fullPage: false });
    await form.getByRole("button", { name: "Save" }).click();
    await poll(() => row.locator(".purpose-version").textContent()).toBe("v2");
    expect(await row.textContent()).toContain("now with partner offers");

    const purposes = await api(flow.token, "GET", `/privacy/v2/projects/${flow.projectId}/configurations/purposes`);
    expect(purposes.body.items).toHaveLength(1);
    expect(purposes.body.items[0]).toMatchObject({ referenceId: "newsletter", version: "2" });
    expect(purposes.body.items[0].description).toEqual([
      { language: "en", text: "A monthly e-mail with offers, now with partner offers." },
      { language: "sv", text: "Ett månatligt e-brev med erbjudanden." },
    ]);
    flow.purposeId = purposes.body.items[0].purposeId;

    await expectAccessible(page, "configuration");
    await shot(page, "configuration");
  });

  it("moves an erasure request through the queue to completed", async () => {
    const identity = await api(flow.token, "POST", `/privacy/v2/projects/${flow.projectId}/identities`, {
      referenceId: "customer-1001",
      aliases: [{ type: "urn:svc:email", identifier: "anna@example.com" }],
    });
    expect(identity.status).toBe(201);
    flow.identityId = identity.body.identityId;
    const consent = await api(flow.token, "POST", `/privacy/v2/projects/${flow.projectId}/permissions`, {
      identityId: flow.identityId,
      requested: new Date().toISOString(),
      request: { purposes: [{ purposeId: flow.purposeId, version: "2", status: "approved" }] },
    });
    expect(consent.status).toBe(201);
    const erasure = await api(flow.token, "POST", `/privacy/v2/projects/${flow.projectId}/erasures`, { identityId: flow.identityId });
    expect(erasure.status).toBe(201);
    flow.erasureId = erasure.body.requestId;
    expect((await api(flow.token, "POST", `/privacy/v2/projects/${flow.projectId}/accesses`, { identityId: flow.identityId })).status).toBe(201);

    await page.getByRole("link", { name: "Requests" }).click();
    const row = page.locator(`tr[data-request-id="${flow.erasureId}"]`);
    await row.waitFor();
    expect(await row.textContent()).toContain("Received");
    expect(await row.textContent()).toMatch(/(30|31|29|28) days left/);
    await expectAccessible(page, "requests");
    await shot(page, "requests");

    await row.getByRole("button", { name: `Start work: ${flow.erasureId}` }).click();
    await poll(() => row.textContent()).toContain("In progress");
    await row.getByRole("button", { name: `Complete: ${flow.erasureId}` }).click();
    const confirm = dialog(page, "confirm-step");
    expect(await confirm.textContent()).toContain("erased everywhere");
    await confirm.getByRole("button", { name: "Complete" }).click();
    await row.waitFor({ state: "detached" });

    await page.getByLabel("Show").selectOption("completed");
    await poll(() => row.textContent()).toContain("Completed");
    const stored = await api(flow.token, "GET", `/privacy/v2/projects/${flow.projectId}/erasures/${flow.erasureId}`);
    expect(stored.body.status).toBe("completed");
  });

  it("shows an identity's data and exports it as JSON", async () => {
    await page.getByRole("link", { name: "Identities" }).click();
    await page.getByLabel("Alias or your reference id").check();
    await page.getByLabel("Alias type").fill("urn:svc:email");
    await page.getByLabel("Identifier").fill("anna@example.com");
    await page.getByRole("button", { name: "Show data" }).click();
    await page.getByRole("heading", { name: `Data subject ${flow.identityId}` }).waitFor();
    await expectAccessible(page, "identity");
    await shot(page, "identity");

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download JSON" }).click()]);
    expect(download.suggestedFilename()).toBe(`${flow.identityId}.json`);
    // Read through the connection: the file is on the run's Chromium's side (test/e2e/browser.ts).
    const exported = JSON.parse(await text(await download.createReadStream()));
    expect(exported.identity).toMatchObject({ identityId: flow.identityId, referenceId: "customer-1001" });
  });

  it("charts identities and consents on the overview", async () => {
    await page.getByRole("link", { name: "Overview" }).click();
    await page.getByRole("heading", { name: "Overview", level: 2 }).waitFor();
    const stat = (label: string) => page.locator(".stat", { hasText: label }).locator(".value").textContent();
    expect(await stat("Identities")).toBe("1");
    expect(await stat("Consents in force")).toBe("1");
    expect(await page.getByRole("img", { name: /1 consents given/ }).count()).toBe(1);
    await expectAccessible(page, "overview");
    await shot(page, "overview");
  });

  it("shows the webhooks page (portal-webhooks.test.ts covers it in full)", async () => {
    await page.getByRole("link", { name: "Webhooks" }).click();
    await page.getByRole("heading", { name: "Webhooks", level: 2 }).waitFor();
    await expectAccessible(page, "webhooks");
  });

  it("edits privacy metadata and deletes a project only after its name is typed", async () => {
    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByLabel("Jurisdiction", { exact: true }).fill("SE-AB");
    await page.getByRole("button", { name: "Save changes" }).click();
    await poll(() => page.getByRole("status").textContent()).toContain("Privacy metadata saved.");
    expect((await api(flow.token, "GET", `/privacy/v2/projects/${flow.projectId}`)).body.jurisdiction).toBe("SE-AB");
    await expectAccessible(page, "settings");
    await shot(page, "settings");

    await page.getByRole("button", { name: "Delete project…" }).click();
    const confirm = dialog(page, "delete-project");
    const remove = confirm.getByRole("button", { name: "Delete permanently" });
    expect(await remove.isDisabled()).toBe(true);
    await confirm.getByLabel(/Type the project name/).fill("Nordic");
    expect(await remove.isDisabled()).toBe(true);
    await confirm.getByLabel(/Type the project name/).fill("Nordic Outdoor");
    await expectAccessible(page, "delete dialog");
    await remove.click();
    await page.getByRole("heading", { name: "Projects", level: 1 }).waitFor();
    // The heading shows before the list arrives: its rows (the seeded demo's at least) prove the list is there.
    await page.locator("ap-projects tbody tr").first().waitFor();
    expect(await page.getByRole("link", { name: "Nordic Outdoor" }).count()).toBe(0);
    // Its clients went with it (and out of the client cache here), so their tokens are refused outright.
    expect((await api(flow.token, "GET", `/privacy/v2/projects/${flow.projectId}`)).status).toBe(401);
  });

  it("fits a phone-sized screen", async () => {
    const demo = demoProjectId();
    await page.setViewportSize({ width: 390, height: 844 });
    for (const [name, path] of [
      ["phone-projects", "/portal/"],
      ["phone-clients", `/portal/projects/${demo}/clients`],
    ] as const) {
      await page.goto(baseUrl + path);
      await page.locator("main h1").waitFor();
      await page.locator("table").first().waitFor();
      const overflowing = await page.evaluate(() =>
        Array.from(document.querySelectorAll("body *"))
          .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
          .map((e) => `${e.tagName.toLowerCase()}.${e.className}`),
      );
      expect(overflowing, `wider than the screen on ${name}`).toEqual([]);
      await expectAccessible(page, name);
      await shot(page, name);
    }
    await page.setViewportSize({ width: 1280, height: 860 });
  });

  it("signs out, after which the old cookie opens nothing", async () => {
    const [cookie] = await context.cookies();
    const withCookie = () => fetch(`${baseUrl}/admin/v1/projects`, { headers: { cookie: `${cookie.name}=${cookie.value}` } });
    expect((await withCookie()).status).toBe(200);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    expect(await context.cookies()).toEqual([]);
    expect((await withCookie()).status).toBe(401);
    expect(portal.pageErrors).toEqual([]);
  });
});
