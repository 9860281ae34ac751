// The portal's TCF page in Debian's Chromium against `wrangler dev`, whose cron fetched the vendored GVL and ATP list
// from a local stand-in (test/e2e/tcf-lists-server.ts): vendors and an Ad Tech Provider found by search and selected,
// a restriction the service refuses shown beside it, then one it keeps, the preview's count, the save kept across a
// reload, a viewer shown the page read-only from the start, and axe on the page.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminToken, api, baseUrl, expectAccessible, mailedSignInSecret, openPortalBrowser, poll, shown, signIn, type PortalBrowser } from "./portal-helpers";
import { hostedLists } from "./tcf-lists-server";

const marker = randomUUID().slice(0, 8);
let portal: PortalBrowser;
let projectId = "";

beforeAll(async () => {
  await hostedLists(baseUrl, adminToken);
  const project = await api(adminToken, "POST", "/admin/v1/projects", { name: `TCF ${marker}`, controller: { name: "Annonser AB" } });
  expect(project.status).toBe(201);
  projectId = project.body.projectId;
  portal = await openPortalBrowser();
});

afterAll(async () => {
  await portal?.browser.close();
});

const tcfPage = () => `${baseUrl}/portal/projects/${projectId}/tcf`;

describe("the portal's TCF page", () => {
  it("finds and selects vendors and a provider, shows the service's refusal beside the restriction, saves, and keeps it", async () => {
    const { page } = portal;
    await signIn(page);
    await page.goto(tcfPage());
    const vendors = page.getByRole("region", { name: "Vendors" });
    await shown(page, vendors);
    await page.getByLabel("The widget acts as a TCF CMP").check();
    await page.getByLabel("CMP id").fill("300");

    const vendorSearch = page.getByLabel("Search vendors by name or id");
    await vendorSearch.fill("index");
    await poll(() => vendors.locator("label.choice[data-id]").count()).toBe(1);
    await vendors.getByLabel(/Index Exchange/).check();
    await vendorSearch.fill("755");
    await vendors.getByLabel(/Google Advertising Products/).check();
    await poll(() => page.locator("#tcf-vendors-count").innerText()).toBe("2 vendors selected of 6.");
    // The preview counts the selected vendors and says some rely on legitimate interest (Google declares it).
    await poll(() => page.locator('[data-preview="vendors"]').innerText()).toMatch(/^2 vendors .*some rely on legitimate interest/);
    // Their purposes 2 and 7 are exactly the GVL's stack 2, which the first layer names instead of the two.
    expect(await page.locator('[data-preview="purposes"]').innerText()).toContain("(stack 2)");

    const providers = page.getByRole("region", { name: "Google's Ad Tech Providers" });
    await page.getByLabel("Search providers by name or id").fill("criteo");
    await providers.getByLabel(/Criteo/).check();

    // Legitimate interest for purpose 1 is refused by the service (Policies C(b)); the refusal shows beside it.
    const restrictions = page.getByRole("region", { name: "Publisher restrictions" });
    const addRestriction = async (purpose: string, type: string) => {
      await restrictions.getByLabel("Purpose").selectOption(purpose);
      await restrictions.getByLabel("Restriction", { exact: true }).selectOption(type);
      await restrictions.getByLabel("Vendors (of the selected)").selectOption("10");
      await restrictions.getByRole("button", { name: "Add the restriction" }).click();
    };
    await addRestriction("1", "require-legitimate-interest");
    await page.getByRole("button", { name: "Save TCF settings" }).click();
    await shown(page, restrictions.getByRole("alert"));
    expect(await restrictions.getByRole("alert").innerText()).toContain("legitimate_interest_not_allowed");
    expect((await api(adminToken, "GET", `/admin/v1/projects/${projectId}/tcf`)).body.vendors).toEqual([]);

    await restrictions.getByRole("button", { name: /Remove the restriction of purpose 1/ }).click();
    await addRestriction("2", "not-allowed");
    await page.getByRole("button", { name: "Save TCF settings" }).click();
    await page.getByRole("status").filter({ hasText: "TCF settings saved." }).waitFor();
    const saved = (await api(adminToken, "GET", `/admin/v1/projects/${projectId}/tcf`)).body;
    expect(saved).toMatchObject({
      enabled: true,
      cmpId: 300,
      vendors: [10, 755],
      publisherRestrictions: [{ purpose: 2, type: "not-allowed", vendors: [10] }],
      acProviders: [2677],
    });

    await page.reload();
    await shown(page, page.locator("#tcf-vendors-count"));
    expect(await page.locator("#tcf-vendors-count").innerText()).toBe("2 vendors selected of 6.");
    await vendors.getByLabel("Only the selected").check();
    expect(await vendors.locator("fieldset input:checked").count()).toBe(2);
    expect(await restrictions.locator("li").innerText()).toMatch(/Purpose 2 .*Not allowed.*Index Exchange/);
    expect(await page.locator("#tcf-providers-count").innerText()).toBe("1 provider selected of 3.");
    expect(await page.locator('[data-preview="vendors"]').innerText()).toMatch(/^2 vendors/);

    await expectAccessible(page, "the TCF page");
    expect(portal.pageErrors).toEqual([]);
  });

  it("shows a viewer the settings read-only from the start, saying why, with nothing to change or save", async () => {
    const email = `tcf-viewer-${marker}@agency.example`;
    expect((await api(adminToken, "POST", "/admin/v1/members", { email, role: "viewer" })).status).toBe(202);
    const secret = await mailedSignInSecret(email);
    const context = await portal.browser.newContext({ viewport: { width: 1280, height: 860 } });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/portal/#sign-in=${secret}`);
    await page.getByRole("heading", { name: "Projects", level: 1 }).waitFor();
    await page.goto(tcfPage());
    await shown(page, page.locator("#tcf-vendors-count"));
    expect(await page.locator("#tcf-vendors-count").innerText()).toMatch(/^2 vendors selected/);

    // Known from the session (GET /portal/api/session: the viewer's scopes lack projects:write), not from a refused save.
    expect(await page.getByText("Your role may read these settings but not change them").isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: "Save TCF settings" }).isDisabled()).toBe(true);
    expect(await page.getByLabel("The widget acts as a TCF CMP").isDisabled()).toBe(true);
    expect(await page.getByLabel("CMP id").isDisabled()).toBe(true);
    expect(await page.getByRole("region", { name: "Vendors" }).locator("fieldset input").first().isDisabled()).toBe(true);
    expect(await page.getByRole("region", { name: "Publisher purposes" }).locator("input").first().isDisabled()).toBe(true);
    await expectAccessible(page, "the TCF page, read-only");
    await context.close();
  });
});
