// Fails when a module of the Worker imports across its layers (`npm run lint`; docs/architecture.md#layers), found by
// madge over worker/. Type-only imports are skipped: TypeScript erases them, so they tie nothing together at run time.
//
//   routes and jobs   route modules (each makes a router: createRouter()), the entry (app.ts, index.ts, docs.ts),
//                     the cron's jobs: imported by nothing but the entry
//   capabilities      every other module of a folder (auth, requests, proof, …): the folders form no cycle
//   data model        the folders' table.ts: tables and plumbing only
//   plumbing          lib/ and env.ts: nothing of a capability
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Where a module of worker/ (a path below it, as `auth/tokens.ts`) sits. */
export function layerOf(module, source) {
  if (module.startsWith("lib/") || module === "env.ts") return "plumbing";
  if (module.endsWith("/table.ts")) return "data model";
  if (!module.includes("/") || module.startsWith("cron/")) return "routes and jobs";
  if (/\bcreateRouter\(\)/.test(source)) return "routes and jobs";
  return "capabilities";
}

const folderOf = (module) => (module.includes("/") ? module.slice(0, module.indexOf("/")) : "");

/**
 * Every import that crosses the layers in `graph` (module -> the modules it imports at run time, paths below
 * worker/), given each module's source: as "from -> to: why" lines, empty when the layers hold.
 */
export function layerCrossings(graph, sourceOf) {
  const layer = new Map(Object.keys(graph).map((module) => [module, layerOf(module, sourceOf(module))]));
  const inWorker = (module) => layer.has(module);
  const problems = [];
  const below = { plumbing: ["plumbing"], "data model": ["plumbing", "data model"] };
  // Folder -> folders its capabilities import (capabilities of other folders only), for the cycle check.
  const folders = new Map();
  for (const [from, targets] of Object.entries(graph)) {
    for (const to of targets.filter(inWorker)) {
      const [a, b] = [layer.get(from), layer.get(to)];
      if (below[a] && !below[a].includes(b)) problems.push(`${from} -> ${to}: ${a} imports ${b}`);
      if (b === "routes and jobs" && a !== "routes and jobs") problems.push(`${from} -> ${to}: ${a} imports a route module or job`);
      if (b === "routes and jobs" && a === "routes and jobs" && folderOf(from) !== "" && folderOf(from) !== "cron") {
        problems.push(`${from} -> ${to}: a route module imports another (only the entry mounts them)`);
      }
      if (a === "capabilities" && b === "capabilities" && folderOf(from) !== folderOf(to)) {
        const edges = folders.get(folderOf(from)) ?? new Map();
        edges.set(folderOf(to), [...(edges.get(folderOf(to)) ?? []), `${from} -> ${to}`]);
        folders.set(folderOf(from), edges);
      }
    }
  }
  for (const [a, edges] of folders) {
    for (const [b, lines] of edges) {
      if (a < b && folders.get(b)?.has(a)) {
        problems.push(`${a}/ and ${b}/ import each other: ${[...lines, ...folders.get(b).get(a)].join(", ")}`);
      }
    }
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { default: madge } = await import("madge");
  const graph = (
    await madge("worker", {
      fileExtensions: ["ts"],
      tsConfig: "tsconfig.json",
      detectiveOptions: { ts: { skipTypeImports: true }, es6: { skipTypeImports: true } },
    })
  ).obj();
  const problems = layerCrossings(graph, (module) => readFileSync(`worker/${module}`, "utf8"));
  for (const problem of problems) console.error(`layer crossing: ${problem}`);
  if (problems.length) process.exit(1);
  console.log(`the Worker's ${Object.keys(graph).length} modules keep their layers`);
}
