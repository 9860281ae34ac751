// Fails when a module of the Worker imports across its layers (`npm run lint`; docs/architecture.md#layers), found by
// madge over worker/. Type-only imports are skipped: TypeScript erases them, so they tie nothing together at run time.
//
//   routes and jobs   the entry (app.ts, index.ts, docs.ts), the cron's jobs (cron/) and every route module (one
//                     that makes a router: createRouter()); no other folder imports a folder's route modules
//   capabilities      the rest of each folder (auth, requests, proof, …): no two folders import each other, nor
//                     any longer cycle
//   data model        each folder's table.ts: other tables and plumbing only
//   plumbing          lib/ and env.ts: nothing else of the Worker
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** Where a module of worker/ (a path below it, as `auth/tokens.ts`) sits. */
export function layerOf(module, source) {
  if (module.startsWith("lib/") || module === "env.ts") return "plumbing";
  if (module.endsWith("/table.ts")) return "data model";
  if (!module.includes("/") || module.startsWith("cron/")) return "routes and jobs";
  if (/=\s*createRouter\(\)/.test(source)) return "routes and jobs";
  return "capabilities";
}

const folderOf = (module) => (module.includes("/") ? module.slice(0, module.indexOf("/")) : "");

/**
 * Every import that crosses the layers in `graph` (module -> the modules it imports at run time, paths below
 * worker/), given each module's source: as "from -> to: why" lines, empty when the layers hold.
 */
export function layerCrossings(graph, sourceOf) {
  const layer = new Map(Object.keys(graph).map((module) => [module, layerOf(module, sourceOf(module))]));
  const problems = [];
  const allowed = { plumbing: ["plumbing"], "data model": ["plumbing", "data model"] };
  /** Capability folder -> the capability folders it imports, with the imports that say so. */
  const folders = new Map();
  for (const [from, targets] of Object.entries(graph)) {
    for (const to of targets.filter((target) => layer.has(target))) {
      const [a, b] = [layer.get(from), layer.get(to)];
      const [fromFolder, toFolder] = [folderOf(from), folderOf(to)];
      if (allowed[a] && !allowed[a].includes(b)) problems.push(`${from} -> ${to}: ${a} imports ${b}`);
      else if (b === "routes and jobs" && toFolder !== "" && fromFolder !== toFolder && fromFolder !== "" && fromFolder !== "cron") {
        problems.push(`${from} -> ${to}: imports another folder's route module (only the entry mounts them)`);
      } else if (a === "capabilities" && b === "capabilities" && fromFolder !== toFolder) {
        const edges = folders.get(fromFolder) ?? new Map();
        edges.set(toFolder, [...(edges.get(toFolder) ?? []), `${from} -> ${to}`]);
        folders.set(fromFolder, edges);
      }
    }
  }
  for (const cycle of cyclesOf(folders)) {
    const steps = cycle.map((folder, i) => folders.get(folder).get(cycle[(i + 1) % cycle.length]).join(", "));
    problems.push(`the capabilities of ${cycle.map((folder) => `${folder}/`).join(" -> ")} -> ${cycle[0]}/ import each other in a cycle: ${steps.join("; ")}`);
  }
  return problems;
}

/** The cycles of a folder graph, each once (from its least folder), found by depth-first search. */
function cyclesOf(folders) {
  const cycles = new Map();
  const walk = (path) => {
    for (const next of folders.get(path.at(-1))?.keys() ?? []) {
      if (next === path[0]) {
        const least = path.indexOf([...path].sort()[0]);
        const cycle = [...path.slice(least), ...path.slice(0, least)];
        cycles.set(cycle.join(">"), cycle);
      } else if (!path.includes(next) && next > path[0]) walk([...path, next]);
    }
  };
  for (const folder of folders.keys()) walk([folder]);
  return [...cycles.values()];
}

/** The Worker's run-time imports (module -> modules, paths below worker/), and each module's source, under `root`. */
export async function workerGraph(root) {
  const { default: madge } = await import("madge");
  const graph = (
    await madge(join(root, "worker"), {
      fileExtensions: ["ts"],
      tsConfig: join(root, "tsconfig.json"),
      detectiveOptions: { ts: { skipTypeImports: true }, es6: { skipTypeImports: true } },
    })
  ).obj();
  return { graph, sourceOf: (module) => readFileSync(join(root, "worker", module), "utf8") };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { graph, sourceOf } = await workerGraph(fileURLToPath(new URL("..", import.meta.url)));
  const problems = layerCrossings(graph, sourceOf);
  for (const problem of problems) console.error(`layer crossing: ${problem}`);
  if (problems.length) process.exit(1);
  console.log(`the Worker's ${Object.keys(graph).length} modules keep their layers`);
}
