// The demo page at / (worker/widget/): the first thing a new user sees after `npm start`, on the project the seed
// made, served by wrangler dev with its placeholder location (Austin, Texas) as `npm start` runs it.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { demoCustomerEmail, seedDemo } from "../../scripts/seed.mjs";
import { launchBrowser } from "./browser";
import { demoProjectId as demoProject } from "./service-ready";
import { pointedAtService, shellBlocks } from "./doc-shell";
import { adminToken, answeredByService, banner, base, events, ok, visitor, waitForEvent, type Json } from "./widget-helpers";

const demoProjectId = demoProject();

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

const stateCard = (page: Page) => page.locator("#state");
const storedDecision = (page: Page) =>
  page.evaluate(() => {
    const key = Object.keys(localStorage).find((k) => k.startsWith("assent:") && k.endsWith(":decision"));
    return key ? JSON.parse(localStorage.getItem(key)!) : null;
  });
const regimeSwitch = (page: Page) => page.getByRole("navigation", { name: "Regime" });

describe("a first visit", () => {
  it("asks first: the opt-in banner (the project's jurisdiction, SE, stands in for the placeholder location), nothing approved or run", async () => {
    const { context, page } = await visitor(browser);
    await page.goto(`${base}/`);
    await banner(page).waitFor({ state: "visible" });
    expect(await banner(page).locator("button").allTextContents()).toEqual(["Reject all", "Customize", "Accept all"]);
    const [ready] = await events(page, "assent-ready");
    expect(ready.regime).toBe("opt-in");
    expect(ready.consents).toMatchObject({ marketing: false });
    await expect.poll(() => stateCard(page).innerText()).toMatch(/marketing\s+not allowed/);
    expect(await page.locator("#regime").textContent()).toContain("opt-in");
    expect(await page.locator("#gated").textContent()).toBe("Not run: no approval yet");
    const decision = await storedDecision(page);
    expect(decision.consents.marketing).toBe(false);
    expect(decision.modes.ad_storage).toBe("denied");
    expect(await page.evaluate(() => (window as any).__violations)).toEqual([]);
    await context.close();
  });

  it("Reject all refuses everything that stores on the device: marketing and analytics not allowed, Consent Mode denied", async () => {
    const { context, page } = await visitor(browser);
    await page.goto(`${base}/`);
    await banner(page).getByRole("button", { name: "Reject all" }).click();
    await banner(page).waitFor({ state: "detached" });
    const [change] = await events(page, "assent-change");
    expect(change.consents).toMatchObject({ marketing: false, analytics: false, orders: true, bookkeeping: true });
    const { modes } = await storedDecision(page);
    expect(modes).toMatchObject({ ad_storage: "denied", analytics_storage: "denied", functionality_storage: "granted", security_storage: "granted" });
    await context.close();
  });

  it("switches between opt-in, opt-out and notice on the page itself, each shown as that regime's banner", async () => {
    const { context, page } = await visitor(browser);
    await page.goto(`${base}/`);
    await banner(page).waitFor({ state: "visible" });
    expect(await regimeSwitch(page).getByRole("link").allTextContents()).toEqual(["Automatic", "Opt-in", "Opt-out", "Notice"]);
    expect(await regimeSwitch(page).getByRole("link", { name: "Automatic" }).getAttribute("aria-current")).toBe("page");
    for (const [link, buttons] of [
      // The demo project is Swedish: the opt-out links to the choices without California's prescribed words.
      ["Opt-out", ["Your privacy choices", "OK"]],
      ["Notice", ["Your privacy choices", "OK"]],
      ["Opt-in", ["Reject all", "Customize", "Accept all"]],
    ] as const) {
      await regimeSwitch(page).getByRole("link", { name: link }).click();
      await page.waitForURL(`${base}/?regime=${link.toLowerCase()}`);
      await banner(page).waitFor({ state: "visible" });
      expect(await banner(page).locator("button").allTextContents()).toEqual(buttons);
      expect(await regimeSwitch(page).getByRole("link", { name: link }).getAttribute("aria-current")).toBe("page");
      await expect.poll(() => page.locator("#regime").textContent()).toContain(link.toLowerCase());
    }
    // Under opt-out the gated script runs until the visitor opts out: that is what the regime means.
    await regimeSwitch(page).getByRole("link", { name: "Opt-out" }).click();
    await page.locator("#gated", { hasText: "Ran" }).waitFor();
    await context.close();
  });

  it("New visitor forgets this browser's decision and asks again", async () => {
    const { context, page } = await visitor(browser);
    await page.goto(`${base}/`);
    await banner(page).getByRole("button", { name: "Accept all" }).click();
    await banner(page).waitFor({ state: "detached" });
    const before = (await events(page, "assent-change"))[0].identityId;
    await page.getByRole("button", { name: "New visitor" }).click();
    await banner(page).waitFor({ state: "visible" });
    const [ready] = await events(page, "assent-ready");
    expect(ready.identityId).toMatch(/^idn_/);
    expect(ready.identityId).not.toBe(before);
    await context.close();
  });
});

