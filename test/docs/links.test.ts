// The README is the front page (what it is, the two commands, the embed snippet, an API example, links), and every
// link in it, in BENCHMARKS.md and under docs/, and every docs/<file>.md#<anchor> the code cites, leads somewhere.
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";
import { anchors, linkTargets, read } from "./markdown";

const files = (dir: string, keep: (path: string) => boolean): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ["node_modules", "dist", "artifacts"].includes(entry.name) ? [] : files(path, keep);
    return keep(path) ? [path] : [];
  });

const markdownFiles = [
  "README.md",
  "BENCHMARKS.md",
  ...["docs", "packages", "examples"].flatMap((dir) => files(dir, (path) => path.endsWith(".md"))),
];
const anchorsOf = new Map<string, Set<string>>();
const anchorsIn = (path: string) => {
  if (!anchorsOf.has(path)) anchorsOf.set(path, anchors(read(path)));
  return anchorsOf.get(path)!;
};

/** Why a link from `from` to `target` leads nowhere, or undefined when it resolves. */
function broken(from: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // another site (http:, mailto:)
  const [rawPath, anchor] = target.split("#", 2) as [string, string | undefined];
  const path = rawPath === "" ? from : normalize(join(dirname(from), decodeURIComponent(rawPath)));
  if (path.startsWith("..") || !existsSync(path)) return `${target}: no file ${path}`;
  if (anchor === undefined) return undefined;
  if (statSync(path).isDirectory() || !path.endsWith(".md")) return `${target}: an anchor into ${path}, which has no headings`;
  return anchorsIn(path).has(decodeURIComponent(anchor)) ? undefined : `${target}: ${path} has no heading #${anchor}`;
}

describe("README.md", () => {
  const readme = read("README.md");

  it("is a front page of at most 200 lines", () => {
    expect(readme.replace(/\n$/, "").split("\n").length).toBeLessThanOrEqual(200);
  });

  it("has the two commands, the embed snippet, a curl example and the documentation index", () => {
    const missing = {
      "npm ci && npm start": readme.includes("npm ci && npm start"),
      "npm test": /^npm test\b/m.test(readme),
      "<assent-consent": readme.includes("<assent-consent"),
      "curl example": /^(?:.*\s)?curl -s /m.test(readme),
      "link to docs/README.md": linkTargets(readme).includes("docs/README.md"),
    };
    expect(Object.entries(missing).filter(([, present]) => !present).map(([what]) => what)).toEqual([]);
  });
});

describe("links", () => {
  it.each(markdownFiles)("every relative link and anchor in %s resolves", (path) => {
    expect(linkTargets(read(path)).map((target) => broken(path, target)).filter(Boolean)).toEqual([]);
  });

  it("every docs/<file>.md reference in the code resolves, anchor included", () => {
    const code = ["worker", "portal", "widget", "shared", "scripts", "test", "bench", "packages", "examples"]
      .filter((dir) => existsSync(dir))
      .flatMap((dir) => files(dir, (path) => /\.(ts|tsx|js|mjs|cjs|html|css|sql|toml|json)$/.test(path)));
    const references = code.flatMap((path) =>
      [...read(path).matchAll(/\bdocs\/[\w./-]+?\.md(?:#[\w-]+)?/g)].map((m) => ({ path, target: m[0] })),
    );
    expect(references.length).toBeGreaterThan(0);
    // Cited from the repository's root, as README.md would.
    const unresolved = references.flatMap(({ path, target }) => {
      const why = broken("README.md", target);
      return why ? [`${path}: ${why}`] : [];
    });
    expect(unresolved).toEqual([]);
  });
});
