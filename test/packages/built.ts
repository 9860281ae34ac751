// Every file of the packages project starts once the global setup's `npm run build:packages` has ended
// (test/packages/global-setup.ts), and fails with its output when it failed.
import { existsSync, readFileSync } from "node:fs";
import { beforeAll, inject } from "vitest";

beforeAll(async () => {
  const status = inject("packagesBuild");
  // The build is tsc and Vite over five packages: minutes on a busy two-core machine.
  while (!existsSync(status)) await new Promise((resolve) => setTimeout(resolve, 250));
  const { code, output } = JSON.parse(readFileSync(status, "utf8")) as { code: number | null; output: string };
  if (code !== 0) throw new Error(`npm run build:packages failed (exit ${code}):\n${output}`);
}, 900_000);
