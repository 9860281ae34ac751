// `node bench/widget-first-paint.mjs`: time to the first paint of the consent banner for first-time visitors in
// headless Chromium, median of WIDGET_VISITS (default 10). Starts the service on a private state, makes a project
// with one consent purpose, builds nothing: run `npm run build:widget` first.
import { apiClient } from "./api.mjs";
import { freshState, removeState, startServer } from "./server.mjs";
import { measureWidget } from "./widget.mjs";

const stateDir = freshState();
const server = await startServer(stateDir);
try {
  const api = apiClient(server.baseUrl, server.adminToken);
  const { projectId } = await api.admin("POST", "/projects", { name: "Paint", controller: { name: "Paint AB", email: "p@paint.example" } });
  const backend = await api.admin("POST", `/projects/${projectId}/clients`, { name: "Backend", type: "backend" });
  const token = await api.tokenFor(backend);
  const under = `/privacy/v2/projects/${projectId}/configurations`;
  const party = await api.send("POST", `${under}/parties`, { token, body: { referenceId: "paint", type: "company", details: { name: "Paint AB" } } });
  await api.send("POST", `${under}/purposes`, {
    token,
    body: { controllers: [party.partyId], referenceId: "analytics", name: "Analytics", legalGround: "consent", description: [{ language: "en", text: "Counting visits." }] },
  });
  const result = await measureWidget(server, { projectId }, (...args) => console.log("[paint]", ...args));
  console.log(JSON.stringify(result));
} finally {
  await server.stop();
  removeState(stateDir);
}
