// `npm start`: local secrets, migrations, wrangler dev, demo seed, then a ready-to-paste quickstart.
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { exportJWK, generateKeyPair } from "jose";
import { seedDemo } from "./seed.mjs";

const port = process.env.PORT ?? "8787";
const host = process.env.HOST ?? "127.0.0.1";
const base = `http://${host === "0.0.0.0" ? "127.0.0.1" : host}:${port}`;
const env = { ...process.env, WRANGLER_SEND_METRICS: "false" };

/** .dev.vars holds the local secrets: generated once, kept across runs (ADMIN_TOKEN from the environment wins). */
async function ensureDevVars() {
  const vars = {};
  if (existsSync(".dev.vars")) {
    for (const line of readFileSync(".dev.vars", "utf8").split("\n")) {
      const match = /^([A-Z_]+)='?(.*?)'?$/.exec(line.trim());
      if (match) vars[match[1]] = match[2];
    }
  }
  if (process.env.ADMIN_TOKEN) vars.ADMIN_TOKEN = process.env.ADMIN_TOKEN;
  vars.ADMIN_TOKEN ||= `adm_${randomBytes(24).toString("base64url")}`;
  if (!vars.SIGNING_KEYS) {
    const { privateKey } = await generateKeyPair("ES256", { extractable: true });
    vars.SIGNING_KEYS = JSON.stringify([{ ...(await exportJWK(privateKey)), kid: `local-${Date.now()}` }]);
  }
  vars.WEBHOOK_SECRETS_KEY ||= randomBytes(32).toString("base64url");
  writeFileSync(".dev.vars", Object.entries(vars).map(([k, v]) => `${k}='${v}'`).join("\n") + "\n", { mode: 0o600 });
  return vars;
}

async function waitForHealth(deadline = Date.now() + 60_000) {
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${base}/healthz`);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`wrangler dev did not answer on ${base} within 60 s`);
}

const vars = await ensureDevVars();
execFileSync("npm", ["run", "build:client"], { stdio: "inherit", env });
execFileSync("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local"], { stdio: "inherit", env: { ...env, CI: "true" } });
// Local webhooks may target this machine (http://localhost:…); production accepts only public https URLs.
// LOCAL_DEV lets the bootstrap take a forced regime (request.cf is a fixed location locally).
const devVars = ["--var", "ALLOW_LOOPBACK_WEBHOOKS:true", "--var", "LOCAL_DEV:true"];
const dev = spawn("npx", ["wrangler", "dev", "--port", port, "--ip", host, ...devVars, ...process.argv.slice(2)], { stdio: "inherit", env });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => dev.kill(signal));
dev.on("exit", (code) => process.exit(code ?? 0));

await waitForHealth();
const demo = await seedDemo(base, vars.ADMIN_TOKEN);
console.log(`
  Assent is running at ${base}
  API reference: ${base}/docs   OpenAPI: ${base}/openapi.json
  Demo project: ${demo.projectId}${demo.created ? " (seeded now)" : ""}

  Quickstart (paste into a shell in this folder):
    export ASSENT=${base}
    export ADMIN_TOKEN=$(sed -n "s/^ADMIN_TOKEN='\\(.*\\)'$/\\1/p" .dev.vars)
    curl -s -X POST $ASSENT/admin/v1/projects -H "authorization: Bearer $ADMIN_TOKEN" \\
      -H 'content-type: application/json' -d '{"name":"My shop"}'
  The README walks on from there: client, token, identity, alias lookup.
`);
