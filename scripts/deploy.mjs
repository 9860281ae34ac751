// `npm run deploy`: refuses to upload a Worker that cannot work (placeholder ids, missing secrets) or whose data would
// live outside a declared RESIDENCY, naming each; first it prints where each binding keeps its data.
// `npm run deploy -- --check` (npm run preflight) stops after the checks; `--config <file>` names another wrangler config.
// When the config binds the scanner's Worker (SCANNER, docs/scanner.md#the-scanners-worker), that Worker is checked
// and deployed first, from scanner/worker/wrangler.toml, so the binding never points at nothing.
import { execFile, execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { unstable_readConfig } from "wrangler";
import { deployProblems, scannerProblems } from "./preflight.mjs";
import { askCloudflare, residencyReport, wranglerError } from "./residency.mjs";

const env = { ...process.env, WRANGLER_SEND_METRICS: "false" };
const { values: options } = parseArgs({ options: { check: { type: "boolean" }, config: { type: "string", default: "wrangler.toml" } } });
const configArgs = ["--config", options.config];

/** The deployed Worker's secret names, or the problem that kept wrangler from listing them. */
const listSecrets = () =>
  new Promise((resolve) =>
    execFile("npx", ["wrangler", "secret", "list", "--format", "json", ...configArgs], { env }, (error, stdout, stderr) => {
      if (!error) return resolve({ names: JSON.parse(stdout).map((s) => s.name), problems: [] });
      // A Worker that was never deployed has no secrets yet; wrangler says so with an error.
      const said = `${stderr}${stdout}`;
      if (/not found|does not exist|10007/i.test(said)) return resolve({ names: [], problems: [] });
      resolve({ names: [], problems: [`could not list the Worker's secrets (are you logged in? npx wrangler login): ${wranglerError(said) || error.message}`] });
    }),
  );

const toml = readFileSync(options.config, "utf8");
const config = unstable_readConfig({ config: options.config });
const [secrets, answers] = await Promise.all([listSecrets(), askCloudflare(config, env)]);
const residency = residencyReport(config, answers, process.env.RESIDENCY ?? config.vars?.RESIDENCY);
const scannerConfigFile = "scanner/worker/wrangler.toml";
const scanner = config.services?.find((service) => service.binding === "SCANNER");
console.log(residency.lines.join("\n"));
const problems = [
  ...secrets.problems,
  ...deployProblems(toml, secrets.names),
  ...residency.problems,
  ...(scanner ? scannerProblems(scanner, unstable_readConfig({ config: scannerConfigFile })) : []),
];
if (problems.length > 0) {
  console.error(`Not deploying; fix these first (docs/operations.md#deployment):\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  process.exit(1);
}
if (options.check) {
  console.log("Ready to deploy.");
  process.exit(0);
}
execFileSync("npm", ["run", "build:client"], { stdio: "inherit", env });
if (scanner) execFileSync("npx", ["wrangler", "deploy", "--config", scannerConfigFile], { stdio: "inherit", env });
execFileSync("npx", ["wrangler", "deploy", ...configArgs], { stdio: "inherit", env });
