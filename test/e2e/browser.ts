// Debian's Chromium driven by playwright-core; no browser is ever downloaded.
import { mkdirSync } from "node:fs";
import { chromium, type Browser, type BrowserServer } from "playwright-core";
import { chromiumPath as scannerChromium } from "../../scanner/chromium";

/**
 * The browser the tests run: the scanner's (its headless shell where installed, else the full Chromium;
 * `CHROMIUM_PATH` overrides both), so that the scanner's tests see what its CLI sees. Every browser file run in the
 * shell passes, with about a third of the full browser's CPU (docs/testing.md, "Issue 35: the headless shell").
 */
export const chromiumPath = scannerChromium();

/** The flags every test browser runs with. */
export const launchArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--disable-sync",
  "--disable-quic",
];

/** The run's Chromium, started once by the e2e global setup (test/e2e/global-setup.ts) for every browser file. */
export function launchBrowserServer(): Promise<BrowserServer> {
  return chromium.launchServer({ executablePath: chromiumPath, headless: true, args: launchArgs });
}

/**
 * A connection to the run's Chromium: a file's own browser, whose contexts and pages no other file sees, and whose
 * `close()` closes them all and disconnects. A launch of its own cost every file some 2 s of CPU (8 s of wall time at
 * a load of 45 on two cores); a connection costs a WebSocket. A download is read with `saveAs` or
 * `createReadStream`: its `path()` is on the browser's side.
 */
export async function launchBrowser(): Promise<Browser> {
  // Imported here: the global setup imports this module too, outside any test file, where there is nothing to inject.
  const { browserEndpoint } = await import("./service-ready");
  return chromium.connect(browserEndpoint());
}

/**
 * Where browser tests put screenshots: an ignored folder, written on every run. `npm run screenshots` copies the
 * ones the README and docs/ show into test/artifacts/ (scripts/screenshots.mjs).
 */
export const artifacts = "test/artifacts/run";

export function artifactPath(name: string): string {
  mkdirSync(artifacts, { recursive: true });
  return `${artifacts}/${name}.png`;
}
