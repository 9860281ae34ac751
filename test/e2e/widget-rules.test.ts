// The rules a banner follows beyond the regime (docs/regulatory-readiness.md): purposes exempt from consent.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser } from "./browser";
import { banner, base, dialog, hostSite, ok, shopPage, shopProject, visitor, type Json, type Shop } from "./widget-helpers";

let browser: Browser;
let site: Awaited<ReturnType<typeof hostSite>>;
let shop: Shop;
let cart: Json;

beforeAll(async () => {
  site = await hostSite();
  shop = await shopProject(site.origin);
  cart = await ok("POST", shop.under("/configurations/purposes"), shop.token, {
    referenceId: "cart",
    name: "Shopping cart",
    description: [{ language: "en", text: "Keeps what you put in the cart." }],
    legalGround: "contract",
    controllers: [shop.shop.partyId],
    exemption: { reason: "requested-service", regime: "eprivacy" },
  });
  Object.assign(site.pages, {
    "/exempt.html": {
      body: shopPage(shop.projectId, {
        extra: `<p id="cart">not run</p><script type="text/plain" data-assent-purpose="cart" src="/cart.js"></script>`,
      }),
    },
    "/cart.js": { body: `document.getElementById("cart").textContent = "ran";`, type: "text/javascript" },
  });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

describe("exempt purposes", () => {
  it("are never gated, are shown as information and not as a switch, and the decision records the exemption", async () => {
    const { context, page } = await visitor(browser);
    await page.goto(`${site.origin}/exempt.html`);
    await banner(page).waitFor({ state: "visible" });
    // Opt-in, nothing decided: the exempt purpose's script runs, the consent purpose's does not.
    await page.waitForFunction(() => document.getElementById("cart")?.textContent === "ran");
    expect(await page.locator("#gated").textContent()).toBe("not run");
    expect(await page.evaluate(() => (window as any).assent.getConsent()?.consents.cart)).toBe(true);

    await page.getByRole("button", { name: "Customize" }).click();
    await dialog(page).waitFor({ state: "visible" });
    const entry = dialog(page).locator("[part=purpose]", { hasText: "Shopping cart" });
    await expect.poll(() => entry.locator("[part=exempt]").textContent()).toBe("Needs no consent");
    expect(await entry.getByRole("switch").count()).toBe(0);
    expect(await entry.getByRole("button", { name: /Object/ }).count()).toBe(0);
    expect(await dialog(page).getByRole("switch", { name: "Marketing" }).count()).toBe(1);

    const recorded = page.waitForResponse((r) => r.url().startsWith(base) && r.url().endsWith("/permissions") && r.request().method() === "POST");
    await dialog(page).getByRole("button", { name: "Reject all" }).click();
    const record = await (await recorded).json();
    expect(record.meta.context.exemptions).toEqual([{ purposeId: cart.purposeId, version: "1", reason: "requested-service", regime: "eprivacy" }]);
    expect(record.request.purposes.map((p: Json) => p.purposeId)).not.toContain(cart.purposeId);
    expect(await page.locator("#cart").textContent()).toBe("ran");
    await context.close();
  });
});
