import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { crossings, relativeImports, sidesOf } from "../../scripts/boundaries.mjs";
import { layerCrossings, layerOf } from "../../scripts/layers.mjs";

/*
 * Each side of the project (the Worker, the scanner, the portal, the widget, the privacy center, each package and
 * example, the integrations, the benchmarks, the scripts) imports only its own code and shared/; shared/ imports none
 * of them (scripts/boundaries.mjs, run by `npm run lint`). So the API never bundles the scanner or the widget, and
 * a contract two sides speak has one home. The log verifier stays independent of the Worker whose log it checks.
 */
const root = fileURLToPath(new URL("../../", import.meta.url));

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts|mjs|js)$/.test(entry.name) ? [path] : [];
  });
}

/** A throwaway tree of sides, each file given by its path and text. */
const planted: string[] = [];
function tree(files: Record<string, string>) {
  const at = mkdtempSync(join(tmpdir(), "assent-sides-"));
  planted.push(at);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(at, path)), { recursive: true });
    writeFileSync(join(at, path), text);
  }
  return `${at}/`;
}
afterAll(() => planted.forEach((at) => rmSync(at, { recursive: true, force: true })));

/** Every side's folder, one file each, importing only shared/. */
const sidesTree = {
  "worker/index.ts": 'import { ttlCache } from "../shared/ttl-cache";\n',
  "scanner/crawl.ts": 'import type { ScanReport } from "../shared/scans/report";\n',
  "widget/src/index.ts": "export {};\n",
  "portal/src/app.ts": "export {};\n",
  "privacy-center/src/api.ts": 'import { sessionFor } from "../../shared/browser/session";\n',
  "integrations/gtm/template.mjs": "export {};\n",
  "bench/run.mjs": 'import { startService } from "../scripts/local-service.mjs";\n',
  "scripts/local-service.mjs": "export {};\n",
  "shared/ttl-cache.ts": "export {};\n",
  "packages/edge/src/list.ts": 'import { ttlCache } from "../../../shared/ttl-cache";\n',
  "packages/react/src/index.ts": "export {};\n",
  "packages/element/src/index.ts": "export {};\n",
  "examples/edge/src/index.ts": "export {};\n",
};

