// Tools that find consent banners on a visitor's behalf (scanners, DuckDuckGo's autoconsent, Consent-O-Matic) look
// with document.querySelectorAll, which does not see into the widget's shadow root. The first layer's controls are
// therefore light-DOM children of <assent-consent> (slotted into the shadow buttons), and the element carries a
// `banner` attribute while the first layer shows. integrations/banner-rules/ publishes rules for both tools.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { launchBrowser } from "./browser";
import { answeredByService, banner, visitor } from "./widget-helpers";

const baseUrl = inject("baseUrl");
const autoconsentScript = readFileSync(
  join(dirname(createRequire(import.meta.url).resolve("@duckduckgo/autoconsent")), "autoconsent.playwright.js"),
  "utf8",
);
const autoconsentRule = JSON.parse(readFileSync("integrations/banner-rules/autoconsent/assent.json", "utf8"));
const consentOMaticRules = JSON.parse(readFileSync("integrations/banner-rules/consent-o-matic/assent.json", "utf8"));
/**
 * @slashgear/gdpr-cookie-scanner's modal check, the module its scan runs in phase 2. Its package exports only the
 * whole scan, which launches Playwright's own browser build; the check itself takes any Playwright page, so it runs
 * here on Debian's Chromium, from the package's own file.
 */
const scannerEntry = fileURLToPath(import.meta.resolve("@slashgear/gdpr-cookie-scanner"));
const { detectConsentModal } = (await import(join(dirname(scannerEntry), "scanner/consent-modal.js"))) as {
  detectConsentModal(page: Page, options: object): Promise<{ detected: boolean; selector: string | null; text: string; buttons: { type: string; text: string; selector: string }[] }>;
};

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser?.close());

/**
 * A new visitor of the demo page in the given regime: as a visitor from where it applies would get it (the service
 * takes a forced regime in local development, as the e2e service runs).
 */
async function demoVisitor(regime: "opt-in" | "opt-out") {
  const { context, page } = await visitor(browser);
  await context.setExtraHTTPHeaders({ "x-assent-regime": regime });
  return { context, page };
}

/** The state the widget holds (its `consent` property), in the page. */
const widgetState = () =>
  (document.querySelector("assent-consent") as unknown as { consent?: { consents: Record<string, boolean> } } | null)?.consent;

/** The demo page's gated purpose: it runs only with consent. */
const gatedNote = (page: Page) => page.locator("#gated").textContent();

/**
 * The rejection as the widget holds it: the demo's one consent-based purpose ("marketing") may not be used. (Its
 * other purposes rest on other grounds, which a rejection does not touch.) Under opt-out it is allowed until refused.
 */
const rejected = async (page: Page) => (await page.evaluate(widgetState))?.consents.marketing === false;

it("document.querySelectorAll finds the banner and its accept and reject controls in the light DOM, with the buttons' names", async () => {
  const { context, page } = await demoVisitor("opt-in");
  await page.goto(`${baseUrl}/`);
  await banner(page).waitFor({ state: "visible" });
  const found = await page.evaluate(() => ({
    banners: document.querySelectorAll("assent-consent[banner]").length,
    controls: Array.from(document.querySelectorAll("assent-consent[banner] > [slot]"), (control) => [control.slot, control.textContent]),
  }));
  expect(found).toEqual({
    banners: 1,
    controls: [
      ["reject", "Reject all"],
      ["customize", "Customize"],
      ["accept", "Accept all"],
    ],
  });
  // The light-DOM text is what the shadow buttons are named by, and it is visible where the buttons are.
  for (const name of ["Reject all", "Customize", "Accept all"]) await expect.poll(() => page.getByRole("button", { name, exact: true }).isVisible()).toBe(true);
  const rejectBox = await page.locator("assent-consent > [slot=reject]").boundingBox();
  const buttonBox = await page.getByRole("button", { name: "Reject all", exact: true }).boundingBox();
  expect(rejectBox!.width).toBeGreaterThan(0);
  expect(rejectBox!.x).toBeGreaterThanOrEqual(buttonBox!.x);
  expect(rejectBox!.x + rejectBox!.width).toBeLessThanOrEqual(buttonBox!.x + buttonBox!.width);

  // A tool's click on the light-DOM control is the visitor's click on the button.
  await page.evaluate(() => (document.querySelector("assent-consent[banner] > [slot=reject]") as HTMLElement).click());
  await page.waitForFunction(() => !document.querySelector("assent-consent[banner]"));
  expect(await page.evaluate(() => document.querySelectorAll("assent-consent > [slot]").length)).toBe(0);
  await expect.poll(() => rejected(page)).toBe(true);
  await context.close();
});

