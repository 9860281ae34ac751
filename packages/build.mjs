// Builds the packages into their dist/ folders and packs each as npm publishes it into dist/packages/
// (`npm run build:packages`): the tarballs docs/frameworks.md installs, and the ones to `npm publish`.
// @assent/element first: the wrappers are compiled against its declarations. Each package is packed from a staged
// copy (dist/packages/stage/<name>): its files, its README, the repository's LICENSE, and its package.json with the
// links derived from the one configured repository URL (shared/repository.mjs), so no package.json repeats it.
import { execFileSync } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { packageLinks } from "../shared/repository.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const tarballs = fileURLToPath(new URL("../dist/packages", import.meta.url));
mkdirSync(tarballs, { recursive: true });

for (const name of ["element", "react", "vue", "svelte", "edge"]) {
  const cwd = fileURLToPath(new URL(name, import.meta.url));
  execFileSync("npm", ["run", "--silent", "build"], { cwd, stdio: "inherit" });
  const manifest = JSON.parse(readFileSync(`${cwd}/package.json`, "utf8"));
  const stage = `${tarballs}/stage/${name}`;
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });
  for (const entry of [...manifest.files, "README.md"]) cpSync(`${cwd}/${entry}`, `${stage}/${entry}`, { recursive: true });
  copyFileSync(`${root}/LICENSE`, `${stage}/LICENSE`);
  // The links go after the license, where npm's own `npm init` puts them.
  const { name: packageName, version, description, license, ...rest } = manifest;
  const staged = { name: packageName, version, description, license, ...packageLinks(`packages/${name}`), ...rest };
  writeFileSync(`${stage}/package.json`, `${JSON.stringify(staged, null, 2)}\n`);
  execFileSync("npm", ["pack", "--silent", "--pack-destination", tarballs, stage], { cwd: stage, stdio: ["ignore", "ignore", "inherit"] });
}
