// The packages as they would be published: each builds (tsc type-checks and emits, in test/packages/global-setup.ts),
// its package.json points at files the build wrote, and the Svelte component compiles. The wrappers run in Chromium in
// test/e2e/frameworks.test.ts.
import { existsSync, readFileSync } from "node:fs";
import { compile } from "svelte/compiler";
import { describe, expect, it } from "vitest";

const root = new URL("../../", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), "utf8");
const json = (path: string) => JSON.parse(read(path));

const packages = [
  { folder: "element", peer: undefined },
  { folder: "react", peer: "react" },
  { folder: "vue", peer: "vue" },
  { folder: "svelte", peer: "svelte" },
];

/** Every file an `exports` entry names, whatever the conditions. */
const exported = (entry: unknown): string[] =>
  typeof entry === "string" ? [entry] : Object.values(entry as Record<string, unknown>).flatMap(exported);

describe.each(packages)("@assent/$folder", ({ folder, peer }) => {
  const manifest = json(`packages/${folder}/package.json`);

  it("is laid out for publishing: named, licensed as the repository, its files and a README", () => {
    expect(manifest.name).toBe(`@assent/${folder}`);
    expect(manifest.license).toBe(json("package.json").license);
    expect(manifest.private).toBeUndefined();
    expect(manifest.files).toEqual(["dist"]);
    expect(existsSync(new URL(`packages/${folder}/README.md`, root))).toBe(true);
  });

  it("exports files the build wrote, with their types", () => {
    const files = exported(manifest.exports);
    expect(files).toContain("./dist/index.d.ts");
    expect(files).toContain("./dist/index.js");
    for (const file of files) expect(existsSync(new URL(`packages/${folder}/${file}`, root)), file).toBe(true);
  });

  it("leaves its framework to the page (a peer) and depends on @assent/element at its version", () => {
    if (!peer) return expect(manifest.dependencies).toBeUndefined();
    expect(Object.keys(manifest.peerDependencies)).toEqual([peer]);
    expect(manifest.dependencies).toEqual({ "@assent/element": json("packages/element/package.json").version });
  });
});

describe("@assent/edge", () => {
  const manifest = json("packages/edge/package.json");

  it("is laid out for publishing, its exports written by the build", () => {
    expect(manifest.name).toBe("@assent/edge");
    expect(manifest.license).toBe(json("package.json").license);
    expect(manifest.files).toEqual(["dist"]);
    expect(existsSync(new URL("packages/edge/README.md", root))).toBe(true);
    for (const file of exported(manifest.exports)) expect(existsSync(new URL(`packages/edge/${file}`, root)), file).toBe(true);
  });

  it("is one module carrying what it shares with the service, importing nothing", () => {
    const code = read("packages/edge/dist/index.js");
    expect(code).not.toMatch(/^\s*import\s/m);
    expect(code).toContain("function patternCovers");
    expect(read("packages/edge/dist/index.d.ts")).toContain("./types/packages/edge/src/index.js");
    expect(read("packages/edge/dist/types/packages/edge/src/index.d.ts")).toContain("export declare function gate(");
  });
});

describe("the Svelte component", () => {
  const source = read("packages/svelte/src/AssentConsent.svelte");

  it.each(["client", "server"] as const)("compiles for the %s without warnings", (generate) => {
    const { warnings, js } = compile(source, { filename: "AssentConsent.svelte", generate });
    expect(warnings.map((warning) => `${warning.code}: ${warning.message}`)).toEqual([]);
    expect(js.code).toContain("@assent/element");
  });

  it("is published as source beside its declaration, where the package's index imports it", () => {
    for (const file of ["AssentConsent.svelte", "AssentConsent.svelte.d.ts"]) {
      expect(read(`packages/svelte/dist/${file}`)).toBe(read(`packages/svelte/src/${file}`));
    }
    expect(read("packages/svelte/dist/index.js")).toContain('from "./AssentConsent.svelte"');
  });
});
