#!/usr/bin/env node
// npm run rehearse-restore [-- --keep] [-- --lose-ledger | --both]
// The whole restore of docs/operations.md#restoring-the-database, on this machine: a service on its own local D1 and
// KV, consents written, someone erased, the database exported, wiped and imported as it was before the erasure (what
// D1 Time Travel does in production), the erasures reapplied from the ledger (KV, outside the database) and the log
// verified. Prints each step; exits non-zero at the first that fails. --keep leaves the state folder behind to look
// at; --lose-ledger wipes KV with the database, to see the rehearsal fail as a restore without the ledger would.
// --both restores twice from the same history and exports (test/e2e/restore-rehearsal.test.ts): with the ledger and,
// side by side with it, from a copy of the folder made before the wipe, without it (those lines start "without the
// ledger, " and follow the first restore's); it exits non-zero unless the first passes and the second fails.
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { importable } from "./d1-import.mjs";
import { migrateState, newSecretKey, newSigningKeys, startService, wranglerEnv } from "./local-service.mjs";

const { values: flags } = parseArgs({ options: { keep: { type: "boolean" }, "lose-ledger": { type: "boolean" }, both: { type: "boolean" } } });

/** Runs a command; resolves with its output, rejects with it when the command fails. */
const run = (command, args) =>
  new Promise((resolveRun, reject) =>
    execFile(command, args, { env: wranglerEnv, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${command} ${args.join(" ")} failed:\n${stdout}${stderr}`)) : resolveRun(stdout),
    ),
  );

/**
 * `wrangler d1 export --local` has no --persist-to: it reads the state beside the wrangler config. So the rehearsal
 * gets a config of its own in its folder (wrangler.toml with its paths made absolute), and every command (migrations,
 * the service, export, import) uses that folder's `.wrangler/state`, never the developer's.
 */
function rehearsalFolder() {
  const folder = mkdtempSync(join(tmpdir(), "assent-restore-"));
  const config = join(folder, "wrangler.toml");
  const absolute = (key) => (text) => text.replace(new RegExp(`^(\\s*${key}\\s*=\\s*)"([^"]+)"`, "gm"), (_, lead, path) => `${lead}"${resolve(path)}"`);
  const toml = [absolute("main"), absolute("migrations_dir"), absolute("directory")].reduce((text, fix) => fix(text), readFileSync("wrangler.toml", "utf8"));
  writeFileSync(config, toml);
  // The service serves the built client from [assets]; a rehearsal needs none of it, but wrangler needs the folder.
  mkdirSync("dist/public", { recursive: true });
  return { folder, config, state: join(folder, ".wrangler", "state") };
}

/** A copy of a rehearsal folder (its config, state and exports), made while no service runs on it. */
function copyOf({ folder }) {
  const copy = mkdtempSync(join(tmpdir(), "assent-restore-"));
  cpSync(folder, copy, { recursive: true });
  return { folder: copy, config: join(copy, "wrangler.toml"), state: join(copy, ".wrangler", "state") };
}

/**
 * Where the steps run: a folder (its config and state), the service running on it, and whether its ledger is lost.
 * The history is made on the rehearsal's own; under --both each restore then runs on its own folder, side by side.
 */
const newRun = (at, { loseLedger = false, lead = "" } = {}) => ({ at, loseLedger, lead, service: undefined });
const history = newRun(rehearsalFolder(), { loseLedger: flags["lose-ledger"] });
const folders = [history.at.folder];
const wrangler = (r, ...args) => run("npx", ["wrangler", ...args, "--config", r.at.config]);
const d1 = (r, sql) => wrangler(r, "d1", "execute", "DB", "--local", "--json", "--command", sql).then((out) => JSON.parse(out)[0].results);

const requestCount = async (r) => (await d1(r, "SELECT count(*) AS n FROM requests"))[0].n;

