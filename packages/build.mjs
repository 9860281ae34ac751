// Builds the framework packages into their dist/ folders (`npm run build:packages`), @assent/element first: the
// wrappers are compiled against its declarations.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

for (const name of ["element", "react", "vue", "svelte", "edge"]) {
  const cwd = fileURLToPath(new URL(name, import.meta.url));
  execFileSync("npm", ["run", "--silent", "build"], { cwd, stdio: "inherit" });
}
