// The first layer of a TCF project's dialog, in Chromium (docs/tcf.md#loading): it waits for its TCF part, so a visitor
// answering at first sight gives a TC string and is not asked a second time; a vendor list that fails or hangs past
// the bound lets it ask without the part, as before; and the project's own wording of the TCF layers' words
// (docs/languages.md#a-projects-own-words) is what the layers show, IAB's names untouched.
import type { Browser, BrowserContext, Page, Route } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./browser";
import { acceptAllWithTcf, consentTaken, decoded, iabStub, prebidLike, recorded, tcfapi, tcfShop, vendors } from "./tcf-helpers";
import { banner, hostSite, moduleTag, ok, recordPermissionBodies, shopPage, visitor, type Json, type Shop } from "./widget-helpers";

let browser: Browser;
let site: Awaited<ReturnType<typeof hostSite>>;
let shop: Shop;
/** The project's vendor list as the service serves it in English, answered from the test while the page's request is held. */
let list: Json;

beforeAll(async () => {
  site = await hostSite();
  ({ shop, list } = await tcfShop(site.origin));
  site.pages["/stub.html"] = { body: shopPage(shop.projectId, { head: iabStub + prebidLike + moduleTag }) };
  browser = await launchBrowser();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

const listRequests = (projectId: string) => `**/tcf/v3/projects/${projectId}/vendor-list.json*`;
/** The list as the service answers it (a public document: any origin may read it). */
const answer = (route: Route) => route.fulfill({ json: list, headers: { "access-control-allow-origin": "*" } });

/**
 * Records, on every frame from the page's start, whether the first layer showed and whether its TCF part was in it the
 * first time it did: `__firstLayer` is "with TCF" or "without TCF".
 */
async function watchFirstLayer(context: BrowserContext) {
  await context.addInitScript(() => {
    const look = () => {
      const layer = document.querySelector("assent-consent")?.shadowRoot?.querySelector("[part~=banner]");
      if (layer) (window as any).__firstLayer = layer.querySelector("[part~=tcf]") ? "with TCF" : "without TCF";
      else requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
  });
}

const firstLayer = (page: Page) => page.evaluate(() => (window as any).__firstLayer as string | undefined);
const decisionRecorded = (page: Page) => page.waitForResponse((response) => /\/permissions$/.test(response.url()) && response.request().method() === "POST");

describe("the first layer waits for its TCF part", () => {
  it("is not shown while the vendor list is held; Accept all at first sight gives a TC string, and the next page does not ask again", async () => {
    const { context, page } = await visitor(browser);
    await watchFirstLayer(context);
    const posted = recordPermissionBodies(context);
    // The list is held until the test has looked at the page: the chunk asked for it, so the bootstrap answered long before.
    const shownWhileHeld: number[] = [];
    await context.route(listRequests(shop.projectId), async (route) => {
      shownWhileHeld.push(await banner(page).count());
      await answer(route);
    });
    await page.goto(`${site.origin}/stub.html`);
    const recordedDecision = decisionRecorded(page);
    await banner(page).getByRole("button", { name: "Accept all" }).click();
    expect((await recordedDecision).ok()).toBe(true);
    expect(shownWhileHeld).toEqual([0]);
    expect(await firstLayer(page)).toBe("with TCF");
    const tcString = posted.at(-1)!.meta.context.tcString;
    expect(decoded(tcString)).toMatchObject({ vendorsDisclosed: vendors, vendorConsents: vendors });
    await consentTaken(page, 1);
    expect(await recorded(page)).toEqual({ events: ["cmpuishown", "useractioncomplete"], consent: [expect.objectContaining({ tcString })] });

    await page.reload();
    await consentTaken(page, 1);
    expect((await recorded(page)).events).toEqual(["tcloaded"]);
    expect(await banner(page).count()).toBe(0);
    expect(await firstLayer(page)).toBeUndefined();
    await context.close();
  });

  it("a vendor list that fails: the first layer asks without its TCF part, the decision carries no TC string, and the next page asks again with it", async () => {
    const { context, page } = await visitor(browser);
    await watchFirstLayer(context);
    const posted = recordPermissionBodies(context);
    await context.route(listRequests(shop.projectId), (route) => route.abort());
    await page.goto(`${site.origin}/stub.html`);
    await banner(page).getByRole("button", { name: "Accept all" }).waitFor();
    expect(await firstLayer(page)).toBe("without TCF");
    // No CMP took the stub over: it keeps saying so.
    expect((await tcfapi(page, "ping")).data).toMatchObject({ cmpLoaded: false, cmpStatus: "stub" });
    const recordedDecision = decisionRecorded(page);
    await banner(page).getByRole("button", { name: "Accept all" }).click();
    expect((await recordedDecision).ok()).toBe(true);
    expect(posted.at(-1)!.meta.context.tcString).toBeUndefined();

    // The list answers again: the visitor decided, but no TC string was kept, so the dialog asks with its TCF part.
    await context.unroute(listRequests(shop.projectId));
    await page.reload();
    await banner(page).locator("[part~=tcf]").waitFor();
    expect(await firstLayer(page)).toBe("with TCF");
    await acceptAllWithTcf(page);
    await context.close();
  });

  it("a vendor list that hangs: the first layer asks without its TCF part after the bound, and the part joins it when the list comes", async () => {
    const { context, page } = await visitor(browser);
    await watchFirstLayer(context);
    const held: Route[] = [];
    await context.route(listRequests(shop.projectId), (route) => void held.push(route));
    await page.goto(`${site.origin}/stub.html`);
    // After the chunk's bound (5 s from its start), whatever the list does.
    await banner(page).getByRole("button", { name: "Accept all" }).waitFor();
    expect(held).toHaveLength(1);
    expect(await firstLayer(page)).toBe("without TCF");
    expect(await banner(page).locator("[part~=tcf]").count()).toBe(0);
    await answer(held[0]!);
    await banner(page).locator("[part~=tcf]").waitFor();
    await acceptAllWithTcf(page);
    await context.close();
  });
});

describe("the project's own wording of the TCF layers", () => {
  it("shows the project's words for the vendor count and the vendor list, and IAB's names as the GVL has them", async () => {
    const { shop: worded } = await tcfShop(site.origin);
    const own = { "tcf.vendorCount": "We work with {c} ad partners, for these purposes:", "tcf.vendorList": "Our ad partners" };
    await ok("PUT", worded.under("/configurations/ui-strings/en"), worded.token, { strings: own });
    site.pages["/worded.html"] = { body: shopPage(worded.projectId, { head: iabStub + prebidLike + moduleTag }) };
    const names = [...Object.values(list.stacks), ...Object.values(list.purposes), ...Object.values(list.specialFeatures)].map((item: any) => item.name);

    const { context, page } = await visitor(browser);
    await page.goto(`${site.origin}/worded.html`);
    const tcf = banner(page).locator("[part~=tcf]");
    await tcf.waitFor();
    await expect.poll(() => tcf.locator("p").textContent()).toContain("We work with 4 ad partners, for these purposes:");
    // Each item is a GVL name, a stack's followed by its GVL description in a <small> of its own.
    const listed = await tcf.locator("[part~=tcf-purposes] li").evaluateAll((items) =>
      items.map((item) => [...item.childNodes].filter((node) => node.nodeType === Node.TEXT_NODE).map((node) => node.textContent).join("").trim()),
    );
    expect(listed.length).toBeGreaterThan(0);
    for (const name of listed) expect(names).toContain(name);
    await banner(page).getByRole("button", { name: "Our ad partners (4)" }).click();
    await page.locator("assent-consent #tcf-vendors > summary", { hasText: "Our ad partners (4)" }).waitFor();
    await context.close();
  });
});
