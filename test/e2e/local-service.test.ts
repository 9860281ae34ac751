// scripts/local-service.mjs, which starts the service for the browser tests, the page audits and the benchmark:
// a service that does not come up is reported with its log and leaves nothing behind. That the migrations it applies
// make the database wrangler's would is checked against `npm start`'s, which wrangler migrated (npm-start.test.ts).
import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { expect, it } from "vitest";
import { startService } from "../../scripts/local-service.mjs";

it("reports a runtime that exits with its log, and removes the state it made", async () => {
  const name = `failing${Date.now()}`;
  const states = () => readdirSync(tmpdir()).filter((entry) => entry.startsWith(`assent-${name}-`));
  await expect(startService({ name, options: ["--bogus-option"] })).rejects.toThrow(/the wrangler runtime did not start:[\s\S]*bogus-option/);
  expect(states()).toEqual([]);
  // Two wrangler starts (the migrations, when not copied from the run's migrated state, then the refused dev) took 61
  // and 95 s on a busy two-core machine; a runtime that hangs instead of exiting still fails within startService's own
  // 120 s wait for health.
}, 240_000);
