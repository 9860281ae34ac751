// `npm run bench:analytics`: the analytics scenarios alone, (8) the counting beacon and (9) the 90-day report, on a
// fresh service holding 90 days of generated roll-ups for a million banner views a day (bench/analytics.mjs). The
// full `npm run bench` runs the same two scenarios after the others on its own data set.
import { mkdtempSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { apiClient, ok } from "./api.mjs";
import { analyticsDays, analyticsScenarios, benchOrigin, loadAnalytics } from "./analytics.mjs";
import { idAt } from "./bulk.mjs";
import { measure } from "./load.mjs";
import { freshState, removeState, startServer } from "./server.mjs";

const seconds = Number(process.env.BENCH_SECONDS ?? 6);
const log = (...args) => console.log("[bench:analytics]", ...args);
const stateDir = await freshState();
let server = await startServer(stateDir);
try {
  const api = apiClient(server.baseUrl, server.adminToken);
  const { projectId } = await ok(api.admin.POST("/admin/v1/projects", { body: { name: "Analytics bench" } }));
  await ok(
    api.admin.POST("/admin/v1/projects/{project_id}/clients", {
      params: { path: { project_id: projectId } },
      body: { name: "Bench site", type: "web", allowedOrigins: [benchOrigin] },
    }),
  );
  const secrets = { adminToken: server.adminToken, signingKeys: server.signingKeys };
  await server.stop();
  const purposeIds = [1, 2, 3, 4].map((i) => idAt("pur", Date.now() + i));
  const analyticsTo = new Date().toISOString().slice(0, 10);
  const analyticsFrom = new Date(Date.parse(analyticsTo) - (analyticsDays - 1) * 86_400_000).toISOString().slice(0, 10);
  const started = Date.now();
  const rows = loadAnalytics(stateDir, mkdtempSync(join(stateDir, "analytics-")), projectId, purposeIds, analyticsTo);
  log(`generated ${JSON.stringify(rows)} in ${Math.round((Date.now() - started) / 1000)} s`);
  server = await startServer(stateDir, secrets);
  const fixture = { projectId, purposeIds, analyticsFrom, analyticsTo, adminToken: secrets.adminToken };
  // The report alone, three times in a row, as an operator opening the page waits for it.
  for (let i = 1; i <= 3; i++) {
    const started = Date.now();
    const reply = await fetch(`${server.baseUrl}/admin/v1/projects/${projectId}/analytics?from=${analyticsFrom}&to=${analyticsTo}`, {
      headers: { authorization: `Bearer ${secrets.adminToken}` },
    });
    const body = await reply.json();
    log(`90-day report alone (${i}): ${Date.now() - started} ms, status ${reply.status}, ${body.funnel?.counts?.banner_shown} banners shown; load ${loadavg().map((n) => n.toFixed(2)).join(" / ")}`);
  }
  for (const scenario of analyticsScenarios(fixture)) {
      const figures = await measure(server.baseUrl, scenario, { seconds, warmupSeconds: 1, cpuSeconds: server.cpuSeconds });
      log(
        `wrangler (${scenario.id}) ${scenario.name}: ${figures.requestsPerSecond} req/s, p50 ${figures.p50Ms} ms, p99 ${figures.p99Ms} ms, ` +
          `server CPU ${figures.cpuMsPerRequest} ms/request${figures.unexpected ? `, ${figures.unexpected} unexpected ${JSON.stringify(figures.statuses)}` : ""}`,
      );
  }
} finally {
  await server.stop();
  removeState(stateDir);
}