type AutoconsentMessage = { type: string; id?: string; code?: string; state?: { heuristicPatterns: string[] }; [key: string]: unknown };

/**
 * DuckDuckGo's autoconsent engine in the page, run through the harness its documentation describes: the messages it
 * sends, its `init` answered with `rules` and its configuration (only our rule, no heuristics, unless `config` says
 * otherwise), other vendors' detection snippets run in the page.
 */
async function withAutoconsent(page: Page, rules: object, config: object): Promise<AutoconsentMessage[]> {
  const messages: AutoconsentMessage[] = [];
  await page.exposeBinding("autoconsentSendMessage", async ({ frame }, message: AutoconsentMessage) => {
    messages.push(message);
    const answer = (reply: unknown) =>
      frame.evaluate((m) => (window as unknown as { autoconsentReceiveMessage(m: unknown): Promise<void> }).autoconsentReceiveMessage(m), reply);
    if (message.type === "init") {
      await answer({
        type: "initResp",
        rules,
        config: {
          enabled: true,
          autoAction: "optOut",
          disabledCmps: [],
          enablePrehide: false,
          enableCosmeticRules: false,
          enableGeneratedRules: false,
          enableHeuristicDetection: false,
          detectRetries: 20,
          isMainWorld: false,
          prehideTimeout: 2000,
          logs: { lifecycle: false, rulesteps: false, detectionsteps: false, evals: false, errors: true, messages: false, waits: false },
          ...config,
        },
      });
    }
    if (message.type === "eval") await answer({ type: "evalResp", id: message.id, result: await frame.evaluate(message.code!).catch(() => false) });
  });
  await page.addInitScript(autoconsentScript);
  return messages;
}

it.each(["opt-in", "opt-out"] as const)("DuckDuckGo's autoconsent engine, given only the published rule, detects the %s banner and opts out", async (regime) => {
  const { context, page } = await demoVisitor(regime);
  const messages = await withAutoconsent(page, { autoconsent: [autoconsentRule] }, {});
  await page.goto(`${baseUrl}/`);
  await expect.poll(() => messages.find((m) => m.type === "autoconsentDone"), { timeout: 20_000 }).toBeTruthy();
  expect(messages.find((m) => m.type === "cmpDetected")).toMatchObject({ cmp: "assent" });
  expect(messages.find((m) => m.type === "popupFound")).toMatchObject({ cmp: "assent" });
  expect(messages.find((m) => m.type === "optOutResult")).toMatchObject({ result: true });
  expect(messages.filter((m) => m.type === "autoconsentError")).toEqual([]);
  // The decision is the visitor's rejection, recorded by the service: it holds after a reload, and the gated
  // script never ran.
  await expect.poll(() => rejected(page)).toBe(true);
  await page.reload();
  await page.waitForFunction(widgetState);
  expect(await rejected(page)).toBe(true);
  await answeredByService(page);
  expect(await page.evaluate(() => document.querySelector("assent-consent[banner]"))).toBeNull();
  expect(await gatedNote(page)).toContain("Not run");
  await context.close();
});

/**
 * Consent-O-Matic's DOM selection, as its rule format defines it: `selector` through querySelectorAll from the
 * parent (or the document), kept when `textFilter` (one string or any of several) is in its text and, with
 * `displayFilter`, when it is displayed. Not the extension itself.
 */
