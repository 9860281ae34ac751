// `npm start`: local secrets, migrations, wrangler dev, demo seed, then a ready-to-paste quickstart.
// `npm run serve` (`--lean`): the same, but the built Worker bundle runs in Miniflare without dev tooling
// (scripts/lean-server.mjs): what the benchmark measures as the Worker itself.
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { freePort, newSecretKey, newSigningKeys, runtimes, waitForHealth } from "./local-service.mjs";
import { portProblem } from "./preflight.mjs";
import { seedDemo } from "./seed.mjs";

const port = process.env.PORT ?? "8787";
const host = process.env.HOST ?? "127.0.0.1";
// Where this machine reaches the service: a wildcard address is reached on loopback, an IPv6 address in brackets.
const reachableHost = host === "0.0.0.0" || host === "::" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
const base = `http://${reachableHost}:${port}`;
const env = { ...process.env, WRANGLER_SEND_METRICS: "false" };
const lean = process.argv.includes("--lean");
const runtimeArgs = process.argv.slice(2).filter((arg) => arg !== "--lean");

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
  vars.SIGNING_KEYS ||= await newSigningKeys(`local-${Date.now()}`);
  vars.WEBHOOK_SECRETS_KEY ||= newSecretKey();
  writeFileSync(".dev.vars", Object.entries(vars).map(([k, v]) => `${k}='${v}'`).join("\n") + "\n", { mode: 0o600 });
  return vars;
}

/** Runs a setup step quietly: its output is shown only when it fails. */
function quietly(command, args, extraEnv = {}) {
  try {
    return execFileSync(command, args, { env: { ...env, ...extraEnv }, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    console.error(`${error.stdout ?? ""}${error.stderr ?? ""}\n\`${command} ${args.join(" ")}\` failed.`);
    process.exit(1);
  }
}

// Before anything is built or migrated: a taken port would only fail later, deep inside wrangler.
const taken = await portProblem(port, host);
if (taken) {
  console.error(taken);
  process.exit(1);
}
// wrangler dev's inspector (Chrome DevTools: chrome://inspect): INSPECTOR_PORT, else the usual 9229, else, when a
// second service holds that, a free port.
const inspectorPort = process.env.INSPECTOR_PORT ?? ((await portProblem(9229, "127.0.0.1")) ? String(await freePort()) : "9229");
const vars = await ensureDevVars();
// ASSENT_CLIENT_BUILT: the caller built dist/public (the tests), as for the e2e setup.
if (process.env.ASSENT_CLIENT_BUILT !== "true") {
  quietly("npm", ["run", "build:client"]);
  console.log("Built the widget and the portal into dist/public.");
}
// A private state directory (`npm start -- --persist-to DIR`, for parallel runs) gets the migrations too.
const persistTo = runtimeArgs.includes("--persist-to") ? ["--persist-to", runtimeArgs[runtimeArgs.indexOf("--persist-to") + 1]] : [];
const migrated = quietly("npx", ["wrangler", "d1", "migrations", "apply", "DB", "--local", ...persistTo], { CI: "true" });
const applied = [...new Set(migrated.match(/\b\d{4}_[a-z0-9_]+\.sql\b/g) ?? [])];
console.log(applied.length > 0 ? `Local database: applied ${applied.join(", ")}.` : "Local database: migrations up to date.");
if (lean) {
  quietly("npx", ["wrangler", "deploy", "--dry-run", "--outdir", "dist/worker"]);
  console.log("Built the Worker bundle into dist/worker (lean runtime).");
}
// Local webhooks and a single sign-on provider may be on this machine (http://localhost:…); production accepts only
// public https URLs. The issuer
// is this local origin (production sets ISSUER; the Host header never decides it). LOCAL_DEV lets the bootstrap take a
// forced regime (request.cf is a fixed location locally).
const runtimeOptions = [
  "--port", port, "--ip", host,
  "--var", "ALLOW_LOOPBACK_WEBHOOKS:true", "--var", "ALLOW_LOOPBACK_SSO:true", "--var", `ISSUER:${base}`, "--var", "LOCAL_DEV:true",
  ...runtimeArgs,
];
// --test-scheduled exposes /__scheduled: wrangler dev does not fire crons itself, and with static assets its
// /cdn-cgi/handler/scheduled does not reach the Worker (Miniflare's assets proxy answers "exception").
const [command, args] = lean ? runtimes.lean(runtimeOptions) : runtimes.wrangler(["--test-scheduled", "--inspector-port", inspectorPort, ...runtimeOptions]);
// Its own process group (npx, wrangler, workerd, esbuild), so a signal to this script stops all of it.
const dev = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], env, detached: true });
const stopGroup = (signal) => {
  try {
    process.kill(-dev.pid, signal);
  } catch {
    // already gone
  }
};
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => stopGroup(signal));
// Until the service is ready and seeded, its output (the bindings table, the seed's requests, each logged twice:
// wrangler's request line and the Worker's own) is held back and shown only if it fails; then it streams.
let ready = false;
let held = "";
for (const [from, to] of [[dev.stdout, process.stdout], [dev.stderr, process.stderr]]) from.on("data", (d) => (ready ? to.write(d) : (held += d)));
const showHeld = () => process.stderr.write(held);
dev.on("exit", (code) => {
  if (!ready) showHeld();
  stopGroup("SIGTERM");
  process.exit(code ?? 0);
});

