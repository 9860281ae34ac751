// IAB's and Google's list servers for the browser tests' service: the vendored snapshot in test/fixtures/tcf/ on a
// local port, so the service's cron (worker/tcf/refresh.ts) fetches real documents over HTTP and never the network.
// Other languages' translations answer 404: the refresh records them as failing and keeps serving what it has.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const files: Record<string, [string, string]> = {
  "/v3/vendor-list.json": ["vendor-list.json", "application/json"],
  "/v3/purposes-fr.json": ["purposes-fr.json", "application/json"],
  "/additional-consent-providers.csv": ["additional-consent-providers.csv", "text/csv"],
};

/** Starts the stand-in; answers the service's variables pointing at it, and its stop. */
export async function tcfListsServer() {
  const server = createServer((request, response) => {
    const file = files[new URL(request.url ?? "/", "http://localhost").pathname];
    if (!file) return void response.writeHead(404).end();
    response.writeHead(200, { "content-type": file[1] }).end(readFileSync(`test/fixtures/tcf/${file[0]}`));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    vars: { TCF_GVL_BASE_URL: `${origin}/v3/`, TCF_ATP_URL: `${origin}/additional-consent-providers.csv` },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Waits until the service at `base` hosts the GVL and the ATP list. The cron fetches them only where a project has TCF
 * on (docs/tcf.md#the-hosted-lists), so a project of its own turns TCF on, which starts the fetch; the cron is run too.
 */
export async function hostedLists(base: string, adminToken: string) {
  const call = (method: string, path: string, body: unknown) =>
    fetch(base + path, { method, headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" }, body: JSON.stringify(body) });
  const project = await call("POST", "/admin/v1/projects", { name: "TCF lists", controller: { name: "Lists" } });
  if (project.status !== 201) throw new Error(`project not created: ${project.status}`);
  const { projectId } = (await project.json()) as { projectId: string };
  const on = { enabled: true, cmpId: 300, cmpVersion: 1, vendors: [], publisherRestrictions: [], publisherPurposes: { consent: [], legitimateInterest: [] }, acProviders: [] };
  const turnedOn = await call("PUT", `/admin/v1/projects/${projectId}/tcf`, on);
  if (turnedOn.status !== 200) throw new Error(`TCF not turned on: ${turnedOn.status} ${await turnedOn.text()}`);
  const served = async (path: string) => (await fetch(base + path)).ok;
  while (!(await served("/tcf/v3/vendor-list.json")) || !(await served("/tcf/atp/additional-consent-providers.json"))) {
    await fetch(`${base}/__scheduled?cron=*+*+*+*+*`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
