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

/** Secrets the Worker refuses to run without (README "Deployment"). */
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
  return problems;
}
