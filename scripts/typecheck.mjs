// `npm run typecheck`: TypeScript 7's native compiler (the `typescript-native` dependency, called by its path:
// node_modules/.bin/tsc may be TypeScript 5's, which stays installed for the tools that import its JavaScript API)
// over every project, each with its own tsconfig.json. All of them run even when one fails, so one run shows every error.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const projects = [
  ".",
  "test/e2e",
  "test/i18n",
  "test/gpp",
  "test/docs",
  "test/scanner",
  "test/integrations",
  "widget",
  "portal",
  "privacy-center",
  "test/packages",
  "packages/element",
  "packages/react",
  "packages/vue",
  "packages/svelte",
  "packages/edge",
  "examples/edge",
];
const tsc = fileURLToPath(new URL("../node_modules/typescript-native/bin/tsc", import.meta.url));
const failed = projects.filter((project) => spawnSync(process.execPath, [tsc, "--noEmit", "-p", project], { stdio: "inherit" }).status !== 0);
if (failed.length) {
  console.error(`typecheck: ${failed.join(", ")} failed`);
  process.exit(1);
}
