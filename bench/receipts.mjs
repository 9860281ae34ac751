// `npm run bench:receipts`: POST permission with signed receipts and without (RECEIPTS=off), in one run on one
// state, alternating the two settings each round so machine noise falls on both alike. Prints req/s and p50 per
// setting and the overhead of receipts. BENCH_SECONDS (default 10) and BENCH_ROUNDS (default 3) as in `npm run bench`.
import { apiClient, ok } from "./api.mjs";
import { measure } from "./load.mjs";
import { buildClient, freshState, removeState, startServer } from "./server.mjs";

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const log = (...args) => console.log("[bench:receipts]", ...args);

await buildClient();
const stateDir = await freshState();
let server;
let secrets;
const start = async (receipts) => {
  process.env.RECEIPTS = receipts; // read by startServer
  server = await startServer(stateDir, secrets);
  secrets = { adminToken: server.adminToken, signingKeys: server.signingKeys };
  return apiClient(server.baseUrl, server.adminToken);
};

try {
  let api = await start("on");
  const { projectId } = await ok(api.admin.POST("/admin/v1/projects", { body: { name: "Receipts bench", controller: { name: "Bench AB" } } }));
  const client = await ok(
    api.admin.POST("/admin/v1/projects/{project_id}/clients", { params: { path: { project_id: projectId } }, body: { name: "Bench backend", type: "backend", allowedOrigins: [] } }),
  );
  const under = `/privacy/v2/projects/${projectId}`;
  const backend = api.as(await api.tokenFor(client));
  const project = { path: { project_id: projectId } };
  const controller = (
    await ok(backend.POST("/privacy/v2/projects/{project_id}/configurations/parties", { params: project, body: { referenceId: "bench", type: "company", details: { name: "Bench AB" } } }))
  ).partyId;
  const groups = [];
  for (const referenceId of ["email", "location"]) {
    groups.push((await ok(backend.POST("/privacy/v2/projects/{project_id}/configurations/data-groups", { params: project, body: { referenceId, name: referenceId } }))).dataGroupId);
  }
  const { purposeId } = await ok(
    backend.POST("/privacy/v2/projects/{project_id}/configurations/purposes", {
      params: project,
      body: { referenceId: "marketing", name: "Marketing", legalGround: "consent", dataGroups: groups, controllers: [controller] },
    }),
  );
  const subjects = [];
  for (let i = 0; i < 200; i++) subjects.push((await ok(backend.POST("/privacy/v2/projects/{project_id}/identities", { params: project, body: {} }))).identityId);
  const figures = { on: [], off: [] };
  for (let round = 1; round <= rounds; round++) {
    for (const receipts of round % 2 ? ["on", "off"] : ["off", "on"]) {
      await server.stop();
      api = await start(receipts);
      const token = await api.tokenFor(client);
      let next = 0;
      const result = await measure(
        server.baseUrl,
        {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          requests: [
            {
              path: `${under}/permissions`,
              setupRequest: (request) => {
                next = (next + 1) % subjects.length;
                const status = next % 2 ? "denied" : "approved";
                request.body = JSON.stringify({
                  identityId: subjects[next],
                  requested: new Date(Date.now() - 1000).toISOString(),
                  meta: { context: { collectionMethod: "web-dialog", language: "en" } },
                  request: { purposes: [{ purposeId, status, dataGroups: groups.map((dataGroupId) => ({ dataGroupId, status })) }] },
                });
                return request;
              },
            },
          ],
          expectStatus: 201,
        },
        { seconds, warmupSeconds: Math.min(2, seconds) },
      );
      figures[receipts].push(result);
      log(`round ${round} receipts ${receipts}: ${result.requestsPerSecond} req/s, p50 ${result.p50Ms} ms${result.unexpected ? `, ${result.unexpected} unexpected` : ""}`);
    }
  }
  const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  const on = median(figures.on.map((f) => f.requestsPerSecond));
  const off = median(figures.off.map((f) => f.requestsPerSecond));
  log(`median req/s: receipts on ${on}, off ${off}; receipts cost ${(((off - on) / off) * 100).toFixed(1)}% of throughput`);
  log(`median p50: on ${median(figures.on.map((f) => f.p50Ms))} ms, off ${median(figures.off.map((f) => f.p50Ms))} ms`);
} finally {
  await server?.stop();
  removeState(stateDir);
}
