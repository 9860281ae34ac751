// `npm run deploy`: refuses to upload a Worker that cannot work (placeholder ids, missing secrets), naming each.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { deployProblems } from "./preflight.mjs";

const env = { ...process.env, WRANGLER_SEND_METRICS: "false" };
let secretNames;
try {
  const listed = execFileSync("npx", ["wrangler", "secret", "list", "--format", "json"], { env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  secretNames = JSON.parse(listed).map((s) => s.name);
} catch (error) {
  // A Worker that was never deployed has no secrets yet; wrangler says so with an error.
  secretNames = [];
  if (!/not found|does not exist|10007/i.test(`${error.stderr ?? ""}${error.stdout ?? ""}`)) {
    console.error(`Could not list the Worker's secrets (are you logged in? npx wrangler login):\n${error.stderr ?? error.message}`);
    process.exit(1);
  }
}
const problems = deployProblems(readFileSync("wrangler.toml", "utf8"), secretNames);
if (problems.length > 0) {
  console.error(`Not deploying; fix these first (docs/operations.md#deployment):\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  process.exit(1);
}
execFileSync("npm", ["run", "build:client"], { stdio: "inherit", env });
execFileSync("npx", ["wrangler", "deploy"], { stdio: "inherit", env });
