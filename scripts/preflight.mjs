// Checks shared by `npm start` and `npm run deploy`: each returns what is wrong in words a new user can act on.
import { createServer } from "node:net";

/** Resolves to null when host:port is free, or to a one-line fix when something already listens there. */
export function portProblem(port, host) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", (error) =>
      resolve(
        error.code === "EADDRINUSE"
          ? `Port ${port} is taken (another \`npm start\`?). Start on another port: PORT=${Number(port) + 1} npm start`
          : `Cannot listen on ${host}:${port}: ${error.message}`,
      ),
    );
    server.listen(Number(port), host, () => server.close(() => resolve(null)));
  });
}

/** Secrets the Worker refuses to run without (docs/operations.md#deployment). */
export const requiredSecrets = ["ADMIN_TOKEN", "SIGNING_KEYS", "WEBHOOK_SECRETS_KEY"];

/**
 * What keeps wrangler.toml (its text) and the deployed secrets (their names) from a working deploy:
 * placeholder resource ids left from the template, and missing secrets.
 */
export function deployProblems(wranglerToml, secretNames) {
  const problems = [];
  const placeholder = /^\s*(database_id|id)\s*=\s*"(0+(-0+)*)?"\s*$/gm;
  for (const match of wranglerToml.matchAll(placeholder)) {
    const line = wranglerToml.slice(0, match.index).split("\n").length;
    const what = match[1] === "database_id" ? "D1 database_id (npx wrangler d1 create assent)" : "KV namespace id (npx wrangler kv namespace create assent)";
    problems.push(`wrangler.toml line ${line}: placeholder ${what}`);
  }
  const hasIssuer = /^\s*ISSUER\s*=/m.test(wranglerToml) || secretNames.includes("ISSUER");
  if (!hasIssuer) problems.push("ISSUER is not set: add ISSUER = \"https://your.host\" under [vars] in wrangler.toml");
  for (const name of requiredSecrets) {
    if (!secretNames.includes(name)) problems.push(`secret ${name} is missing: npx wrangler secret put ${name}`);
  }
  return [...problems, ...databaseMapProblems(wranglerToml)];
}

/**
 * The SCANNER service binding (`binding`) against the scanner's Worker's config (scanner/worker/wrangler.toml, as
 * wrangler reads it): it must name that Worker and its `Scanner` entrypoint, or every scan would fail.
 */
export function scannerProblems(binding, scannerConfig) {
  const problems = [];
  if (binding.service !== scannerConfig.name) {
    problems.push(`the SCANNER binding names the service "${binding.service}", but scanner/worker/wrangler.toml deploys "${scannerConfig.name}"`);
  }
  if (binding.entrypoint !== "Scanner") problems.push('the SCANNER binding needs entrypoint = "Scanner" (scanner/worker/index.ts)');
  if (!scannerConfig.browser?.binding) problems.push("scanner/worker/wrangler.toml has no [browser] binding: the scanner's Worker could not crawl");
  return problems;
}

/**
 * PROJECT_DATABASES (docs/operations.md#more-than-one-database-project-to-database-map) must be a JSON object whose values are D1 bindings declared in
 * wrangler.toml: a project mapped to a missing binding would answer 500 on every call. Checks the var as
 * wrangler.toml sets it (a TOML literal '…' or basic "…" string under [vars]).
 */
export function databaseMapProblems(wranglerToml) {
  const bindings = [...wranglerToml.matchAll(/^\[\[d1_databases\]\]\s*$([\s\S]*?)(?=^\[|(?![\s\S]))/gm)].flatMap(
    ([, block]) => /^\s*binding\s*=\s*"([^"]+)"/m.exec(block)?.[1] ?? [],
  );
  const line = /^\s*PROJECT_DATABASES\s*=\s*(?:'([^']*)'|"((?:[^"\\]|\\.)*)")\s*$/m.exec(wranglerToml);
  if (!line) return [];
  let map;
  try {
    map = JSON.parse(line[1] ?? JSON.parse(`"${line[2]}"`));
  } catch {
    map = undefined;
  }
  if (typeof map !== "object" || map === null || Array.isArray(map)) {
    return ['PROJECT_DATABASES is not a JSON object of project id → D1 binding name (e.g. \'{"prj_…": "DB_SHARD_1"}\')'];
  }
  return Object.entries(map)
    .filter(([, binding]) => !bindings.includes(binding))
    .map(([project, binding]) => `PROJECT_DATABASES maps ${project} to ${JSON.stringify(binding)}, which is no [[d1_databases]] binding in wrangler.toml`);
}
