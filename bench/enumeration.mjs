// `npm run bench:enumeration`: does the privacy center's answer time tell whether an address names someone? Against a
// fresh local service (wrangler dev) with one project whose privacy center has email and SMS on and one identity with
// an email alias, it alternates code requests for the address that names that identity and for one that names no
// one, each followed by a wrong-code verification for the same address, and prints median, p90 and p99 per group and
// the differences. The privacy center's rate limits are raised for this run only (a copy of wrangler.toml): the limiter
// calls still run on every request, as in production, but would otherwise refuse all but the first few. BENCH_N (default 200)
// requests of each kind per address, after BENCH_WARMUP (default 10) unrecorded ones.
import { readFileSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { freshState, removeState, startService, writeRaisedLimitsConfig } from "../scripts/local-service.mjs";
import { apiClient, ok } from "./api.mjs";

const n = Number(process.env.BENCH_N ?? 200);
const warmup = Number(process.env.BENCH_WARMUP ?? 10);
const log = (...args) => console.log("[bench:enumeration]", ...args);
const addresses = { named: "anna@fjall.example", unknown: "nobody@fjall.example" };
const raisedLimit = 1_000_000;

/**
 * wrangler.toml with every privacy-center limiter raised, written beside it so its relative paths still hold, and
 * the vars that state those limits (RATE_LIMIT_PRIVACY_CENTER_*) at the same value.
 */
function benchConfig() {
  const file = ".wrangler-bench-enumeration.toml";
  const raised = writeRaisedLimitsConfig(file, { names: /PRIVACY_CENTER_\w+_LIMITER/, limit: raisedLimit });
  const limitVars = [...readFileSync("wrangler.toml", "utf8").matchAll(/^(RATE_LIMIT_PRIVACY_CENTER_\w+) = /gm)].map((match) => match[1]);
  if (raised.length !== limitVars.length) throw new Error(`privacy-center limiters in wrangler.toml: ${raised.length} bindings, ${limitVars.length} vars`);
  return { file, vars: Object.fromEntries(limitVars.map((name) => [name, String(raisedLimit)])) };
}

/** The q-quantile (nearest rank) of sorted milliseconds. */
const quantile = (sorted, q) => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)];
const figures = (times) => {
  const sorted = [...times].sort((a, b) => a - b);
  return { median: quantile(sorted, 0.5), p90: quantile(sorted, 0.9), p99: quantile(sorted, 0.99) };
};
const ms = (value) => value.toFixed(1);

/**
 * A 95 % bootstrap interval of the difference of medians (a − b): how far apart the two medians could be by chance
 * alone, given these samples. An interval that holds 0 finds no difference at this resolution.
 */
function medianDifferenceInterval(a, b, resamples = 2000) {
  const median = (list) => quantile([...list].sort((x, y) => x - y), 0.5);
  const resample = (list) => list.map(() => list[Math.floor(Math.random() * list.length)]);
  const differences = Array.from({ length: resamples }, () => median(resample(a)) - median(resample(b))).sort((x, y) => x - y);
  return [quantile(differences, 0.025), quantile(differences, 0.975)];
}