if (!(await waitForHealth(base, { timeoutMs: 120_000, gaveUp: () => dev.exitCode !== null }))) {
  showHeld();
  stopGroup("SIGTERM");
  throw new Error(`the service did not answer on ${base} within 120 s`);
}
// Also when the demo was seeded by an earlier run on another port or host: its web client then learns this origin.
const demo = await seedDemo(base, vars.ADMIN_TOKEN).catch((error) => {
  showHeld();
  stopGroup("SIGTERM");
  throw error;
});
// The local owner (made on the first run; docs/security.md#the-admin-token-break-glass) and a fresh one-time link for them.
const ownerEmail = process.env.ASSENT_OWNER_EMAIL ?? "owner@assent.localhost";
const bootstrap = await fetch(`${base}/admin/v1/bootstrap`, {
  method: "POST",
  headers: { authorization: `Bearer ${vars.ADMIN_TOKEN}`, "content-type": "application/json" },
  body: JSON.stringify({ email: ownerEmail }),
});
if (!bootstrap.ok) {
  showHeld();
  stopGroup("SIGTERM");
  throw new Error(`making the local owner failed: ${bootstrap.status} ${await bootstrap.text()}`);
}
const { signInUrl } = await bootstrap.json();
// The cron, as production runs it (wrangler.toml [triggers]: every minute): outbox dispatch, SMS retries, retention.
// The lean runtime fires it itself.
if (!lean) setInterval(async () => {
  const res = await fetch(`${base}/__scheduled?cron=*+*+*+*+*`).catch((error) => ({ ok: false, status: String(error) }));
  if (!res.ok) console.error(`scheduled run failed: ${res.status}`);
}, 60_000).unref();
ready = true;
console.log(`
  Assent is running at ${base}
  API reference: ${base}/docs   OpenAPI: ${base}/openapi.json
  Demo: ${base}/ (project ${demo.projectId}${demo.created ? ", seeded now" : ""})
  Portal: ${signInUrl}
    (signs ${ownerEmail}, the local owner, in once within 15 minutes; later ask for a link on the sign-in page)
  Cron: runs every minute${lean ? "" : `; run it now with curl ${base}/__scheduled`}${lean ? "" : `\n  Inspector: 127.0.0.1:${inspectorPort} (chrome://inspect; INSPECTOR_PORT sets it)`}

  Quickstart (paste into a shell in this folder):
    export ASSENT=${base}
    export ADMIN_TOKEN=$(sed -n "s/^ADMIN_TOKEN='\\(.*\\)'$/\\1/p" .dev.vars)
    curl -s -X POST $ASSENT/admin/v1/projects -H "authorization: Bearer $ADMIN_TOKEN" \\
      -H 'content-type: application/json' -d '{"name":"My shop"}'
  docs/getting-started.md walks on from there: client, token, identity, consent, the widget on your page.
`);
