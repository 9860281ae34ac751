// `node bench/widget-first-paint.mjs`: time to the first paint of the consent banner for first-time visitors in
// headless Chromium, median of WIDGET_VISITS (default 10). Starts the service on a private state, makes a project
// with one consent purpose, builds nothing: run `npm run build:widget` first.
import { apiClient, ok } from "./api.mjs";
import { freshState, removeState, startServer } from "./server.mjs";
import { measureWidget } from "./widget.mjs";

const stateDir = await freshState();
const server = await startServer(stateDir);
try {
  const api = apiClient(server.baseUrl, server.adminToken);
  const { projectId } = await ok(api.admin.POST("/admin/v1/projects", { body: { name: "Paint", controller: { name: "Paint AB", email: "p@paint.example" } } }));
  const client = await ok(api.admin.POST("/admin/v1/projects/{project_id}/clients", { params: { path: { project_id: projectId } }, body: { name: "Backend", type: "backend" } }));
  const backend = api.as(await api.tokenFor(client));
  const project = { path: { project_id: projectId } };
  const party = await ok(
    backend.POST("/privacy/v2/projects/{project_id}/configurations/parties", { params: project, body: { referenceId: "paint", type: "company", details: { name: "Paint AB" } } }),
  );
  await ok(
    backend.POST("/privacy/v2/projects/{project_id}/configurations/purposes", {
      params: project,
      body: { controllers: [party.partyId], referenceId: "analytics", name: "Analytics", legalGround: "consent", description: [{ language: "en", text: "Counting visits." }] },
    }),
  );
  const result = await measureWidget(server, { projectId }, (...args) => console.log("[paint]", ...args));
  console.log(JSON.stringify(result));
} finally {
  await server.stop();
  removeState(stateDir);
}
