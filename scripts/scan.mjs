// `npm run scan -- <url> …` (docs/scanner.md): the crawl module is TypeScript, shared with the Worker; Node 20 cannot
// run TypeScript, so this bundles scanner/cli.ts with esbuild (wrangler's and vite's own) on each run, in well under
// a second, leaving packages to Node's resolution. bench/scan.mjs loads the same bundle.
import { build } from "esbuild";
import { mkdirSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

/** The scanner's CLI module: `main(argv)`, `scanOrigin`, `summarize`. */
export async function loadScanner() {
  const outfile = `${root}node_modules/.cache/assent/scan-cli.mjs`;
  mkdirSync(`${root}node_modules/.cache/assent`, { recursive: true });
  await build({
    entryPoints: [`${root}scanner/cli.ts`],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "error",
  });
  return import(pathToFileURL(outfile).href);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { main } = await loadScanner();
  process.exitCode = await main(process.argv.slice(2));
}
