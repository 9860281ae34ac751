// The packages as npm publishes them: `npm run build:packages` (test/packages/global-setup.ts) builds each package and packs it into dist/packages/
// (the tarballs docs/frameworks.md installs). Each tarball is read as npm would unpack it: its files (the LICENSE,
// the README, what the build wrote, nothing else), its metadata (repository, homepage, bugs), an `exports` map whose
// every target is in the tarball, and declarations that type-check for an app that installs the tarballs.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const rootManifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
/** The repository's address, configured once: the root package.json's `repository.url` (a GitHub repository). */
const repository = /^git\+(https:\/\/github\.com\/[\w.-]+\/[\w.-]+?)\.git$/.exec(rootManifest.repository.url)![1];
const names = ["element", "react", "vue", "svelte", "edge"];

/** A tarball's files (without npm's `package/` prefix) and its package.json. */
type Tarball = { files: string[]; manifest: Record<string, any>; folder: string };
const tarballs = new Map<string, Tarball>();
/** The tarballs unpacked as an app's node_modules/@assent/*, beside the repository's own node_modules (react, vue, svelte). */
const app = join(root, "node_modules", ".assent-tarballs");

beforeAll(() => {
  rmSync(app, { recursive: true, force: true });
  for (const name of names) {
    const { version } = JSON.parse(readFileSync(join(root, `packages/${name}/package.json`), "utf8"));
    const file = join(root, `dist/packages/assent-${name}-${version}.tgz`);
    const folder = join(app, "node_modules/@assent", name);
    mkdirSync(folder, { recursive: true });
    execFileSync("tar", ["-xzf", file, "-C", folder, "--strip-components=1"]);
    const files = execFileSync("tar", ["-tzf", file], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean)
      .map((entry) => entry.replace(/^package\//, ""));
    tarballs.set(name, { files, folder, manifest: JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) });
  }
}, 60_000);

/** Every target an `exports` entry names, whatever the conditions. */
const targets = (entry: unknown): string[] =>
  typeof entry === "string" ? [entry] : Object.values(entry as Record<string, unknown>).flatMap(targets);

describe.each(names)("the @assent/%s tarball", (name) => {
  const tarball = () => tarballs.get(name)!;

  it("ships no placeholder where the repository's address belongs, in any of its files", () => {
    const { files, folder } = tarball();
    const placeholders = files.filter((file) => /\bOWNER\b/.test(readFileSync(join(folder, file), "utf8")));
    expect(placeholders).toEqual([]);
  });

  it("ships the repository's LICENSE and README beside the built files, and no sources or configuration", () => {
    const { files, folder } = tarball();
    expect(files).toContain("LICENSE");
    expect(readFileSync(join(folder, "LICENSE"), "utf8")).toBe(readFileSync(join(root, "LICENSE"), "utf8"));
    expect(files).toContain("README.md");
    expect(files).toContain("package.json");
    expect(files.filter((file) => !["LICENSE", "README.md", "package.json"].includes(file) && !file.startsWith("dist/"))).toEqual([]);
    expect(files.filter((file) => /\.tsbuildinfo$|(^|\/)tsconfig/.test(file))).toEqual([]);
  });

  it("names where it comes from: repository (with its folder), homepage and bugs, from the one configured repository URL", () => {
    const { manifest } = tarball();
    expect(manifest.repository).toEqual({ type: "git", url: `git+${repository}.git`, directory: `packages/${name}` });
    expect(manifest.homepage).toBe(`${repository}/tree/main/packages/${name}#readme`);
    expect(manifest.bugs).toEqual({ url: `${repository}/issues` });
    expect(manifest.license).toBe(rootManifest.license);
  });

  it("has an exports map whose every target is in the tarball, types first, and no scripts an install would run", () => {
    const { manifest, files } = tarball();
    expect(Object.keys(manifest.exports)).toEqual(["."]);
    const conditions = Object.keys(manifest.exports["."]);
    expect(conditions[0]).toBe("types");
    expect(conditions[conditions.length - 1]).toBe("default");
    for (const target of targets(manifest.exports)) expect(files, target).toContain(target.replace(/^\.\//, ""));
    for (const script of ["preinstall", "install", "postinstall", "prepare"]) expect(manifest.scripts?.[script]).toBeUndefined();
  });

  it("declares, in the tarball, every module its declarations import", () => {
    const { files, folder } = tarball();
    for (const declaration of files.filter((file) => file.endsWith(".d.ts"))) {
      const text = readFileSync(join(folder, declaration), "utf8");
      for (const [, specifier] of text.matchAll(/from\s+"(\.{1,2}\/[^"]+)"/g)) {
        const target = join(declaration, "..", specifier).replace(/\.js$/, ".d.ts");
        const candidates = [target, `${target}.d.ts`, target.replace(/\.svelte$/, ".svelte.d.ts")];
        expect({ declaration, specifier, found: candidates.some((candidate) => files.includes(candidate)) }).toEqual({ declaration, specifier, found: true });
      }
    }
  });
});

describe("the tarballs installed in an app", () => {
  it("type-check an app that uses each package's exports through its exports map", () => {
    const source = `import { mountAssentConsent, consentStore, type ConsentState } from "@assent/element";
import { AssentConsent as ReactConsent, useConsent } from "@assent/react";
import { AssentConsent as VueConsent, useConsent as useVueConsent } from "@assent/vue";
import { consent } from "@assent/svelte";
import { gate } from "@assent/edge";
const state: ConsentState | undefined = consentStore.get();
const allowed: boolean | undefined = useConsent("marketing");
const vue: boolean | undefined = useVueConsent("marketing").value;
// Typed, not \`any\`: tsc reports an unused expectation when a declaration does not resolve.
// @ts-expect-error the hook answers boolean | undefined
const wrong: string = useConsent("marketing");
export const used = [mountAssentConsent, state, allowed, ReactConsent, VueConsent, vue, wrong, consent("marketing"), gate];
`;
    writeFileSync(join(app, "app.ts"), source);
    writeFileSync(
      join(app, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, module: "ESNext", moduleResolution: "bundler", target: "ES2022", lib: ["ES2022", "DOM"], types: [], skipLibCheck: false },
        files: ["app.ts"],
      }),
    );
    // Throws with tsc's diagnostics when a package's types do not resolve or do not check.
    execFileSync(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", app], { cwd: tmpdir(), stdio: "pipe" });
  }, 120_000);
});