// The service's secrets, the same across its restarts, as production keeps them across a restore.
const adminToken = `restore-admin-${newSecretKey()}`;
const webhookKey = newSecretKey();
const signingKeys = await newSigningKeys("restore-1");

const serve = async (r) => {
  r.service = await startService({
    name: "restore",
    config: r.at.config,
    stateDir: r.at.state,
    adminToken,
    signingKeys,
    // One issuer across the restarts (each gets a new port), as production keeps one: tokens outlive a restart.
    issuer: "https://assent.rehearsal.invalid",
    vars: { WEBHOOK_SECRETS_KEY: webhookKey },
    options: ["--test-scheduled"],
    inspector: true,
  });
  return r.service.baseUrl;
};
const stop = async (r) => {
  await r.service?.stop();
  r.service = undefined;
};
/** One JSON call to the service running for `r`; throws on an unexpected status. */
async function call(r, method, path, { token = adminToken, body, expect = [200, 201, 204] } = {}) {
  const reply = await fetch(`${r.service.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const payload = reply.status === 204 ? null : await reply.json().catch(() => null);
  if (!expect.includes(reply.status)) throw new Error(`${method} ${path} answered ${reply.status}: ${JSON.stringify(payload)}`);
  return { status: reply.status, body: payload };
}

const steps = [];
const step = (name, action) => steps.push({ name, action });
const world = {};

step("start a service on its own local D1 and KV (migrations applied)", async (r) => {
  await migrateState(r.at.state, { config: r.at.config });
  return `${await serve(r)}, state in ${r.at.state}`;
});

step("seed a project, a backend client and a purpose", async (r) => {
  const project = await call(r, "POST", "/admin/v1/projects", {
    body: { name: "Restore rehearsal", controller: { name: "Rehearsal AB", email: "privacy@rehearsal.example" }, jurisdiction: "SE" },
  });
  world.project = project.body.projectId;
  const client = await call(r, "POST", `/admin/v1/projects/${world.project}/clients`, { body: { name: "Backend", type: "backend" } });
  world.client = { id: client.body.clientId, secret: client.body.clientSecret };
  const reply = await fetch(`${r.service.baseUrl}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: world.client.id, client_secret: world.client.secret }),
  });
  if (!reply.ok) throw new Error(`token: ${reply.status} ${await reply.text()}`);
  world.token = (await reply.json()).access_token;
  const p = `/privacy/v2/projects/${world.project}/configurations`;
  const text = (en) => [{ language: "en", text: en }];
  const group = await call(r, "POST", `${p}/data-groups`, { token: world.token, body: { referenceId: "email", name: "E-mail address", description: text("Your e-mail address") } });
  const party = await call(r, "POST", `${p}/parties`, {
    token: world.token,
    body: { referenceId: "rehearsal", type: "company", details: { name: "Rehearsal AB", email: "privacy@rehearsal.example" } },
  });
  const purpose = await call(r, "POST", `${p}/purposes`, {
    token: world.token,
    body: {
      referenceId: "newsletter",
      name: "Newsletter",
      legalGround: "consent",
      description: text("Offers by e-mail"),
      dataGroups: [group.body.dataGroupId],
      controllers: [party.body.partyId],
    },
  });
  world.purpose = purpose.body.purposeId;
  world.dataGroup = group.body.dataGroupId;
  return `project ${world.project}`;
});

/** Records an approval (or a refusal) of the newsletter for an identity. */
const consent = (r, identityId, status) =>
  call(r, "POST", `/privacy/v2/projects/${world.project}/permissions`, {
    token: world.token,
    body: {
      identityId,
      requested: new Date().toISOString(),
      meta: { context: { collectionMethod: "web-dialog", application: "rehearsal", language: "en" } },
      request: { purposes: [{ purposeId: world.purpose, version: "1", status, dataGroups: [{ dataGroupId: world.dataGroup, status }] }] },
    },
  });
