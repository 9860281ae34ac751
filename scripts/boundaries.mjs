// Fails when one side of the project imports another side's code (`npm run lint`; docs/architecture.md#sides).
// Each side imports only its own code and shared/, which imports no side; the few tools that drive another side
// say so in `mayAlsoUse`. Every relative import counts, type-only ones too: a type shared is a contract, and its
// home is shared/.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The sides: every top-level folder that holds code, each framework package and example on its own (they are
 * published or copied apart). shared/ is every side's.
 */
export function sidesOf(root) {
  const folders = ["worker", "portal", "widget", "privacy-center", "scanner", "integrations", "bench", "scripts", "shared"];
  const each = (parent) => readdirSync(join(root, parent), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => `${parent}/${entry.name}`);
  return [...folders, ...each("packages"), ...each("examples")];
}

/** What a side may use besides its own code and shared/: tools that start the service or run the scanner. */
export const mayAlsoUse = {
  // The benchmarks start the service through the scripts, run the scanner's CLI and scan the browser tests' fixture site.
  bench: ["scripts/", "test/e2e/scan-fixture.mjs", "scanner/cli.ts"],
  // Bundles the edge example with @assent/edge from source, for the tests and the benchmark.
  // Runs the scanner's CLI (npm run scan), TypeScript that Node 22 runs as it is.
  scripts: ["examples/edge/src/index.ts", "packages/edge/src/index.ts", "scanner/cli.ts"],
};

const skipped = new Set(["node_modules", "dist", ".wrangler"]);

function sourceFiles(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return skipped.has(entry.name) ? [] : sourceFiles(path);
    return /\.(ts|tsx|mts|mjs|js|jsx|vue|svelte)$/.test(entry.name) ? [path] : [];
  });
}

/**
 * The files a module reaches by relative path, from the root: static, dynamic and type-only imports, re-exports,
 * require(), and files it reads through `new URL("…", import.meta.url)` (a build that evaluates another side's module).
 */
export const relativeImports = (root, file) =>
  [
    ...readFileSync(file, "utf8").matchAll(
      /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\(\s*|\bnew URL\(\s*)["'](\.{1,2}\/[^"']+)["']/g,
    ),
  ].map((match) => relative(root, resolve(dirname(file), match[1])));

/** Every import that reaches from one side into another's folder, as "file -> target" lines. */
export function crossings(root) {
  const sides = sidesOf(root);
  const sideOf = (path) => sides.find((side) => path === side || path.startsWith(`${side}/`));
  return sides.flatMap((side) =>
    sourceFiles(join(root, side)).flatMap((file) =>
      relativeImports(root, file)
        .filter((target) => {
          const other = sideOf(target);
          if (!other || other === side || other === "shared") return false;
          return !(mayAlsoUse[side] ?? []).some((allowed) => target === allowed || target.startsWith(allowed));
        })
        .map((target) => `${relative(root, file)} -> ${target}`),
    ),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const found = crossings(root);
  for (const line of found) console.error(`side crossing: ${line}`);
  if (found.length) process.exit(1);
  console.log(`${sidesOf(root).length} sides import only their own code and shared/`);
}
