// docs/getting-started.md's walk-through as a new user runs it: its shell blocks verbatim in one bash, against this
// run's service (only the two lines that point the shell at the service and read its admin token differ), with the
// page step 11 serves opened in Chromium and a decision made as the doc says. Step 11 must then print the visitor's
// permission state: the identity the page reports, not step 4's customer-42.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { freePort } from "../../scripts/local-service.mjs";
import { launchBrowser } from "./browser";
import { pointedAtService, shellBlocks } from "./doc-shell";

const doc = "docs/getting-started.md";
// The port a reader chose for step 11's page (SITE_PORT; the doc's default, 3000, may be taken on a shared machine).
const sitePort = await freePort();
const site = `http://localhost:${sitePort}`;

/** The doc's shell blocks after the two commands (`npm ci && npm start` runs as this suite's global setup). */
const walkThrough = () => pointedAtService(shellBlocks(readFileSync(doc, "utf8")).filter((block) => !block.includes("npm start")).join("\n"));

/** A bash fed line by line, so the test can act between two parts of one block; `until` waits for a marker. */
function shell() {
  const bash: ChildProcess = spawn("bash", [], { stdio: ["pipe", "pipe", "pipe"], detached: true, env: { ...process.env, SITE_PORT: String(sitePort) } });
  let out = "";
  let err = "";
  bash.stdout!.on("data", (d) => (out += d));
  bash.stderr!.on("data", (d) => (err += d));
  return {
    bash,
    output: () => out,
    run(text: string, marker: string) {
      bash.stdin!.write(`${text}\necho ${marker}\n`);
      return expect.poll(() => out.includes(marker) || bash.exitCode !== null, { timeout: 60_000, interval: 100 }).toBe(true);
    },
    since: (marker: string) => out.slice(out.indexOf(marker) + marker.length),
    errors: () => err,
    /** The shell and what it started in the background (the doc's static server): one process group. */
    stop() {
      try {
        if (bash.pid) process.kill(-bash.pid, "SIGTERM");
      } catch {
        // already gone
      }
    },
  };
}

let browser: Browser;
let sh: ReturnType<typeof shell> | undefined;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  sh?.stop();
  await browser?.close();
});

it("steps 1 to 11 run verbatim, and step 11 reads back the visitor who decided in the page", async () => {
  const script = walkThrough();
  // Where the doc asks the reader to open the page and decide: the shell pauses there while the browser does so.
  const pause = script.search(/^# open \$SITE\b/im);
  expect(pause, "step 11 asks to open the page").toBeGreaterThan(0);
  const instruction = script.slice(pause).match(/^(#.*\n)+/)![0];
  await fetch(site).then(
    () => expect.fail(`${site} already answers: step 11's server needs the port`),
    () => undefined,
  );

  sh = shell();
  await sh.run(script.slice(0, pause), "__PAGE_SERVED__");
  await sh.run('echo "customer-42 is $IDENTITY"', "__STEP_4__");
  const customer42 = sh.output().match(/customer-42 is (idn_\w+)/)?.[1];
  expect(customer42, sh.errors()).toMatch(/^idn_/);
  await expect.poll(() => fetch(site).then((r) => r.ok, () => false), { timeout: 30_000 }).toBe(true);

  const context = await browser.newContext({ locale: "en-US" });
  const page = await context.newPage();
  await page.goto(site);
  await page.waitForFunction(() => (window as any).assent);
  await page.evaluate(() => (window as any).assent.ready);
  // A control the doc names (in quotes) that the page offers, then the preferences' save.
  const named = [...instruction.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
  const firstLayer = page.locator("assent-consent [part~=banner]");
  await firstLayer.waitFor({ state: "visible" });
  const offered = await firstLayer.getByRole("button").allTextContents();
  const control = named.find((name) => offered.map((text) => text.trim()).includes(name));
  expect(control, `the doc names a control the page offers (${offered.join(", ")}):\n${instruction}`).toBeTruthy();
  await firstLayer.getByRole("button", { name: control, exact: true }).click();
  await page.locator("assent-consent dialog").waitFor({ state: "visible" });
  await page.evaluate(() => (window as any).assent.on("change", (state: unknown) => ((window as any).decided = state)));
  await page.locator("assent-consent dialog [part~=save]").click();
  await page.waitForFunction(() => (window as any).decided);
  const pageIdentity: string = await page.evaluate(() => (window as any).assent.getConsent().identityId);
  expect(pageIdentity).toMatch(/^idn_/);
  await context.close();

  await sh.run(script.slice(pause), "__STEP_11__");
  // What step 11 printed; the static server's greeting may land anywhere in the shell's output (Python buffers it).
  const printed = sh.since("__STEP_4__").split("__STEP_11__")[0].replace(/Serving HTTP on .*\n/g, "").trim();
  expect(printed, sh.errors()).toMatch(/^\{/);
  const permissionState = JSON.parse(printed);
  expect(permissionState.identityId).toBe(pageIdentity);
  expect(permissionState.identityId).not.toBe(customer42);
});
