import { existsSync } from "node:fs";

/** Debian's `chromium-headless-shell` package: the headless-only build of the same Chromium. */
export const headlessShell = "/usr/lib/chromium/chromium-headless-shell";

/**
 * The Chromium a scan launches: `CHROMIUM_PATH` when set, else the headless shell where it is installed, else
 * Debian's full `/usr/bin/chromium`. The shell takes half the CPU for the same pages, and it keeps the third-party
 * cookies and storage a visitor's browser keeps by default, where the full browser's automation contexts block them
 * (docs/scanner.md#which-browser).
 */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH || (existsSync(headlessShell) ? headlessShell : "/usr/bin/chromium");
}

/**
 * Flags as Debian's Chromium runs headless here and in CI: no sandbox (containers), no GPU, no background traffic;
 * and a page's cross-site frames in the page's renderer process rather than one process per site (site isolation
 * off; `--disable-features` is left alone, since it would replace Playwright's own list): a scan opens two contexts per
 * page, each with third-party frames, and on two cores those processes' start-up is CPU the pages need
 * (docs/scanner.md#where-a-scan-waits). What a page sets and loads is the same either way: cookies are decided in
 * the network service, whichever process a frame runs in.
 */
export const chromiumFlags = [
  "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run", "--disable-site-isolation-trials",
];
