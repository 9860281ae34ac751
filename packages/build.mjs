// Builds the packages into their dist/ folders and packs each as npm publishes it into dist/packages/
// (`npm run build:packages`): the tarballs docs/frameworks.md installs, and the ones to `npm publish`.
// @assent/element first: the wrappers are compiled against its declarations. Each package ships the repository's
// LICENSE, copied beside its package.json for the pack (npm always packs a LICENSE there; the copies are not committed).
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const tarballs = fileURLToPath(new URL("../dist/packages", import.meta.url));
mkdirSync(tarballs, { recursive: true });

for (const name of ["element", "react", "vue", "svelte", "edge"]) {
  const cwd = fileURLToPath(new URL(name, import.meta.url));
  execFileSync("npm", ["run", "--silent", "build"], { cwd, stdio: "inherit" });
  copyFileSync(`${root}/LICENSE`, `${cwd}/LICENSE`);
  execFileSync("npm", ["pack", "--silent", "--pack-destination", tarballs], { cwd, stdio: ["ignore", "ignore", "inherit"] });
}
