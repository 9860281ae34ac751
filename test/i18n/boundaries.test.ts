import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/*
 * Each side of the project (the Worker, the portal, the widget) imports only its own code and shared/; shared/
 * imports none of them. So the Worker never bundles the widget's code, and the widget's words live where every side
 * can read them (shared/i18n). The log verifier stays independent of the Worker whose log it checks.
 */
const root = fileURLToPath(new URL("../../", import.meta.url));
const sides = ["worker", "portal", "widget", "shared"] as const;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts|mjs|js)$/.test(entry.name) ? [path] : [];
  });
}

/** The files a module imports by relative path (static, dynamic and type-only imports, re-exports), from the root. */
const relativeImports = (file: string) =>
  [...readFileSync(file, "utf8").matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}\/[^"']+)["']/g)].map((match) =>
    relative(root, resolve(dirname(file), match[1])),
  );

/** Every import from `side` that reaches into another side's folder (shared/ is every side's). */
function crossings(side: (typeof sides)[number]) {
  const foreign = sides.filter((other) => other !== side && other !== "shared").map((other) => `${other}/`);
  return sourceFiles(join(root, side)).flatMap((file) =>
    relativeImports(file)
      .filter((target) => foreign.some((folder) => target.startsWith(folder)))
      .map((target) => `${relative(root, file)} -> ${target}`),
  );
}

describe("import boundaries", () => {
  it.each(sides)("%s imports no other side's code, only its own and shared/", (side) => {
    expect(crossings(side)).toEqual([]);
  });

  it("the independent log verifier imports none of the Worker's code", () => {
    expect(relativeImports(join(root, "scripts/log-verifier.mjs")).filter((target) => !target.startsWith("scripts/"))).toEqual([]);
  });

  it("reads every form of relative import", () => {
    const file = join(root, "widget/src/assent-consent.ts");
    expect(relativeImports(file)).toEqual(expect.arrayContaining(["widget/src/api", "widget/src/preferences"]));
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