describe("import boundaries", () => {
  it("holds: no side imports another side's code, only its own and shared/", () => {
    expect(crossings(root)).toEqual([]);
  });

  it("covers every top-level folder that holds code, and each package and example apart", () => {
    const sides = sidesOf(root);
    const notSides = ["test", "docs", "drizzle", "data", "node_modules", "dist", ".git", ".wrangler", ".ci", "packages", "examples"];
    const topLevel = readdirSync(root, { withFileTypes: true }).filter((entry) => entry.isDirectory() && !notSides.includes(entry.name) && !entry.name.startsWith("."));
    expect(topLevel.map((entry) => entry.name).filter((folder) => !sides.includes(folder))).toEqual([]);
    expect(sides).toEqual(expect.arrayContaining(["scanner", "privacy-center", "packages/edge", "packages/react", "examples/edge", "bench", "scripts", "integrations"]));
  });

  it("fails on a planted crossing, whichever side plants it, and lets shared/ be everyone's", () => {
    expect(crossings(tree(sidesTree))).toEqual([]);
    const crossed = tree({
      ...sidesTree,
      "scanner/crawl.ts": 'import type { ScanReport } from "../worker/scans/report";\n',
      "privacy-center/src/api.ts": 'import { sessionFor } from "../../widget/src/api";\n',
      "packages/edge/src/list.ts": 'export { ttlCache } from "../../../worker/lib/ttl-cache";\n',
      "packages/react/src/index.ts": 'const element = await import("../../element/src/index");\n',
      "shared/ttl-cache.ts": 'import "../worker/index";\n',
      "widget/vite.config.ts": 'const signals = new URL("../worker/signals/signals.ts", import.meta.url);\n',
    });
    expect(crossings(crossed).sort()).toEqual(
      [
        "packages/edge/src/list.ts -> worker/lib/ttl-cache",
        "packages/react/src/index.ts -> packages/element/src/index",
        "privacy-center/src/api.ts -> widget/src/api",
        "scanner/crawl.ts -> worker/scans/report",
        "shared/ttl-cache.ts -> worker/index",
        "widget/vite.config.ts -> worker/signals/signals.ts",
      ].sort(),
    );
  });

  it("lets the benchmarks use the scripts, and nobody else", () => {
    expect(crossings(tree({ ...sidesTree, "portal/src/app.ts": 'import { startService } from "../../scripts/local-service.mjs";\n' }))).toEqual([
      "portal/src/app.ts -> scripts/local-service.mjs",
    ]);
  });

  it("the API Worker holds no browser automation: no worker/ module names a Playwright", () => {
    const automation = sourceFiles(join(root, "worker")).filter((file) => /["'](@cloudflare\/playwright|playwright-core|playwright)["']/.test(readFileSync(file, "utf8")));
    expect(automation.map((file) => relative(root, file))).toEqual([]);
  });

  it("the independent log verifier imports none of the Worker's code", () => {
    expect(relativeImports(root, join(root, "scripts/log-verifier.mjs")).filter((target) => !target.startsWith("scripts/"))).toEqual([]);
  });

  it("reads every form of relative import", () => {
    const file = join(root, "widget/src/assent-consent.ts");
    expect(relativeImports(root, file)).toEqual(expect.arrayContaining(["shared/browser/session", "widget/src/preferences"]));
  });
});

/*
 * The Worker's layers (docs/architecture.md#layers): plumbing in lib/, each folder's tables, the capabilities, and the
 * routes and jobs on top. `npm run lint` checks the Worker's own graph (scripts/layers.mjs, madge over worker/, tens of
 * seconds on a busy machine); here, that the rule places modules right and fails on every kind of crossing.
 */
describe("the Worker's layers", () => {
  const source = (module: string) => readFileSync(join(root, "worker", module), "utf8");

  it("places each module by its folder, its name and whether it makes a router", () => {
    expect(layerOf("lib/db.ts", "")).toBe("plumbing");
    expect(layerOf("requests/table.ts", "")).toBe("data model");
    expect(layerOf("requests/record.ts", source("requests/record.ts"))).toBe("capabilities");
    expect(layerOf("requests/routes.ts", source("requests/routes.ts"))).toBe("routes and jobs");
    expect(layerOf("app.ts", "")).toBe("routes and jobs");
    expect(layerOf("auth/router.ts", source("auth/router.ts"))).toBe("capabilities");
  });

  it("fails on each planted crossing", () => {
    const sources: Record<string, string> = { "a/routes.ts": "export const aRoutes = createRouter();", "b/routes.ts": "export const bRoutes = createRouter();" };
    const crossingsOf = (graph: Record<string, string[]>) => layerCrossings(graph, (module) => sources[module] ?? "");
    const fine = { "app.ts": ["a/routes.ts", "b/routes.ts"], "a/routes.ts": ["a/work.ts", "b/work.ts", "lib/db.ts"], "a/work.ts": ["b/work.ts", "b/table.ts", "lib/db.ts"], "b/work.ts": ["b/table.ts"], "b/table.ts": ["a/table.ts", "lib/db.ts"], "a/table.ts": [], "b/routes.ts": ["b/work.ts"], "lib/db.ts": [] };
    expect(crossingsOf(fine)).toEqual([]);
    expect(crossingsOf({ ...fine, "lib/db.ts": ["a/work.ts"] })).toEqual(["lib/db.ts -> a/work.ts: plumbing imports capabilities"]);
    expect(crossingsOf({ ...fine, "b/table.ts": ["b/work.ts"] })).toEqual(["b/table.ts -> b/work.ts: data model imports capabilities"]);
    expect(crossingsOf({ ...fine, "a/work.ts": ["b/routes.ts"] })).toEqual([expect.stringContaining("a/work.ts -> b/routes.ts: imports another folder's route module")]);
    expect(crossingsOf({ ...fine, "b/work.ts": ["a/work.ts"] })).toEqual([expect.stringMatching(/^the capabilities of a\/ -> b\/ -> a\/ import each other in a cycle/)]);
    const three = { ...fine, "c/work.ts": ["a/work.ts"], "b/work.ts": ["c/work.ts"] };
    expect(crossingsOf(three)).toEqual([expect.stringMatching(/^the capabilities of a\/ -> b\/ -> c\/ -> a\/ import each other in a cycle/)]);
  });
});

/*
 * The Worker goes through Hono's own plumbing: the request's database is a context variable (`c.set("db", …)`), so
 * the bindings stay what the runtime handed over; routes are declared with defineRoute(), never by patching the
 * router's `openapi` method. Log lines come from one module, whose fields leave no room for personal data
 * (docs/operations-data.md#logs).
 */
describe("the Worker's plumbing", () => {
  const workerFiles = sourceFiles(join(root, "worker"));
  const matching = (pattern: RegExp) =>
    workerFiles.flatMap((file) =>
      readFileSync(file, "utf8")
        .split("\n")
        .flatMap((line, index) => (pattern.test(line) ? [`${relative(root, file)}:${index + 1}: ${line.trim()}`] : [])),
    );

  it("assigns nothing to a context's bindings (c.env, c.env.DB)", () => {
    expect(matching(/\.env(\.\w+|\[[^\]]+\])?\s*=(?!=)/)).toEqual([]);
  });

  it("patches no router's openapi method", () => {
    expect(matching(/\.openapi\s*=(?!=)/)).toEqual([]);
  });

  it("logs only through worker/lib/logger.ts: no other module calls console", () => {
    expect(matching(/\bconsole\./).filter((line) => !line.startsWith("worker/lib/logger.ts:"))).toEqual([]);
  });

  it("hands written events to delivery from one place: commit (worker/events/commit.ts)", () => {
    expect(matching(/\bdispatchSoon\(/)).toEqual([expect.stringMatching(/^worker\/events\/commit\.ts:\d+: .*dispatchSoon\(/), expect.stringMatching(/^worker\/events\/outbox\.ts:\d+: export function dispatchSoon\(/)]);
  });
});
