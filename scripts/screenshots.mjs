// `npm run screenshots`: runs the browser tests that take pictures (into the ignored test/artifacts/run/), then
// copies the ones the README and docs/ show into test/artifacts/, the only place tracked pictures change.
import { execFileSync } from "node:child_process";
import { copyFileSync, readFileSync, readdirSync } from "node:fs";

const run = "test/artifacts/run";
execFileSync("npx", ["vitest", "run", "--project", "e2e", "test/e2e/widget.test.ts", "test/e2e/widget-layout.test.ts", "test/e2e/widget-languages.test.ts", "test/e2e/portal.test.ts", "test/e2e/portal-members.test.ts", "test/e2e/portal-wording.test.ts", "test/e2e/privacy-center.test.ts"], {
  stdio: "inherit",
  env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
});
const pages = ["README.md", ...readdirSync("docs").filter((file) => file.endsWith(".md")).map((file) => `docs/${file}`)];
const text = pages.map((page) => readFileSync(page, "utf8")).join("\n");
const shown = readdirSync(run).filter((file) => file.endsWith(".png") && text.includes(`test/artifacts/${file}`));
for (const file of shown) copyFileSync(`${run}/${file}`, `test/artifacts/${file}`);
console.log(`Refreshed ${shown.length} pictures of the README and docs/ in test/artifacts/: ${shown.join(", ")}`);
