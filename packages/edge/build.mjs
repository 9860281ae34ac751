// @assent/edge's dist/: one ES module bundled by esbuild (the package shares the host patterns and the isolate cache
// with the service, from outside its folder), and its declarations from tsc.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
await build({ entryPoints: [here("src/index.ts")], outfile: here("dist/index.js"), bundle: true, format: "esm", platform: "neutral", target: "es2022", logLevel: "warning" });
execFileSync("npx", ["tsc", "-p", here("tsconfig.build.json")], { stdio: "inherit" });
writeFileSync(here("dist/index.d.ts"), 'export * from "./types/packages/edge/src/index.js";\n');
