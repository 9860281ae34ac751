// Builds and packs the packages once for the whole project, as the Assent repository step of docs/frameworks.md's
// install does (`npm run build:packages`): the files of this project read the same dist/ folders and tarballs, so
// none of them rebuilds while another reads. The build runs in the background, since Vitest runs every project's
// global setup one after another before any file starts: the e2e service starts meanwhile. Each file of this project
// waits for it first (test/packages/built.ts), and fails with tsc's diagnostics when a package does not type-check.
import { spawn } from "node:child_process";
import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** The file the build's outcome is written to once it ends: `{ code, output }`. */
    packagesBuild: string;
  }
}

export default function setup(project: TestProject) {
  const folder = mkdtempSync(join(tmpdir(), "assent-packages-build-"));
  const status = join(folder, "status.json");
  // Its own process group, so an interrupted run ends npm and the build it started.
  const build = spawn("npm", ["run", "--silent", "build:packages"], {
    cwd: fileURLToPath(new URL("../../", import.meta.url)),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  build.stdout.on("data", (data) => (output += data));
  build.stderr.on("data", (data) => (output += data));
  // Written whole, then renamed: a file that waits never reads half of it.
  const report = (code: number | null, text: string) => {
    writeFileSync(`${status}.part`, JSON.stringify({ code, output: text }));
    renameSync(`${status}.part`, status);
  };
  const ended = new Promise<void>((resolve) => {
    build.on("error", (error) => resolve(report(null, error.message)));
    build.on("close", (code) => resolve(report(code, output)));
  });
  project.provide("packagesBuild", status);
  return async () => {
    if (build.exitCode === null && build.pid) process.kill(-build.pid, "SIGTERM");
    await ended;
    rmSync(folder, { recursive: true, force: true });
  };
}
