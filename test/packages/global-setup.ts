// Builds and packs the packages once for the whole project, as the Assent repository step of docs/frameworks.md's
// install does (`npm run build:packages`): the files of this project read the same dist/ folders and tarballs, so
// none of them rebuilds while another reads. Throws with tsc's diagnostics when a package does not type-check.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export default function setup() {
  execFileSync("npm", ["run", "--silent", "build:packages"], { cwd: fileURLToPath(new URL("../../", import.meta.url)), stdio: "pipe" });
}
