// scripts/rehearse-restore.mjs, the restore of docs/operations.md#restoring-the-database run on this machine from
// start to end: it passes with the erasure ledger kept outside the database, and fails, naming the erased person who
// came back, when the ledger is lost with the database.
import { execFile } from "node:child_process";
import { describe, expect, it } from "vitest";
import { importable } from "../../scripts/d1-import.mjs";

const rehearse = (...args: string[]) =>
  new Promise<{ code: number; output: string }>((resolve) =>
    execFile("node", ["scripts/rehearse-restore.mjs", ...args], { env: { ...process.env, WRANGLER_SEND_METRICS: "false" } }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
    ),
  );

/** The lines the restore without the ledger printed (`--both`), and the rest. */
const lead = "without the ledger, ";
const split = (output: string) => {
  const lines = output.split("\n");
  const lost = lines.flatMap((line, index) => (line.startsWith(lead) ? [line.slice(lead.length), lines[index + 1] ?? ""] : []));
  return { kept: lines.filter((line) => !line.startsWith(lead)).join("\n"), lost: lost.join("\n") };
};

describe("restore rehearsal", () => {
  // One run restores twice from the same history and exports (seeding, erasing and exporting are half of a rehearsal):
  // with the ledger, then from a copy without it.
  let both: Promise<{ code: number; output: string }> | undefined;
  const rehearsal = () => (both ??= rehearse("--both"));

  it("restores the point in time before an erasure, erases again from the ledger, and the log verifies", async () => {
    const { code, output } = await rehearsal();
    const { kept } = split(output);
    expect(kept, output).toMatch(/the restore brought erik back: erik answers 200 again/);
    expect(kept, output).toMatch(/reapply erasures \(npm run reapply-erasures\): prj_\w+: 1 ledger entries, 1 identities erased again: idn_\w+/);
    expect(kept, output).toMatch(/erased people stay erased, the others are as they were at the point in time: erik answers 404, anna 200/);
    expect(kept, output).toMatch(/verify it \(npm run verify-log\): ok: \d+ entries, \d+ signed heads/);
    expect(kept, output).toMatch(/restore rehearsal passed/);
    expect(kept, output).not.toMatch(/FAILED/);
    expect(code, output).toBe(0);
  }, 900_000);

  it("fails, naming the step, when the erasure ledger is lost with the database", async () => {
    const { output } = await rehearsal();
    const { lost } = split(output);
    expect(lost, output).toMatch(/the local D1 is gone; KV \(the erasure ledger\) wiped too/);
    expect(lost, output).toMatch(/erased people stay erased.*: FAILED\nerik answers again after reapplying erasures/);
    expect(lost, output).toMatch(/the restore failed, as it must/);
  }, 900_000);
});

describe("an export made importable", () => {
  it("creates every table before any row, and keeps rows, indexes and triggers in the export's order", () => {
    const exported = [
      "PRAGMA defer_foreign_keys=TRUE;",
      "CREATE TABLE `clients` (`id` text PRIMARY KEY, `project_id` text REFERENCES `projects`(`id`));",
      "INSERT INTO \"clients\" VALUES('cl_1','prj_1');",
      "CREATE TABLE `projects` (`id` text PRIMARY KEY, `note` text);",
      "INSERT INTO \"projects\" VALUES('prj_1','a; b');",
      "CREATE INDEX `clients_project_idx` ON `clients` (`project_id`);",
      "CREATE TRIGGER bump AFTER UPDATE ON projects\nBEGIN\n  UPDATE projects SET note = 'x' WHERE id = NEW.id;\nEND;",
    ].join("\n");
    expect(importable(exported)).toBe(
      [
        "PRAGMA defer_foreign_keys=TRUE",
        "CREATE TABLE `clients` (`id` text PRIMARY KEY, `project_id` text REFERENCES `projects`(`id`))",
        "CREATE TABLE `projects` (`id` text PRIMARY KEY, `note` text)",
        "INSERT INTO \"clients\" VALUES('cl_1','prj_1')",
        "INSERT INTO \"projects\" VALUES('prj_1','a; b')",
        "CREATE INDEX `clients_project_idx` ON `clients` (`project_id`)",
        "CREATE TRIGGER bump AFTER UPDATE ON projects\nBEGIN\n  UPDATE projects SET note = 'x' WHERE id = NEW.id;\nEND",
      ].join(";\n") + ";\n",
    );
  });
});
