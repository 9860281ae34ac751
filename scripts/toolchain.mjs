// Fails (`npm run lint`) when the toolchain drifts apart (docs/getting-started.md#node-and-the-toolchain): the Node
// running it is not one package.json's `engines` accepts (the project's own Node 22 is missing from
// node_modules/.bin), or the lockfile holds more than one wrangler, miniflare or workerd, so that the tests
// (@cloudflare/vitest-plugin), `npm start` and `wrangler deploy` would run on different runtimes. Its last line names
// them, and the TypeScript 7 the typecheck runs (scripts/typecheck.mjs).
import { readFileSync } from "node:fs";

const root = new URL("../", import.meta.url);
const readJson = (file) => JSON.parse(readFileSync(new URL(file, root), "utf8"));
const pkg = readJson("package.json");
const lock = readJson("package-lock.json");
const problems = [];

// `engines.node` is a list of `^major.minor.patch` or `>=major.minor.patch` alternatives.
const [major, minor, patch] = process.versions.node.split(".").map(Number);
const accepted = pkg.engines.node.split("||").some((range) => {
  const [, operator, ...bound] = /^\s*(\^|>=)(\d+)\.(\d+)\.(\d+)\s*$/.exec(range) ?? [];
  if (!operator) throw new Error(`package.json engines.node: cannot read "${range}"`);
  const [m, n, p] = bound.map(Number);
  const atLeast = major > m || (major === m && (minor > n || (minor === n && patch >= p)));
  return atLeast && (operator === ">=" || major === m);
});
if (!accepted) {
  problems.push(`Node ${process.versions.node} runs this, but package.json needs ${pkg.engines.node}: run it through npm (npm run, npx), which puts the project's node_modules/.bin/node first`);
}

/** Every version of a package the lockfile installs, wherever it is nested. */
const versionsOf = (name) =>
  new Set(
    Object.entries(lock.packages)
      .filter(([path]) => path === `node_modules/${name}` || path.endsWith(`/node_modules/${name}`))
      .map(([, entry]) => entry.version),
  );
for (const name of ["wrangler", "miniflare", "workerd"]) {
  const versions = [...versionsOf(name)];
  if (versions.length !== 1) problems.push(`package-lock.json installs ${name} ${versions.join(", ")}: tests, npm start and deploy must share one`);
}
const pinned = pkg.devDependencies.wrangler;
const plugin = lock.packages["node_modules/@cloudflare/vitest-plugin"].dependencies.wrangler;
if (pinned !== plugin) problems.push(`package.json pins wrangler ${pinned}, @cloudflare/vitest-plugin runs the tests on wrangler ${plugin}`);

for (const problem of problems) console.error(`toolchain: ${problem}`);
if (problems.length) process.exit(1);
console.log(`toolchain: Node ${process.versions.node}; wrangler ${pinned}, miniflare ${[...versionsOf("miniflare")]}, workerd ${[...versionsOf("workerd")]} for tests, start and deploy; typecheck on TypeScript ${readJson("node_modules/typescript-native/package.json").version}`);