const identity = (r, id) => call(r, "GET", `/privacy/v2/projects/${world.project}/identities/${id}`, { token: world.token, expect: [200, 404] });
const seal = (r) => call(r, "GET", "/__scheduled?cron=*+*+*+*+*");

step("write consents for two people and seal the log", async (r) => {
  world.people = {};
  for (const name of ["anna", "erik"]) {
    const made = await call(r, "POST", `/privacy/v2/projects/${world.project}/identities`, {
      token: world.token,
      body: { referenceId: `customer-${name}`, aliases: [{ type: "urn:svc:email", identifier: `${name}@rehearsal.example` }] },
    });
    world.people[name] = made.body.identityId;
    await consent(r, made.body.identityId, "approved");
  }
  await seal(r);
  return `anna ${world.people.anna}, erik ${world.people.erik}: one consent each`;
});

/** How many rows of `table` an export inserts. */
const rowsIn = (exported, table) => exported.split("\n").filter((line) => line.startsWith(`INSERT INTO "${table}" `)).length;

step("export the database while it serves: the point in time to restore to (wrangler d1 export --local)", async (r) => {
  world.pointInTime = join(r.at.folder, "before-erasure.sql");
  await wrangler(r, "d1", "export", "DB", "--local", "--output", world.pointInTime);
  world.requestsAtPointInTime = rowsIn(readFileSync(world.pointInTime, "utf8"), "requests");
  return `${world.pointInTime}: ${world.requestsAtPointInTime} requests`;
});

step("erase erik, and record one more consent for anna after the point in time", async (r) => {
  await call(r, "DELETE", `/privacy/v2/projects/${world.project}/identities/${world.people.erik}`, { token: world.token });
  await consent(r, world.people.anna, "denied");
  await seal(r);
  if ((await identity(r, world.people.erik)).status !== 404) throw new Error("erik still answers after the erasure");
  return "erik answers 404; his erasure is in the ledger (KV)";
});

step("export the current database before touching it (to undo the restore)", async (r) => {
  world.latest = join(r.at.folder, "latest.sql");
  await wrangler(r, "d1", "export", "DB", "--local", "--output", world.latest);
  return `${world.latest}: ${rowsIn(readFileSync(world.latest, "utf8"), "requests")} requests`;
});

/** Where the restore begins: --both runs the steps from here twice. */
const restoreStep = steps.length;

step("stop the service and wipe the database", async (r) => {
  await stop(r);
  const d1State = join(r.at.state, "v3", "d1");
  rmSync(d1State, { recursive: true, force: true });
  if (r.loseLedger) rmSync(join(r.at.state, "v3", "kv"), { recursive: true, force: true });
  if (existsSync(d1State)) throw new Error(`${d1State} is still there`);
  return r.loseLedger ? "the local D1 is gone; KV (the erasure ledger) wiped too (--lose-ledger)" : "the local D1 is gone; KV kept";
});

step("import the point in time (what wrangler d1 time-travel restore does in production)", async (r) => {
  // The export as wrangler wrote it does not import (scripts/d1-import.mjs says why); its reordered copy does.
  const imported = join(r.at.folder, "before-erasure.import.sql");
  writeFileSync(imported, importable(readFileSync(world.pointInTime, "utf8")));
  await wrangler(r, "d1", "execute", "DB", "--local", "--yes", "--file", imported);
  const pending = await wrangler(r, "d1", "migrations", "apply", "DB", "--local");
  const requests = await requestCount(r);
  // Anna's refusal came after the point in time: a restore loses what was written after it, and only that.
  if (requests !== world.requestsAtPointInTime) throw new Error(`${requests} requests after the import, ${world.requestsAtPointInTime} at the point in time`);
  return `${requests} requests, as at the point in time (anna's later refusal is not among them); migrations: ${/No migrations to apply/.test(pending) ? "none pending" : "applied the newer ones"}`;
});