describe("a returning visitor", () => {
  it("sees their state at once, whenever the widget announced it, and window.assent.ready settles", async () => {
    const { context, page } = await visitor(browser);
    await page.goto(`${base}/`);
    await banner(page).getByRole("button", { name: "Accept all" }).click();
    await banner(page).waitFor({ state: "detached" });
    await page.reload();
    await waitForEvent(page, "assent-ready");
    await stateCard(page).getByText("marketing").waitFor();
    expect(await stateCard(page).innerText()).toMatch(/marketing\s+allowed/);
    expect(await page.locator("#identity").textContent()).toMatch(/Visitor identity: idn_/);
    expect((await page.evaluate(() => (window as any).assent.ready)).consents.marketing).toBe(true);
    await answeredByService(page);
    expect(await banner(page).count()).toBe(0);
    await context.close();
  });
});

/** Forwards every request on a new port of this machine to the running service, as a second wrangler dev would serve it. */
async function secondPort(): Promise<{ origin: string; close(): Promise<void> }> {
  const target = new URL(base);
  const server: Server = createServer((incoming, outgoing) => {
    const forwarded = request(
      { host: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers: { ...incoming.headers, host: target.host } },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe("npm start on a second port in the same folder (the seed runs again, for that origin)", () => {
  it("the demo works there, under both its host names, and still on the first port", async () => {
    const clients = `/admin/v1/projects/${demoProjectId}/clients`;
    const demoWebsite = async () =>
      (await ok("GET", clients, adminToken)).items.filter((client: Json) => client.type === "web" && client.name === "Demo website");
    const [seeded] = await demoWebsite();
    const second = await secondPort();
    try {
      expect(await seedDemo(second.origin, adminToken)).toEqual({ projectId: demoProjectId, created: false });
      // Seeding again for an origin already listed changes nothing.
      await seedDemo(second.origin, adminToken);
      const web = await demoWebsite();
      expect(web).toHaveLength(1);
      const listed: string[] = web[0].allowedOrigins;
      const localhost = second.origin.replace("127.0.0.1", "localhost");
      for (const origin of [base, second.origin, localhost]) expect(listed.filter((o) => o === origin)).toEqual([origin]);
      for (const origin of [second.origin, localhost, base]) {
        const { context, page } = await visitor(browser);
        await page.goto(`${origin}/`);
        await banner(page).waitFor({ state: "visible" });
        expect(await events(page, "assent-error")).toEqual([]);
        expect((await events(page, "assent-ready"))[0].identityId).toMatch(/^idn_/);
        await context.close();
      }
    } finally {
      await second.close();
      // Leave the demo as the seed made it, for the other browser tests (the portal's pictures show its clients).
      await ok("PUT", `${clients}/${seeded.clientId}`, adminToken, { allowedOrigins: seeded.allowedOrigins });
    }
  });
});

describe("the demo's privacy center", () => {
  /** docs/privacy-center.md's "Try it on the demo": its walk-through (the first shell block), pointed at this run's service. */
  const walkThrough = () =>
    pointedAtService(shellBlocks(readFileSync("docs/privacy-center.md", "utf8").split(/^## Try it on the demo$/m)[1].split(/^## /m)[0])[0]);

  it("verifies by email from the seed: the doc's walk-through runs verbatim and files an access request for the demo's customer", async () => {
    const { stdout: output } = await promisify(execFile)("bash", ["-c", walkThrough()], { encoding: "utf8" });
    expect(output).toContain(`The demo's privacy center: ${base}/privacy-center/${demoProjectId}`);
    // curl prints each answer without a newline: the person's view is the last one.
    const me = JSON.parse(output.slice(output.lastIndexOf('{"verification"')));
    expect(me.identity.aliases).toContainEqual(expect.objectContaining({ identifier: demoCustomerEmail }));
    expect(me.verification.method).toBe("email");
    expect(me.requests).toContainEqual(expect.objectContaining({ kind: "access" }));
  });
});
