// Publishes a version of the Tag Manager template to its gallery repository (integrations/gtm/README.md):
//
//   node integrations/gtm/release.mjs <clone of the gallery repository> --notes "What changed."
//
// copies this folder's template.tpl, README.md, LICENSE and thumbnail.png into the clone and commits them, then
// writes metadata.yaml (the gallery reads `homepage`, `documentation` and `versions`, newest first, each `sha` a
// commit holding that version of the template) and commits it too. `homepage` is the clone's GitHub origin,
// `documentation` this repository's docs/gtm.md (shared/repository.mjs: the root package.json's repository); earlier
// versions are kept. Pushing is left to the person releasing.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { fileAddress } from "../../shared/repository.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const [mirror, flag, notes] = process.argv.slice(2);
if (!mirror || flag !== "--notes" || !notes?.trim()) {
  console.error('Usage: node integrations/gtm/release.mjs <gallery repository clone> --notes "What changed."');
  process.exit(2);
}
const git = (...args) => execFileSync("git", args, { cwd: mirror, encoding: "utf8" }).trim();

const origin = git("remote", "get-url", "origin");
const [, owner, repo] = /^(?:https:\/\/github\.com\/|git@github\.com:)([\w.-]+)\/([\w.-]+?)(?:\.git)?$/.exec(origin) ?? [];
if (!owner) {
  console.error(`The gallery reads a GitHub repository; the clone's origin is ${origin}.`);
  process.exit(1);
}
const homepage = `https://github.com/${owner}/${repo}`;
const documentation = fileAddress("docs/gtm.md");

for (const file of ["template.tpl", "README.md", "LICENSE", "thumbnail.png"]) copyFileSync(join(here, file), join(mirror, file));
git("add", "template.tpl", "README.md", "LICENSE", "thumbnail.png");
git("commit", "--allow-empty", "-q", "-m", `Template: ${notes.trim()}`);
const sha = git("rev-parse", "HEAD");

// The versions already published, as this script writes them.
const metadataPath = join(mirror, "metadata.yaml");
const earlier = existsSync(metadataPath)
  ? [...readFileSync(metadataPath, "utf8").matchAll(/^ {2}- sha: "?(\w*)"?\n {4}changeNotes: (.+)$/gm)].map(([, s, n]) => ({ sha: s, notes: n }))
  : [];
const versions = [{ sha, notes: notes.trim() }, ...earlier.filter((version) => version.sha && version.sha !== sha)];
writeFileSync(
  metadataPath,
  `homepage: "${homepage}"\ndocumentation: "${documentation}"\nversions:\n` +
    versions.map((version) => `  - sha: "${version.sha}"\n    changeNotes: ${version.notes}\n`).join(""),
);
git("add", "metadata.yaml");
git("commit", "-q", "-m", `metadata.yaml: version ${sha.slice(0, 12)}`);
console.log(`Committed ${sha} and its metadata.yaml in ${mirror}; push it, then submit or update the template in the gallery.`);
