// The portal's Scanner page end to end, in Debian's Chromium: two scans of a shop uploaded through the API as a
// backend does (`npm run scan -- … --project`), the page showing the latest one violations first with what is new
// since the first, Run a scan answering with the CLI command (the local service has no Browser Rendering), and the
// proposed purposes created in one click, checked through the API.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstReport, secondReport, shopOrigin } from "../api/scan-reports";
import { adminToken, api, accessToken, baseUrl, dialog, expectAccessible, openPortalBrowser, poll, type PortalBrowser, shot, signIn } from "./portal-helpers";

let portal: PortalBrowser;
let page: Page;
const flow = { projectId: "", token: "", secondScanId: "" };

beforeAll(async () => {
  portal = await openPortalBrowser();
  page = portal.page;
});

afterAll(async () => {
  await portal?.browser.close();
});

const section = (name: string) => page.getByRole("region", { name });

describe("the portal's scanner page", () => {
  it("stores two uploaded scans of a shop through the API", async () => {
    const project = await api(adminToken, "POST", "/admin/v1/projects", { name: "Fjäll Scanner", controller: { name: "Fjäll Scanner AB", email: "privacy@fjall.example" } });
    expect(project.status).toBe(201);
    flow.projectId = project.body.projectId;
    const client = await api(adminToken, "POST", `/admin/v1/projects/${flow.projectId}/clients`, { name: "Scanner CI", type: "backend" });
    flow.token = await accessToken(client.body.clientId, client.body.clientSecret);
    const web = await api(adminToken, "POST", `/admin/v1/projects/${flow.projectId}/clients`, { name: "Shop", type: "web", allowedOrigins: [shopOrigin] });
    expect(web.status).toBe(201);
    for (const report of [firstReport, secondReport]) {
      const stored = await api(flow.token, "POST", `/privacy/v2/projects/${flow.projectId}/scans`, { report });
      expect(stored.status, JSON.stringify(stored.body)).toBe(201);
      flow.secondScanId = stored.body.scanId;
    }
  });

  it("shows the latest scan with its violations first, then what is new and gone since the previous scan", async () => {
    await signIn(page);
    await page.goto(`${baseUrl}/portal/projects/${flow.projectId}/scanner`);
    await page.getByRole("heading", { name: "Scanner", level: 2 }).waitFor();
    await section("Violations").waitFor();

    const headings = await page.locator("ap-scanner section.card > h3").allTextContents();
    expect(headings.slice(0, 3)).toEqual(["Violations", "New since last scan", "Proposed purposes"]);
    const violations = section("Violations").locator("tbody tr");
    expect(await violations.count()).toBe(secondReport.violations.length);
    expect(await violations.first().textContent()).toContain("_fbp");
    expect(await section("Violations").textContent()).toContain("After Reject all");

    const added = await page.getByRole("list", { name: "New since last scan" }).getByRole("listitem").allTextContents();
    expect(added.map((text) => text.replace(/\s+/g, " ").trim())).toEqual([
      "Cookie _fbp Marketing",
      "Host connect.facebook.net Marketing",
      "Violation: _fbp before consent",
      "Violation: connect.facebook.net after Reject all",
    ]);
    const gone = await page.getByRole("list", { name: "Gone since last scan" }).getByRole("listitem").allTextContents();
    expect(gone.map((text) => text.replace(/\s+/g, " ").trim())).toEqual(["localStorage key _hjSessionUser_1 Analytics"]);

    // Every item is under its category, non-essential ones first.
    const groups = await section("By purpose").locator("h4").allTextContents();
    expect(groups.map((g) => g.split(" ")[0])).toEqual(["Marketing", "Analytics", "Unclassified", "Necessary"]);
    expect(await page.getByRole("table", { name: "Marketing items" }).textContent()).toContain("connect.facebook.net");
    expect(await section("History").locator("tbody tr").count()).toBe(2);
    await expectAccessible(page, "scanner page");
    await shot(page, "scanner");
  });

  it("starts a scan from the portal, and shows the command to run when the server cannot scan by itself", async () => {
    await page.getByRole("button", { name: "Run a scan" }).click();
    const form = dialog(page, "run-scan");
    await form.getByLabel("Site").selectOption(shopOrigin);
    await form.getByRole("button", { name: "Start scan" }).click();
    const command = page.getByLabel("Scan command");
    await command.waitFor();
    expect(await command.inputValue()).toBe(`npm run scan -- ${shopOrigin} --project ${flow.projectId}`);
    // Nothing was queued that could not run.
    const list = await api(flow.token, "GET", `/privacy/v2/projects/${flow.projectId}/scans`);
    expect(list.body.items).toHaveLength(2);
  });

  it("creates the proposed purposes with their Consent Mode types in one click, under a controller made from the project's", async () => {
    await section("Proposed purposes").getByRole("button", { name: "Create proposed purposes" }).click();
    const form = dialog(page, "create-purposes");
    expect(await form.getByLabel("Controller of the new purposes").inputValue()).toBe("new");
    expect(await form.getByRole("list", { name: "Proposed purposes" }).textContent()).toContain("ad_personalization");
    await expectAccessible(page, "create purposes dialog");
    await form.getByRole("button", { name: "Create purposes" }).click();
    await poll(() => form.evaluate((d) => (d as HTMLDialogElement).open)).toBe(false);
    await section("Proposed purposes").getByRole("button", { name: "Every proposed purpose exists" }).waitFor();

    const purposes = await api(flow.token, "GET", `/privacy/v2/projects/${flow.projectId}/configurations/purposes`);
    const parties = await api(flow.token, "GET", `/privacy/v2/projects/${flow.projectId}/configurations/parties`);
    expect(parties.body.items.map((p: { details: { name: string } }) => p.details.name)).toEqual(["Fjäll Scanner AB"]);
    const controller = parties.body.items[0].partyId;
    const byReference = Object.fromEntries(purposes.body.items.map((p: { referenceId: string }) => [p.referenceId, p]));
    expect(Object.keys(byReference).sort()).toEqual(["analytics", "marketing"]);
    expect(byReference.analytics).toMatchObject({ name: "Analytics", legalGround: "consent", consentMode: ["analytics_storage"], controllers: [controller] });
    expect(byReference.marketing).toMatchObject({ consentMode: ["ad_storage", "ad_user_data", "ad_personalization"], controllers: [controller] });
    expect(portal.pageErrors).toEqual([]);
  });
});
