// The Tag Manager template as the Community Template Gallery takes it (integrations/gtm/README.md): the folder holds
// what the gallery repository's root needs, the template carries its thumbnail, and the release script copies the
// folder into the gallery repository (its mirror), commits, and fills metadata.yaml from that commit.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { readTemplate } from "./gtm/template-file";

const root = fileURLToPath(new URL("../../", import.meta.url));
const folder = join(root, "integrations/gtm");
const read = (path: string) => readFileSync(path, "utf8");
const template = readTemplate(join(folder, "template.tpl"));

describe("the gallery folder", () => {
  it("holds the template, metadata.yaml, a README and the repository's LICENSE", () => {
    expect(read(join(folder, "LICENSE"))).toBe(read(join(root, "LICENSE")));
    for (const file of ["template.tpl", "metadata.yaml", "README.md"]) expect(read(join(folder, file)).length, file).toBeGreaterThan(0);
  });

  it("ships no placeholder where the repository's address belongs: metadata.yaml names the configured repository's docs", () => {
    for (const file of ["template.tpl", "metadata.yaml", "README.md", "LICENSE"]) {
      expect({ file, placeholder: /\bOWNER\b/.test(read(join(folder, file))) }).toEqual({ file, placeholder: false });
    }
    const repository = JSON.parse(read(join(root, "package.json"))).repository.url.replace(/^git\+/, "").replace(/\.git$/, "");
    expect(repository).toMatch(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/);
    expect(read(join(folder, "metadata.yaml"))).toContain(`documentation: "${repository}/blob/main/docs/gtm.md"`);
  });

  it("carries its thumbnail in the template's brand: thumbnail.png as a PNG data URI, square", () => {
    const thumbnail = template.info.brand.thumbnail;
    const png = readFileSync(join(folder, "thumbnail.png"));
    expect(thumbnail).toBe(`data:image/png;base64,${png.toString("base64")}`);
    expect(png.subarray(1, 4).toString()).toBe("PNG");
    const [width, height] = [png.readUInt32BE(16), png.readUInt32BE(20)];
    expect(width).toBe(height);
    expect(width).toBeGreaterThanOrEqual(64);
  });
});

// Each release runs git a dozen times: seconds on a busy machine.
describe("the release script", { timeout: 60_000 }, () => {
  const mirror = mkdtempSync(join(tmpdir(), "assent-gtm-mirror-"));
  afterAll(() => rmSync(mirror, { recursive: true, force: true }));
  const git = (...args: string[]) => execFileSync("git", args, { cwd: mirror, encoding: "utf8" }).trim();
  const release = (notes: string) =>
    execFileSync("node", [join(folder, "release.mjs"), mirror, "--notes", notes], { cwd: root, encoding: "utf8", env: { ...process.env, GIT_AUTHOR_NAME: "Release", GIT_AUTHOR_EMAIL: "release@example.com", GIT_COMMITTER_NAME: "Release", GIT_COMMITTER_EMAIL: "release@example.com" } });
  const homepage = "https://github.com/acme/assent-gtm-template";
  // The repository's address, configured once: the root package.json's `repository.url`.
  const assentDocs = `${JSON.parse(read(join(root, "package.json"))).repository.url.replace(/^git\+/, "").replace(/\.git$/, "")}/blob/main/docs/gtm.md`;

  it("copies the folder into the mirror, commits it, and fills metadata.yaml from that commit and the mirror's origin", () => {
    git("init", "-q", "-b", "main");
    git("remote", "add", "origin", `${homepage}.git`);
    release("First version.");
    const metadata = read(join(mirror, "metadata.yaml"));
    const templateCommit = git("rev-parse", "HEAD~1");
    expect(metadata).toBe(`homepage: "${homepage}"\ndocumentation: "${assentDocs}"\nversions:\n  - sha: "${templateCommit}"\n    changeNotes: First version.\n`);
    // The commit the sha names holds the template as it is here, with the LICENSE, README and thumbnail beside it.
    for (const file of ["template.tpl", "LICENSE", "README.md", "thumbnail.png"]) {
      expect(git("rev-parse", `${templateCommit}:${file}`), file).toBe(git("hash-object", join(folder, file)));
    }
    // metadata.yaml is committed after the commit it names.
    expect(git("show", "HEAD:metadata.yaml")).toBe(metadata.trim());
    expect(git("status", "--porcelain")).toBe("");
  });

  it("a new version: the template changed in the mirror's next commit, its entry on top, earlier versions kept", () => {
    const first = git("rev-parse", "HEAD~1");
    writeFileSync(join(mirror, "template.tpl"), "an older copy\n");
    git("commit", "-q", "-am", "drift");
    release("Second version.");
    const second = git("rev-parse", "HEAD~1");
    expect(second).not.toBe(first);
    expect(read(join(mirror, "metadata.yaml"))).toContain(
      `versions:\n  - sha: "${second}"\n    changeNotes: Second version.\n  - sha: "${first}"\n    changeNotes: First version.\n`,
    );
  });

  it("refuses without notes, and a mirror without an origin on GitHub", () => {
    expect(() => execFileSync("node", [join(folder, "release.mjs"), mirror], { stdio: "pipe" })).toThrow(/--notes/);
    git("remote", "set-url", "origin", "https://example.com/x.git");
    expect(() => release("Third.")).toThrow(/GitHub/);
  });
});
