// The portal's Blocking page end to end, in Debian's Chromium against `wrangler dev`: a shop with a stored scan,
// Meta Pixel picked from the catalogue (its purpose created with the right Consent Mode types), the scan's host not
// listed yet added, Google Analytics picked (a second purpose; Google Tag Manager's host, which serves gtag.js, not
// listed twice), a host added by hand (a wildcard over the shop's own host refused), the switch turned on and an
// entry removed; every step checked through the API.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { secondReport, shopOrigin } from "../api/scan-reports";
import { accessToken, adminToken, api, baseUrl, dialog, expectAccessible, openPortalBrowser, poll, type PortalBrowser, shot, signIn } from "./portal-helpers";

let portal: PortalBrowser;
let page: Page;
const flow = { projectId: "", token: "" };

beforeAll(async () => {
  portal = await openPortalBrowser();
  page = portal.page;
});

afterAll(async () => {
  await portal?.browser.close();
});

const stored = async () => (await api(adminToken, "GET", `/admin/v1/projects/${flow.projectId}/blocking`)).body;
const hosts = () => page.locator("ap-blocking tbody tr").evaluateAll((rows) => rows.map((row) => row.getAttribute("data-host")));
/** The stored scan: the shop's second report, plus a host no database names (not in the proposal). */
const unknownHost = "cdn.unknown-vendor.example";
const scanned = {
  ...secondReport,
  thirdPartyHosts: [
    ...secondReport.thirdPartyHosts,
    { host: unknownHost, resourceTypes: ["script"], initiators: [], category: "unclassified", vendor: null, firstSeen: "before-consent", pages: [`${shopOrigin}/`] },
  ],
};
const offered = (form: ReturnType<typeof dialog>, checked: boolean) =>
  form.getByRole("checkbox").evaluateAll((boxes, want) => boxes.filter((box) => (box as HTMLInputElement).checked === want).map((box) => (box as HTMLInputElement).value), checked);
const closed = (id: string) => poll(() => dialog(page, id).evaluate((d) => (d as HTMLDialogElement).open)).toBe(false);

