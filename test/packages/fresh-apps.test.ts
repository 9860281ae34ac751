// docs/frameworks.md's install, run as written in fresh Vite apps for React, Vue and Svelte: the app's commands from
// the page (the template and the wrapper's tarball named per framework, as the page says), the page's example
// component in the app, then the template's own build (its type-check included) and, for Svelte, its check. The
// packages were built and packed by the repository step of the page (`npm run build:packages`), which this project's
// global setup runs. The npm registry is reached for the templates' dependencies, through npm's own cache (which a
// fresh clone's CI run shares with the last, unlike one in node_modules), so a second run mostly reads it; the waits
// are long because a shared machine may be slow.
import { exec } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const page = readFileSync(join(root, "docs/frameworks.md"), "utf8");
const run = promisify(exec);

/** The fenced blocks of `language` in the page's section `heading` (up to the next `## `). */
function blocks(heading: string, language: string) {
  const start = page.indexOf(`\n## ${heading}\n`);
  const section = page.slice(start, page.indexOf("\n## ", start + 1));
  return [...section.matchAll(new RegExp("```" + language + "\\n([\\s\\S]*?)```", "g"))].map((match) => match[1]);
}

/** A block's commands: its lines without comments. */
const commands = (block: string) =>
  block
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").replace(/^#.*$/, "").trim())
    .filter(Boolean);

const [, repositoryStep, appStep] = blocks("Install", "sh");

/** Per framework: the page's section, its example's language, and the app files that render the example. */
const frameworks = [
  {
    name: "react",
    section: "React",
    language: "tsx",
    example: "src/Shop.tsx",
    app: { "src/App.tsx": 'import { Shop } from "./Shop";\n\nexport default function App() {\n  return <Shop />;\n}\n' },
    checks: ["build"],
  },
  {
    name: "vue",
    section: "Vue",
    language: "vue",
    example: "src/Shop.vue",
    app: { "src/App.vue": '<script setup lang="ts">\nimport Shop from "./Shop.vue";\n</script>\n\n<template>\n  <Shop />\n</template>\n' },
    checks: ["build"],
  },
  {
    name: "svelte",
    section: "Svelte",
    language: "svelte",
    example: "src/Shop.svelte",
    app: { "src/App.svelte": '<script lang="ts">\n  import Shop from "./Shop.svelte";\n</script>\n\n<Shop />\n' },
    checks: ["build", "check"],
  },
];

const workspace = mkdtempSync(join(tmpdir(), "assent-fresh-apps-"));
// Three apps' node_modules: seconds to delete on a busy disk.
afterAll(() => rmSync(workspace, { recursive: true, force: true }), 120_000);

/** npm as a developer's terminal runs it, answering npx's "Ok to proceed?" and taking from its cache what it holds. */
const env = {
  ...process.env,
  npm_config_yes: "true",
  npm_config_prefer_offline: "true",
  npm_config_audit: "false",
  npm_config_fund: "false",
  npm_config_update_notifier: "false",
};

/** Runs `command` in `cwd`; a failure carries the command's output. */
async function sh(command: string, cwd: string) {
  try {
    return (await run(command, { cwd, env, maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout: string; stderr: string };
    throw new Error(`${command} (in ${cwd}) failed:\n${stdout}\n${stderr}`);
  }
}

describe("docs/frameworks.md's install, in fresh Vite apps", () => {
  it("has the repository step this project's setup ran, and one step for the app", () => {
    expect(commands(repositoryStep)).toEqual(["npm run build:packages"]);
    expect(commands(appStep)[0]).toMatch(/^npm create vite@\d+\.\d+\.\d+ my-app -- --template react-ts$/);
  });

  it.concurrent.each(frameworks)(
    "$section: the page's commands install the tarballs, and the page's example builds and type-checks",
    async ({ name, section, language, example, app, checks }) => {
      const folder = mkdtempSync(join(workspace, `${name}-`));
      let cwd = folder;
      for (const command of commands(appStep)) {
        const line = command
          .replace("--template react-ts", `--template ${name}-ts`)
          .replace("/assent-react-", `/assent-${name}-`)
          .replaceAll("<assent>", root.replace(/\/$/, ""));
        const into = /^cd (\S+)$/.exec(line);
        if (into) cwd = join(cwd, into[1]);
        else await sh(line, cwd);
      }
      // Copied, not linked: the tarballs, as a published install.
      const manifest = JSON.parse(readFileSync(join(cwd, "package.json"), "utf8"));
      expect(manifest.dependencies[`@assent/${name}`]).toMatch(/^file:.*\.tgz$/);
      expect(manifest.dependencies["@assent/element"]).toMatch(/^file:.*\.tgz$/);

      const [code] = blocks(section, language);
      expect(code).toContain(`@assent/${name}`);
      writeFileSync(join(cwd, example), code);
      for (const [file, text] of Object.entries(app)) writeFileSync(join(cwd, file), text);
      for (const script of checks) await sh(`npm run ${script}`, cwd);
      // The element the wrapper places is in the app's bundle: @assent/element resolved from the app.
      const bundle = readdirSync(join(cwd, "dist/assets")).filter((file) => file.endsWith(".js"));
      expect(bundle.some((file) => readFileSync(join(cwd, "dist/assets", file), "utf8").includes("assent-consent"))).toBe(true);
    },
    // Three apps' installs at once on a shared two-core machine: minutes, not seconds.
    900_000,
  );
});
