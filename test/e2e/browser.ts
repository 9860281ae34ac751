// Debian's Chromium driven by playwright-core; no browser is ever downloaded.
import { mkdirSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

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

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: launchArgs });
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
