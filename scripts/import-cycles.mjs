// Fails when the source has an import cycle (`npm run lint`), found by madge over everything that ships or builds.
// Type-only imports are skipped: TypeScript erases them, so they cannot change the order modules evaluate in.
import madge from "madge";

const roots = ["worker", "portal/src", "widget/src", "shared", "scripts", "bench"];

/**
 * Cycles known and being removed; once one is gone, its entry here only warns, so the removal can land first.
 * proof/ledger's erasure route calls requests/record's eraseIdentity, which records the erasure in the ledger.
 */
const known = [["worker/requests/record.ts", "worker/proof/ledger.ts"]];

const graph = await madge(roots, {
  fileExtensions: ["ts", "mjs"],
  tsConfig: "tsconfig.json",
  detectiveOptions: { ts: { skipTypeImports: true }, es6: { skipTypeImports: true } },
});

const key = (cycle) => [...cycle].sort().join(" > ");
const expected = new Set(known.map(key));
const found = graph.circular();
const unexpected = found.filter((cycle) => !expected.has(key(cycle)));
const gone = known.filter((cycle) => !found.some((f) => key(f) === key(cycle)));

for (const cycle of unexpected) console.error(`import cycle: ${cycle.join(" > ")} > ${cycle[0]}`);
for (const cycle of gone) console.warn(`known cycle no longer exists; remove it from scripts/import-cycles.mjs: ${cycle.join(" > ")}`);
if (unexpected.length) process.exit(1);
console.log(`no import cycles in ${Object.keys(graph.obj()).length} modules${known.length ? ` (besides ${known.length} known)` : ""}`);
