// The portal's Analytics page in Debian's Chromium against `wrangler dev`: the counts the widget's beacons add show as
// charts with the same numbers in tables beside them, the CSV download holds them too, and axe finds nothing.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminToken, api, baseUrl, demoCopy, expectAccessible, openPortalBrowser, type PortalBrowser, shot, shown, signIn } from "./portal-helpers";

let portal: PortalBrowser;
let page: Page;

beforeAll(async () => {
  portal = await openPortalBrowser();
  page = portal.page;
  await signIn(page);
});

afterAll(async () => {
  await portal?.browser.close();
});

/** The widget's beacon for one page view, from the demo page's origin. */
const beacon = (projectId: string, report: unknown) =>
  fetch(`${baseUrl}/browser/v1/projects/${projectId}/analytics/events`, {
    method: "POST",
    headers: { "content-type": "text/plain;charset=UTF-8", origin: new URL(baseUrl).origin },
    body: JSON.stringify(report),
  });

describe("the portal's Analytics page", () => {
  it("shows the funnel, opt-in rates and breakdowns as charts and tables, and exports them as CSV", async () => {
    const projectId = await demoCopy();
    const before = (await api(adminToken, "GET", `/admin/v1/projects/${projectId}/analytics`)).body;
    const [first] = before.purposes as { purposeId: string; name: string }[];
    for (let i = 0; i < 14; i++) {
      const decision = i < 11 ? { event: "accept_all", granted: [first.purposeId] } : { event: "reject_all", refused: [first.purposeId] };
      const reply = await beacon(projectId, { regime: "opt-in", language: "en", path: "/shop", events: [{ event: "banner_shown" }, decision] });
      expect(reply.status).toBe(204);
    }

    await page.goto(`${baseUrl}/portal/projects/${projectId}/analytics`);
    await page.getByRole("heading", { name: "Analytics", level: 2 }).waitFor();
    const funnel = page.getByRole("table", { name: "Decision funnel" });
    await shown(page, funnel);
    expect(await funnel.getByRole("row", { name: /Banner shown/ }).innerText()).toContain("14");
    expect(await funnel.getByRole("row", { name: /Accept all/ }).innerText()).toContain("11");
    // Three refusals are under the minimum cell of 10: not shown.
    expect(await funnel.getByRole("row", { name: /Reject all/ }).innerText()).toContain("< 10");
    const purposes = page.getByRole("table", { name: "Opt-in rate per purpose over the period" });
    expect(await purposes.getByRole("row", { name: new RegExp(first.name) }).innerText()).toContain("11");
    expect(await page.getByRole("img", { name: /decision funnel: Banner shown 14/ }).count()).toBe(1);
    expect(await page.getByRole("table", { name: "Banner outcomes by page" }).getByRole("row", { name: /\/shop/ }).innerText()).toContain("78.6 %");

    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download CSV" }).click();
    const csv = await (await download).createReadStream();
    const text = await new Promise<string>((resolve) => {
      let data = "";
      csv.on("data", (chunk) => (data += chunk));
      csv.on("end", () => resolve(data));
    });
    const today = new Date().toISOString().slice(0, 10);
    expect(text).toContain(`${today},banner_shown,,14`);
    expect(text).toContain(`${today},accept_all,,11`);
    expect(text).toContain(`${today},reject_all,,\r\n`);

    await expectAccessible(page, "the Analytics page");
    await shot(page, "analytics");
    expect(portal.pageErrors).toEqual([]);
  });

  it("turns counting off and on again with the page's switch", async () => {
    const projectId = await demoCopy();
    const settings = async () => (await api(adminToken, "GET", `/admin/v1/projects/${projectId}/analytics/settings`)).body;
    await page.goto(`${baseUrl}/portal/projects/${projectId}/analytics`);
    const box = page.getByRole("checkbox", { name: "Count the banner's interactions" });
    await shown(page, box);
    expect(await box.isChecked()).toBe(true);
    await box.uncheck();
    await page.getByRole("button", { name: "Save counting" }).click();
    await page.getByText("Counting is off.").waitFor();
    expect(await settings()).toEqual({ enabled: false });
    await box.check();
    await page.getByRole("button", { name: "Save counting" }).click();
    await page.getByText("Counting is on.").waitFor();
    expect(await settings()).toEqual({ enabled: true });
    await expectAccessible(page, "the Analytics page's switch");
    expect(portal.pageErrors).toEqual([]);
  });
});