function select(target: { selector: string; textFilter?: string | string[]; displayFilter?: boolean }) {
  const filters = target.textFilter === undefined ? [] : [target.textFilter].flat();
  return Array.from(document.querySelectorAll<HTMLElement>(target.selector)).filter(
    (element) =>
      (filters.length === 0 || filters.some((text) => element.textContent?.includes(text))) &&
      (!target.displayFilter || element.getClientRects().length > 0),
  );
}

it("the Consent-O-Matic rule's detectors and its reject path select the banner's light-DOM controls", async () => {
  const rule = consentOMaticRules.assent;
  const [detector] = rule.detectors;
  const method = (name: string) => rule.methods.find((m: { name: string }) => m.name === name)?.action;
  const matches = (page: Page, target: object) => page.evaluate(`(${select.toString()})(${JSON.stringify(target)}).length`);

  const { context, page } = await demoVisitor("opt-in");
  await page.goto(`${baseUrl}/`);
  await banner(page).waitFor({ state: "visible" });
  expect(await matches(page, detector.presentMatcher.target)).toBe(1);
  expect(await matches(page, detector.showingMatcher.target)).toBe(1);
  // DO_CONSENT refuses everything: one click on the reject control, which it finds by selector alone.
  const reject = method("DO_CONSENT");
  expect(reject.type).toBe("click");
  expect(await matches(page, reject.target)).toBe(1);
  await page.evaluate(`(${select.toString()})(${JSON.stringify(reject.target)})[0].click()`);
  await expect.poll(() => rejected(page)).toBe(true);
  // Decided: still present, no longer showing, so the extension leaves the page alone on the next visit.
  await page.reload();
  await page.waitForFunction(widgetState);
  await answeredByService(page);
  expect(await matches(page, detector.presentMatcher.target)).toBe(1);
  expect(await matches(page, detector.showingMatcher.target)).toBe(0);
  await context.close();
});

it("the cookie scanner's modal check finds the banner, its Reject all and Accept all, and its click on Reject all rejects", async () => {
  const { context, page } = await demoVisitor("opt-in");
  await page.goto(`${baseUrl}/`);
  await banner(page).waitFor({ state: "visible" });
  const modal = await detectConsentModal(page, {});
  expect(modal).toMatchObject({ detected: true, selector: "[class*='consent'][class*='banner']" });
  expect(modal.buttons.map((button) => [button.type, button.text])).toEqual(
    expect.arrayContaining([
      ["reject", "Reject all"],
      ["preferences", "Customize"],
      ["accept", "Accept all"],
    ]),
  );
  // What the scan does next (phase 3): click the reject button by the selector it made.
  await page.click(modal.buttons.find((button) => button.type === "reject")!.selector, { timeout: 30_000 });
  await expect.poll(() => rejected(page)).toBe(true);
  await context.close();
});

it("autoconsent with its own bundled rules and heuristics on finds the banner's words, where its heuristic click cannot reach (docs/audits.md#banner-tools)", async () => {
  const { context, page } = await demoVisitor("opt-in");
  const bundled = JSON.parse(readFileSync(join(dirname(createRequire(import.meta.url).resolve("@duckduckgo/autoconsent")), "..", "rules", "rules.json"), "utf8"));
  const messages = await withAutoconsent(page, bundled, { enableCosmeticRules: true, enableGeneratedRules: true, enableHeuristicDetection: true, heuristicMode: "reject", logs: {} });
  const reported = () => messages.filter((m) => m.type === "report").at(-1)?.state?.heuristicPatterns ?? [];
  await page.goto(`${baseUrl}/`);
  await banner(page).waitFor({ state: "visible" });
  await expect.poll(reported, { timeout: 30_000 }).toEqual(expect.arrayContaining(["/accept all/gi", "/reject all/gi"]));
  await context.close();
});
