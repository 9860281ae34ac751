// Fails when the source has an import cycle (`npm run lint`), found by madge over everything that ships or builds.
// Type-only imports are skipped: TypeScript erases them, so they cannot change the order modules evaluate in.
import madge from "madge";

const roots = ["worker", "scanner", "portal/src", "widget/src", "privacy-center/src", "shared", "scripts", "bench", "packages", "examples", "integrations"];

const graph = await madge(roots, {
  fileExtensions: ["ts", "mjs"],
  tsConfig: "tsconfig.json",
  // What the framework packages' builds wrote (npm run build:packages).
  excludeRegExp: [/\/dist\//],
  detectiveOptions: { ts: { skipTypeImports: true }, es6: { skipTypeImports: true } },
});

const cycles = graph.circular();
for (const cycle of cycles) console.error(`import cycle: ${cycle.join(" > ")} > ${cycle[0]}`);
if (cycles.length) process.exit(1);
console.log(`no import cycles in ${Object.keys(graph.obj()).length} modules`);
