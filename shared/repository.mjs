// The repository's address, configured in one place: the root package.json's `repository.url`, a GitHub
// repository. The npm packages' links (packages/build.mjs) and the Tag Manager template's documentation link
// (integrations/gtm/release.mjs) are derived from it, so a fork changes that one line.
import { readFileSync } from "node:fs";

const { repository } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const [, address] = /^(?:git\+)?(https:\/\/github\.com\/[\w.-]+\/[\w.-]+?)(?:\.git)?$/.exec(repository?.url ?? "") ?? [];
if (!address) throw new Error(`The root package.json's repository.url must name a GitHub repository, not ${JSON.stringify(repository?.url)}.`);

/** The repository's web address, `https://github.com/<owner>/<name>`. */
export const repositoryAddress = address;

/** A file's page in the repository, e.g. `docs/gtm.md`. */
export const fileAddress = (path) => `${address}/blob/main/${path}`;

/** The links a package published from `directory` (e.g. `packages/element`) carries in its package.json. */
export const packageLinks = (directory) => ({
  repository: { type: "git", url: `git+${address}.git`, directory },
  homepage: `${address}/tree/main/${directory}#readme`,
  bugs: { url: `${address}/issues` },
});
