// `npm run bench:scan`: the scanner's figure for BENCHMARKS.md ("Scanner"): a 20-page shop (the browser tests'
// fixture with 16 product pages more) scanned in the local Chromium against the service with the real widget, each
// page in three contexts. SCAN_CONCURRENCY (default the scanner's 4) pages at a time; SCAN_RUNS (default 1) runs;
// SCAN_REPORT=<file> keeps the last run's report.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { startService, writeRaisedLimitsConfig } from "../scripts/local-service.mjs";
import { createDemoProject } from "../scripts/seed.mjs";
import { chromiumFlags, chromiumPath, scanOrigin } from "../scanner/cli.ts";
import { startScanFixture } from "../test/e2e/scan-fixture.mjs";

const log = (...args) => console.log("[bench:scan]", ...args);
const runs = Number(process.env.SCAN_RUNS ?? 1);
const concurrency = process.env.SCAN_CONCURRENCY ? Number(process.env.SCAN_CONCURRENCY) : undefined;

/**
 * CPU seconds (user + system) a process tree has used so far, from Linux's /proc: each live process's own time and
 * that of the children it has reaped (Chromium's renderers are reaped by its zygote, which outlives them). Null
 * where there is no /proc.
 */
function treeCpuSeconds(root) {
  try {
    const stats = [];
    for (const pid of readdirSync("/proc")) {
      if (!/^\d+$/.test(pid)) continue;
      try {
        const text = readFileSync(`/proc/${pid}/stat`, "utf8");
        const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
        // After the name: state, ppid, … utime (14th field of the line), stime, cutime, cstime.
        stats.push({ pid: Number(pid), ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]) });
      } catch {
        // The process ended meanwhile.
      }
    }
    const inTree = new Set([root]);
    for (let grown = true; grown; ) {
      grown = false;
      for (const p of stats) if (!inTree.has(p.pid) && inTree.has(p.ppid)) grown = inTree.add(p.pid) && true;
    }
    return stats.filter((p) => inTree.has(p.pid)).reduce((sum, p) => sum + p.ticks, 0) / 100;
  } catch {
    return null;
  }
}

/** CPU seconds the scanner (this process, the fixture site's server included), its Chromium and the service have used so far. */
function cpuSeconds(servicePid) {
  const own = process.cpuUsage();
  const scanner = (own.user + own.system) / 1e6;
  const all = treeCpuSeconds(process.pid);
  const service = treeCpuSeconds(servicePid);
  return { scanner, chromium: all === null || service === null ? null : all - service - scanner, service };
}

export async function measureScan() {
  // Every visit after a decision is a new visitor from this one address: 38 in about a minute, over production's 30
  // a minute per address (docs/scanner.md#scanning-a-site-that-runs-assent). The visitor limiters are raised here.
  const config = ".wrangler-bench-scan.toml";
  writeRaisedLimitsConfig(config, { names: /VISITOR_TOKENS_\w+_LIMITER/ });
  const service = await startService({ name: "bench-scan", config, build: !existsSync("dist/public/widget/assent.js"), vars: { LOCAL_DEV: "true" } });
  const site = await startScanFixture({ extraPages: 16 });
  const { chromium } = await import("playwright-core");
  const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: chromiumFlags });
  try {
    const projectId = await createDemoProject(service.baseUrl, service.adminToken, "Scanner bench");
    const res = await fetch(`${service.baseUrl}/admin/v1/projects/${projectId}/clients`, {
      method: "POST",
      headers: { authorization: `Bearer ${service.adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Bench shop", type: "web", allowedOrigins: [site.origin] }),
    });
    if (!res.ok) throw new Error(`bench: the web client was refused: ${res.status} ${await res.text()}`);
    site.useAssent({ base: service.baseUrl, projectId });
    const browserName = `${chromiumPath()} ${browser.version()}`;
    const times = [];
    const cpu = [];
    let report;
    for (let run = 0; run < runs; run++) {
      const loadBefore = loadavg()[0];
      const cpuBefore = cpuSeconds(service.pid);
      const started = performance.now();
      report = await scanOrigin(browser, `${site.origin}/`, { maxPages: 20, concurrency });
      times.push(Math.round(performance.now() - started));
      const cpuAfter = cpuSeconds(service.pid);
      const used = Object.fromEntries(Object.keys(cpuAfter).map((k) => [k, cpuAfter[k] === null ? null : Math.round((cpuAfter[k] - cpuBefore[k]) * 10) / 10]));
      cpu.push(used);
      log(`run ${run + 1} (${browserName}): ${report.pages.length} pages in ${times.at(-1)} ms; load ${loadBefore.toFixed(1)} → ${loadavg()[0].toFixed(1)} on ${cpus().length} cores; CPU s ${JSON.stringify(used)}`);
    }
    const visited = report.pages.filter((p) => p.error?.code !== "robots_disallowed").length;
    const result = {
      pages: report.pages.length,
      pagesVisited: visited,
      violations: report.violations.length,
      byKind: Object.fromEntries(["before-consent", "after-reject"].map((k) => [k, report.violations.filter((v) => v.kind === k).length])),
      browser: browserName,
      pageErrors: report.pages.filter((p) => p.error).map((p) => `${new URL(p.url).pathname}: ${p.error.code}`),
      wallMs: times.sort((a, b) => a - b)[Math.floor(times.length / 2)],
      timesMs: times,
      cpuSeconds: cpu,
    };
    log(JSON.stringify(result));
    if (process.env.SCAN_REPORT) writeFileSync(process.env.SCAN_REPORT, JSON.stringify(report, null, 2));
    return result;
  } finally {
    await browser.close();
    await site.close();
    await service.stop();
    rmSync(config, { force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await measureScan();
