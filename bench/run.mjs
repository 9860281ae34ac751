// `npm run bench`: starts the service on a private state directory, seeds it, measures each scenario with
// autocannon at 32 connections, and writes bench/results.json plus the results table of BENCHMARKS.md.
// BENCH_SECONDS (default 6) and BENCH_ROUNDS (default 2) set how long each scenario runs and how often (the whole run
// stays under 10 minutes on a fresh clone of the 2-core machine); `npm run bench -- --long` is 10 s and 3 rounds;
// BENCH_RUNTIMES (default "wrangler,lean") which runtimes serve the same state: `wrangler dev` as `npm start` runs it,
// and the lean runtime of `npm run serve` (the built Worker in Miniflare, no dev tooling).
import { writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { measure, connections } from "./load.mjs";
import { seed } from "./seed.mjs";
import { scenarioList } from "./scenarios.mjs";
import { buildClient, freshState, removeState, runtimes, startServer } from "./server.mjs";
import { evaluateTargets, summarise, writeReport } from "./report.mjs";
import { measureWidget } from "./widget.mjs";

const long = process.argv.includes("--long");
const seconds = Number(process.env.BENCH_SECONDS ?? (long ? 10 : 6));
const rounds = Number(process.env.BENCH_ROUNDS ?? (long ? 3 : 2));
const runtimeNames = (process.env.BENCH_RUNTIMES ?? "wrangler,lean").split(",").filter((name) => name in runtimes);
const warmupSeconds = Math.min(long ? 2 : 1, seconds);
const log = (...args) => console.log("[bench]", ...args);

const machine = {
  cores: cpus().length,
  cpu: cpus()[0]?.model.trim() ?? "unknown",
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
};

log("building the client bundles and a fresh local D1/KV state");
await buildClient();
const stateDir = await freshState();
let server;
const onExit = async () => {
  await server?.stop();
  removeState(stateDir);
};
process.on("SIGINT", () => onExit().then(() => process.exit(130)));

try {
  const started = Date.now();
  const fixture = await seed(stateDir, log, (s) => (server = s));
  log(`seeded in ${Math.round((Date.now() - started) / 1000)} s`);
  const scenarios = scenarioList(fixture);
  const loadBefore = loadavg().map((n) => Math.round(n * 100) / 100);
  const measured = {};
  for (const runtime of runtimeNames) {
    if (server.runtime !== runtime) {
      const secrets = { adminToken: server.adminToken, signingKeys: server.signingKeys };
      await server.stop();
      server = await startServer(stateDir, secrets, runtime);
    }
    const runs = [];
    for (let round = 1; round <= rounds; round++) {
      const results = [];
      for (const scenario of scenarios) {
        if (scenario.skip) {
          if (round === 1) log(`skip (${scenario.id}) ${scenario.name}: ${scenario.skip}`);
          continue;
        }
        const figures = await measure(server.baseUrl, scenario, { seconds, warmupSeconds, cpuSeconds: server.cpuSeconds });
        results.push({ id: scenario.id, name: scenario.name, ...figures });
        log(
          `${runtime} round ${round} (${scenario.id}) ${scenario.name}: ${figures.requestsPerSecond} req/s, p50 ${figures.p50Ms} ms, ` +
            `p99 ${figures.p99Ms} ms, server CPU ${figures.cpuMsPerRequest} ms/request` +
            `${figures.unexpected ? `, ${figures.unexpected} unexpected answers ${JSON.stringify(figures.statuses)}` : ""}`,
        );
      }
      runs.push(results);
    }
    const summary = summarise(runs);
    measured[runtime] = { scenarios: summary, targets: evaluateTargets(summary), runs };
  }
  const loadAfter = loadavg().map((n) => Math.round(n * 100) / 100);
  const widget = await measureWidget(server, fixture, log);
  const results = {
    date: new Date().toISOString(),
    machine,
    settings: { connections, seconds, warmupSeconds, rounds },
    load: { before: loadBefore, after: loadAfter },
    dataset: fixture.dataset,
    skipped: scenarios.filter((s) => s.skip).map(({ id, name, skip }) => ({ id, name, reason: skip })),
    runtimes: measured,
    widget,
  };
  writeFileSync("bench/results.json", JSON.stringify(results, null, 2) + "\n");
  writeReport(results);
  for (const [runtime, { scenarios: summary, targets }] of Object.entries(measured)) {
    log(runtime);
    console.table(
      summary.map((s) => ({
        scenario: `(${s.id}) ${s.name}`, "req/s": s.requestsPerSecond, "p50 ms": s.p50Ms, "p99 ms": s.p99Ms,
        "x baseline": s.ratio, "CPU ms/req": s.cpuMsPerRequest,
      })),
    );
    for (const t of targets) log(`${t.met ? "met   " : "MISSED"} ${t.target}: ${t.measured}`);
  }
  log("wrote bench/results.json and BENCHMARKS.md");
} finally {
  await onExit();
}