const { file: config, vars } = benchConfig();
let service;
let stateDir;
try {
  stateDir = await freshState({ prefix: "assent-bench-enumeration-", config });
  service = await startService({
    name: "bench-enumeration",
    stateDir,
    config,
    // The service serves the client bundles (the assets directory must exist), built as `npm start` builds them.
    build: true,
    inspector: true,
    vars,
  });
  const api = apiClient(service.baseUrl, service.adminToken);
  const { projectId } = await ok(api.admin.POST("/admin/v1/projects", { body: { name: "Enumeration bench", controller: { name: "Fjällbutiken AB" } } }));
  const project = { params: { path: { project_id: projectId } } };
  const client = await ok(api.admin.POST("/admin/v1/projects/{project_id}/clients", { ...project, body: { name: "Bench backend", type: "backend", allowedOrigins: [] } }));
  await ok(
    api.admin.PUT("/admin/v1/projects/{project_id}/privacy-center", {
      ...project,
      body: { channels: { email: { aliasType: "urn:svc:email" }, sms: { aliasType: "urn:svc:phone" } }, retentionDays: 90, theme: {} },
    }),
  );
  const backend = api.as(await api.tokenFor(client));
  await ok(backend.POST("/privacy/v2/projects/{project_id}/identities", { ...project, body: { aliases: [{ type: "urn:svc:email", identifier: addresses.named }] } }));

  const center = `${service.baseUrl}/browser/v1/projects/${projectId}/privacy-center`;
  /** One call, timed from before the request to the end of the answer's body; its status and body are kept. */
  const timed = async (path, body) => {
    const started = performance.now();
    const answer = await fetch(center + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const text = await answer.text();
    return { ms: performance.now() - started, status: answer.status, body: text };
  };
  const groups = Object.fromEntries(Object.keys(addresses).map((who) => [who, { code: [], verify: [], answers: new Set(), unexpected: 0 }]));
  /** A code request and a wrong-code verification for one address (`000000` is wrong unless the draw was 1 in a million). */
  const round = async (who, record) => {
    const group = groups[who];
    const address = addresses[who];
    const code = await timed("/codes", { channel: "email", address });
    const wrong = await timed("/sessions", { channel: "email", address, code: "000000" });
    const problem = JSON.parse(wrong.body);
    if (code.status !== 202 || wrong.status !== 400 || problem.code !== "invalid_code") {
      group.unexpected++;
      return;
    }
    if (!record) return;
    group.code.push(code.ms);
    group.verify.push(wrong.ms);
    group.answers.add(`${code.status} ${code.body} | ${wrong.status} ${problem.code} attemptsLeft=${problem.attemptsLeft}`);
  };

  const loadBefore = loadavg();
  // Alternating, and swapping which goes first each round, so the machine's drift falls on both alike.
  for (let i = 0; i < warmup + n; i++) {
    const order = i % 2 ? ["unknown", "named"] : ["named", "unknown"];
    for (const who of order) await round(who, i >= warmup);
  }
  const loadAfter = loadavg();

  const rows = {};
  for (const [who, group] of Object.entries(groups)) {
    rows[who] = { code: figures(group.code), verify: figures(group.verify) };
    log(`${who} (${addresses[who]}): ${group.code.length} code requests, ${group.verify.length} wrong codes, ${group.unexpected} unexpected answers`);
    for (const answer of group.answers) log(`  answer: ${answer}`);
  }
  log(`${n} of each per address after ${warmup} unrecorded; load average ${loadBefore.map(ms).join(" ")} before, ${loadAfter.map(ms).join(" ")} after`);
  log("| Request | Address | median ms | p90 ms | p99 ms |");
  log("|---|---|---|---|---|");
  for (const [kind, label] of [["code", "POST …/codes"], ["verify", "POST …/sessions, wrong code"]]) {
    for (const who of Object.keys(addresses)) {
      const f = rows[who][kind];
      log(`| ${label} | ${who} | ${ms(f.median)} | ${ms(f.p90)} | ${ms(f.p99)} |`);
    }
    const d = (q) => ms(rows.named[kind][q] - rows.unknown[kind][q]);
    log(`| ${label} | named − unknown | ${d("median")} | ${d("p90")} | ${d("p99")} |`);
  }
  for (const [kind, label] of [["code", "code requests"], ["verify", "wrong codes"]]) {
    const [low, high] = medianDifferenceInterval(groups.named[kind], groups.unknown[kind]);
    log(`${label}: median named − unknown ${ms(rows.named[kind].median - rows.unknown[kind].median)} ms, 95 % bootstrap interval ${ms(low)} to ${ms(high)} ms`);
  }
} finally {
  await service?.stop();
  if (stateDir) removeState(stateDir);
  rmSync(config, { force: true });
}
