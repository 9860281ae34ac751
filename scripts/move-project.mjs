// Moves one project to another D1 database (docs/operations.md#more-than-one-database-project-to-database-map).
//   node scripts/move-project.mjs <projectId> <from> <to> [--remote] [--execute]
// <from>/<to> are database names or bindings as `wrangler d1 execute` takes them. Without --execute it only writes
// move-<projectId>-import.sql and move-<projectId>-delete.sql and prints the steps; with it, it exports and imports
// (never deletes: that is the last step, after the map is switched and deployed).
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { deleteStatements, exportQueries, importStatements } from "./move-project-sql.mjs";

const [projectId, from, to] = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const remote = process.argv.includes("--remote");
const execute = process.argv.includes("--execute");
if (!projectId || !from || !to) {
  console.error("usage: node scripts/move-project.mjs <projectId> <from-database> <to-database> [--remote] [--execute]");
  process.exit(2);
}
const where = remote ? "--remote" : "--local";
const env = { ...process.env, WRANGLER_SEND_METRICS: "false" };
const d1 = (database, ...args) =>
  JSON.parse(execFileSync("npx", ["wrangler", "d1", "execute", database, where, "--json", ...args], { env, encoding: "utf8", maxBuffer: 1 << 30 }));
const query = (database, sql) => d1(database, "--command", sql)[0].results;

const rows = exportQueries(projectId).map((sql) => query(from, sql));
if (rows[0].length === 0) {
  console.error(`${projectId} is not in ${from}.`);
  process.exit(1);
}
const importFile = `move-${projectId}-import.sql`;
const deleteFile = `move-${projectId}-delete.sql`;
writeFileSync(importFile, `${importStatements(projectId, rows).join("\n")}\n`);
writeFileSync(deleteFile, `${deleteStatements(projectId).join("\n")}\n`);
console.log(`Exported ${rows.reduce((n, r) => n + r.length, 0)} rows of ${projectId} from ${from} into ${importFile}.`);
if (execute) {
  d1(to, "--file", importFile);
  console.log(`Imported into ${to}.`);
}
console.log(`Steps (the project must be quiet from the export to the switch: writes in between stay behind in ${from}):
  1. ${execute ? "done" : `npx wrangler d1 execute ${to} ${where} --file ${importFile}`}
  2. Map it: PROJECT_DATABASES gets "${projectId}": "<binding of ${to}>" (wrangler.toml [vars]), then npm run deploy
  3. Check: GET /admin/v1/projects/${projectId} and a token's calls answer from ${to} (its SMS registrations and
     messages, if it uses the hub, stay in DB: nothing to do for them)
  4. npx wrangler d1 execute ${from} ${where} --file ${deleteFile}`);
