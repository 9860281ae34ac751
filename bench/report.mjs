// Turns the rounds into one figure per scenario (the median of the rounds; ratios are taken within a round, so
// each is against a baseline measured minutes apart at most), checks the targets, writes BENCHMARKS.md.
import { existsSync, readFileSync, writeFileSync } from "node:fs";

const start = "<!-- bench:results:start -->";
const end = "<!-- bench:results:end -->";
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const round2 = (n) => Math.round(n * 100) / 100;

export function summarise(runs) {
  const ids = [...new Set(runs.flat().map((r) => r.id))];
  return ids.map((id) => {
    const rows = runs.map((run) => ({ row: run.find((r) => r.id === id), base: run.find((r) => r.id === 0) })).filter((x) => x.row);
    const rps = rows.map(({ row }) => row.requestsPerSecond);
    return {
      id,
      name: rows[0].row.name,
      requestsPerSecond: Math.round(median(rps)),
      p50Ms: median(rows.map(({ row }) => row.p50Ms)),
      p99Ms: median(rows.map(({ row }) => row.p99Ms)),
      ratio: round2(median(rows.filter((x) => x.base).map(({ row, base }) => row.requestsPerSecond / base.requestsPerSecond))),
      rpsRange: [Math.round(Math.min(...rps)), Math.round(Math.max(...rps))],
      unexpected: rows.reduce((sum, { row }) => sum + row.unexpected, 0),
      cpuMsPerRequest: round2(median(rows.map(({ row }) => row.cpuMsPerRequest ?? NaN))),
    };
  });
}

export function evaluateTargets(summary) {
  const byId = new Map(summary.map((s) => [s.id, s]));
  const targets = [];
  const need = (ids, check) => {
    const rows = ids.map((id) => byId.get(id));
    if (rows.some((r) => !r)) return { met: false, measured: `not measured: scenario ${ids.filter((id) => !byId.get(id)).join(", ")} skipped` };
    return check(...rows);
  };
  for (const id of [2, 3, 4]) {
    targets.push({
      target: `(${id}) throughput >= 0.6 x baseline`,
      ...need([id], (s) => ({ met: s.ratio >= 0.6, measured: `${s.ratio} x` })),
    });
  }
  targets.push({ target: "(6) throughput >= 0.35 x baseline", ...need([6], (s) => ({ met: s.ratio >= 0.35, measured: `${s.ratio} x` })) });
  for (const s of summary) {
    targets.push({ target: `(${s.id}) p99 < 25 ms`, met: s.p99Ms < 25, measured: `${s.p99Ms} ms` });
  }
  targets.push({
    target: "(5) within 1.2x of (4): 10,000 past requests cost no more than 10",
    ...need([4, 5], (a, b) => {
      const factor = round2(a.requestsPerSecond / b.requestsPerSecond);
      return { met: factor <= 1.2, measured: `(4)/(5) throughput ${factor}x` };
    }),
  });
  targets.push({
    target: "(7) within 1.5x of (2): a filtered list page over 100,000 requests",
    ...need([2, 7], (a, b) => {
      const factor = round2(a.requestsPerSecond / b.requestsPerSecond);
      return { met: factor <= 1.5, measured: `(2)/(7) throughput ${factor}x` };
    }),
  });
  for (const s of summary) {
    if (s.unexpected) targets.push({ target: `(${s.id}) every answer has the expected status`, met: false, measured: `${s.unexpected} did not` });
  }
  return targets;
}

const runtimeTitles = {
  wrangler: "wrangler dev (as `npm start` runs it)",
  lean: "lean runtime (as `npm run serve` runs it: the built bundle in Miniflare, no dev tooling)",
};

export function writeReport(results) {
  const { machine, settings, load } = results;
  const lines = [
    start,
    `Measured ${results.date.slice(0, 16).replace("T", " ")} UTC on ${machine.cores} cores (${machine.cpu}), Node ${machine.node}, ` +
      `${machine.platform}; ${settings.connections} connections, ${settings.seconds} s per scenario after a ${settings.warmupSeconds} s warm-up, ` +
      `${settings.rounds} round(s); load average ${load.before.join(" / ")} before, ${load.after.join(" / ")} after.`,
    "",
    `Data set: ${Object.entries(results.dataset).map(([k, v]) => `${v.toLocaleString("en")} ${k}`).join(", ")}.`,
    "",
    ...Object.entries(results.runtimes).flatMap(([runtime, { scenarios, targets }]) => [
      `**${runtimeTitles[runtime] ?? runtime}**`,
      "",
      "| Scenario | req/s | p50 ms | p99 ms | x baseline | server CPU ms/request | req/s across rounds |",
      "|---|---:|---:|---:|---:|---:|---|",
      ...scenarios.map(
        (s) =>
          `| (${s.id}) ${s.name} | ${s.requestsPerSecond} | ${s.p50Ms} | ${s.p99Ms} | ${s.ratio} | ${s.cpuMsPerRequest} | ` +
          `${s.rpsRange[0]}–${s.rpsRange[1]} |`,
      ),
      ...results.skipped.map((s) => `| (${s.id}) ${s.name} | – | – | – | – | – | skipped: ${s.reason} |`),
      "",
      "| Target | Met | Measured |",
      "|---|---|---|",
      ...targets.map((t) => `| ${t.target} | ${t.met ? "yes" : "**no**"} | ${t.measured} |`),
      "",
    ]),
    results.widget.skipped
      ? `Widget: ${results.widget.skipped}`
      : `Widget: \`${results.widget.file}\` is ${results.widget.gzipBytes.toLocaleString("en")} bytes min+gzip ` +
        `(${results.widget.minifiedBytes.toLocaleString("en")} minified); script start to first paint of the banner in headless Chromium: ` +
        `${results.widget.timeToDialogMs ?? "n/a"} ms${results.widget.note ? ` (${results.widget.note})` : ""}.`,
    end,
  ].join("\n");
  const current = existsSync("BENCHMARKS.md") ? readFileSync("BENCHMARKS.md", "utf8") : `# Benchmarks\n\n${start}\n${end}\n`;
  const from = current.indexOf(start);
  const to = current.indexOf(end);
  const next = from >= 0 && to > from ? current.slice(0, from) + lines + current.slice(to + end.length) : `${current.trimEnd()}\n\n${lines}\n`;
  writeFileSync("BENCHMARKS.md", next);
}