describe("the portal's blocking page", () => {
  it("sets up a shop with a stored scan through the API", async () => {
    const project = await api(adminToken, "POST", "/admin/v1/projects", { name: "Fjäll Blocking", controller: { name: "Fjäll Blocking AB" } });
    flow.projectId = project.body.projectId;
    const client = await api(adminToken, "POST", `/admin/v1/projects/${flow.projectId}/clients`, { name: "CI", type: "backend" });
    flow.token = await accessToken(client.body.clientId, client.body.clientSecret);
    expect((await api(adminToken, "POST", `/admin/v1/projects/${flow.projectId}/clients`, { name: "Shop", type: "web", allowedOrigins: [shopOrigin] })).status).toBe(201);
    expect((await api(flow.token, "POST", `/privacy/v2/projects/${flow.projectId}/scans`, { report: scanned })).status).toBe(201);
  });

  it("picks Meta Pixel from the catalogue: creates the marketing purpose with its Consent Mode types and lists its hosts", async () => {
    await signIn(page);
    await page.goto(`${baseUrl}/portal/projects/${flow.projectId}/blocking`);
    await page.getByRole("heading", { name: "Blocking", level: 2 }).waitFor();
    await page.getByText("Nothing is blocked yet").waitFor();
    await page.getByRole("button", { name: "Add a vendor" }).click();
    const form = dialog(page, "add-vendor");
    await form.getByLabel("Vendor").selectOption({ label: "Meta Pixel" });
    const facts = form.getByRole("definition");
    await poll(async () => (await facts.allTextContents()).join(" ")).toContain("fbq('consent', 'grant'|'revoke')");
    expect((await facts.allTextContents()).join(" ")).toContain("New: Marketing");
    expect(await form.getByLabel("Controller of the new purpose").inputValue()).toBe("new");
    await expectAccessible(page, "vendor picker");
    await shot(page, "blocking-vendor");
    await form.getByRole("button", { name: "Add vendor" }).click();
    await closed("add-vendor");
    await poll(hosts).toEqual(["connect.facebook.net", "www.facebook.com"]);

    const purposes = (await api(flow.token, "GET", `/privacy/v2/projects/${flow.projectId}/configurations/purposes`)).body.items;
    expect(purposes).toMatchObject([{ referenceId: "marketing", legalGround: "consent", consentMode: ["ad_storage", "ad_user_data", "ad_personalization"] }]);
    expect(await stored()).toEqual({
      enabled: false,
      entries: [
        { host: "connect.facebook.net", purpose: "marketing", source: "catalogue", vendor: "meta-pixel" },
        { host: "www.facebook.com", purpose: "marketing", source: "catalogue", vendor: "meta-pixel" },
      ],
    });
  });

  it("adds the scan's host that is not listed yet, under the purpose the operator picks", async () => {
    await page.getByRole("button", { name: "Add from the scan" }).click();
    const form = dialog(page, "add-scanned");
    // What the scan proposes is checked; the unclassified host is offered unchecked, for the operator to decide.
    await poll(() => offered(form, true)).toEqual(["www.googletagmanager.com"]);
    expect(await offered(form, false)).toEqual([unknownHost]);
    expect(await form.getByLabel("Purpose of www.googletagmanager.com").inputValue()).toBe("marketing");
    await expectAccessible(page, "add from the scan dialog");
    await form.getByRole("button", { name: "Add hosts" }).click();
    await closed("add-scanned");
    await poll(hosts).toEqual(["connect.facebook.net", "www.facebook.com", "www.googletagmanager.com"]);
    expect((await stored()).entries.at(-1)).toEqual({ host: "www.googletagmanager.com", purpose: "marketing", source: "scan", vendor: "google-tag-manager" });
  });

  it("picks Google Analytics: a new analytics purpose with analytics_storage, and only the hosts not listed yet", async () => {
    await page.getByRole("button", { name: "Add a vendor" }).click();
    const form = dialog(page, "add-vendor");
    await form.getByLabel("Vendor").selectOption({ label: "Google Analytics 4 (gtag.js)" });
    await poll(async () => (await form.getByRole("definition").allTextContents()).join(" ")).toContain("analytics_storage");
    await form.getByRole("button", { name: "Add vendor" }).click();
    await closed("add-vendor");
    await poll(hosts).toEqual(["connect.facebook.net", "www.facebook.com", "www.googletagmanager.com", "*.google-analytics.com", "analytics.google.com"]);
    const purposes = (await api(flow.token, "GET", `/privacy/v2/projects/${flow.projectId}/configurations/purposes`)).body.items;
    expect(purposes.find((p: { referenceId: string }) => p.referenceId === "analytics")).toMatchObject({ consentMode: ["analytics_storage"] });
    expect((await stored()).entries.at(-1)).toEqual({ host: "analytics.google.com", purpose: "analytics", source: "catalogue", vendor: "google-analytics" });
  });

  it("says so when every host the scan proposes is listed, and still offers the unclassified one", async () => {
    await page.getByRole("button", { name: "Add from the scan" }).click();
    const form = dialog(page, "add-scanned");
    await form.getByText("is listed already").waitFor();
    expect(await offered(form, true)).toEqual([]);
    expect(await offered(form, false)).toEqual([unknownHost]);
    await form.getByRole("button", { name: "Cancel" }).click();
    await closed("add-scanned");
  });

  it("adds a host by hand, refusing the shop's own host with the API's reason", async () => {
    await page.getByRole("button", { name: "Add a host" }).click();
    const form = dialog(page, "add-host");
    await form.getByLabel("Host").fill("*.example");
    await form.getByLabel("Purpose").selectOption("marketing");
    await form.getByRole("button", { name: "Add host" }).click();
    await form.getByText("would block shop.example").waitFor();
    expect((await stored()).entries).toHaveLength(5);
    await form.getByLabel("Host").fill("pixel.partner.example");
    await form.getByRole("button", { name: "Add host" }).click();
    await closed("add-host");
    await poll(hosts).toContain("pixel.partner.example");
    expect((await stored()).entries.at(-1)).toEqual({ host: "pixel.partner.example", purpose: "marketing", source: "manual" });
  });

  it("shows the tag that installs the project's blocker, and where tags in the HTML are held too", async () => {
    const card = page.getByRole("form", { name: "Automatic blocking" });
    expect(await card.locator("code.install").innerText()).toBe(`<script src="${baseUrl}/widget/v1/projects/${flow.projectId}/blocking.js"></script>`);
    expect(await card.innerText()).toContain("@assent/edge");
  });

  it("turns blocking on, removes an entry, and passes axe", async () => {
    await page.getByLabel("Block the listed hosts until consent").check();
    await page.getByRole("form", { name: "Automatic blocking" }).getByRole("button", { name: "Save" }).click();
    await poll(async () => (await stored()).enabled).toBe(true);
    await page.getByRole("button", { name: "Remove www.facebook.com" }).click();
    await poll(hosts).not.toContain("www.facebook.com");
    expect((await stored()).entries.map((e: { host: string }) => e.host)).toEqual([
      "connect.facebook.net",
      "www.googletagmanager.com",
      "*.google-analytics.com",
      "analytics.google.com",
      "pixel.partner.example",
    ]);
    expect(await page.locator('tr[data-host="connect.facebook.net"] td[data-label="Vendor"]').innerText()).toBe("Meta Pixel");
    await expectAccessible(page, "blocking page");
    await shot(page, "blocking");
    expect(portal.pageErrors).toEqual([]);
  });
});