step("the restore brought erik back", async (r) => {
  await serve(r);
  if ((await identity(r, world.people.erik)).status !== 200) throw new Error("erik is not in the restored database: the export is not from before the erasure");
  return "erik answers 200 again";
});

step("reapply erasures (npm run reapply-erasures)", async (r) => {
  const out = await run("node", ["scripts/reapply-erasures.mjs", "--project", world.project, "--url", r.service.baseUrl, "--admin-token", adminToken]);
  return out.trim();
});

step("erased people stay erased, the others are as they were at the point in time", async (r) => {
  if ((await identity(r, world.people.erik)).status !== 404) throw new Error("erik answers again after reapplying erasures: the ledger did not name him");
  if ((await identity(r, world.people.anna)).status !== 200) throw new Error("anna is gone after the restore");
  return "erik answers 404, anna 200";
});

step("seal the log and verify it (npm run verify-log)", async (r) => {
  await seal(r);
  const out = await run("node", [
    "scripts/verify-log.mjs", "--project", world.project, "--url", r.service.baseUrl,
    "--client-id", world.client.id, "--client-secret", world.client.secret,
  ]);
  return out.trim();
});

const removeFolders = () => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
};

const runs = [history];
// Interrupted (Ctrl-C), the services it started (detached process groups) are stopped and its folders removed too.
process.once("SIGINT", async () => {
  await Promise.all(runs.map(stop));
  if (!flags.keep) removeFolders();
  process.exit(130);
});

/**
 * Runs steps `from` to `to` for `r`, each line led by `r.lead` and handed to `say` (the stream, the line); true when
 * one failed (the rest are then not run).
 */
async function perform(from, to, r, say = (stream, line) => stream.write(`${line}\n`)) {
  for (const [index, { name, action }] of steps.slice(from, to).entries()) {
    const label = `${r.lead}${from + index + 1}/${steps.length} ${name}`;
    try {
      say(process.stdout, `${label}: ${await action(r)}`);
    } catch (error) {
      say(process.stderr, `${label}: FAILED\n${error.message}`);
      return true;
    }
  }
  return false;
}

/**
 * Runs the restore steps for `r` to its end. Under --both its lines are held back until `print`, so that the two
 * restores, run side by side, print one after the other.
 */
async function restore(r) {
  const lines = [];
  const failed = await perform(restoreStep, steps.length, r, flags.both ? (stream, line) => lines.push([stream, line]) : undefined);
  await stop(r);
  return { failed, print: () => lines.forEach(([stream, line]) => stream.write(`${line}\n`)) };
}

const started = Date.now();
const historyFailed = await perform(0, restoreStep, history);
// The history and exports are made once for both restores: the copy is taken with the service stopped, before the wipe.
let withoutLedger;
if (!historyFailed && flags.both) {
  await stop(history);
  withoutLedger = newRun(copyOf(history.at), { loseLedger: true, lead: "without the ledger, " });
  folders.push(withoutLedger.at.folder);
  runs.push(withoutLedger);
}
// Each restore on its own folder, port and wrangler runs: side by side they take the time of one on an idle core.
const [kept, lost] = historyFailed ? [{ failed: true, print() {} }] : await Promise.all([history, withoutLedger].filter(Boolean).map(restore));
kept.print();
const failed = historyFailed || kept.failed;
console.log(failed ? "restore rehearsal FAILED" : `restore rehearsal passed in ${Math.round((Date.now() - started) / 1000)} s`);
let ledgerMissed = false;
if (lost) {
  lost.print();
  ledgerMissed = !lost.failed;
  console.log(ledgerMissed ? `${withoutLedger.lead}the restore passed: the rehearsal does not catch erased people coming back` : `${withoutLedger.lead}the restore failed, as it must`);
}
if (flags.keep) console.log(`state kept in ${folders.join(" and ")}`);
else removeFolders();
process.exit(failed || ledgerMissed ? 1 : 0);
