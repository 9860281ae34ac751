// The lean runtime (scripts/lean-server.mjs: `npm run serve` and the benchmark) keeps answering while its cron fires
// under load. Every request writes a log line through workerd's stdout, which the runtime's Node process drains; a
// cron trigger that blocked that process's thread (Miniflare's synchronous proxy calls do) left workerd stuck on a
// full pipe, and with it every request, /healthz included.
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startService, wranglerEnv } from "../../scripts/local-service.mjs";

type Service = Awaited<ReturnType<typeof startService>>;
let service: Service;

beforeAll(async () => {
  execFileSync("npx", ["wrangler", "deploy", "--dry-run", "--outdir", "dist/worker"], { stdio: "ignore", env: wranglerEnv });
  service = await startService({ name: "lean-cron", runtime: "lean", build: false, options: ["--cron-every", "200"] });
  // The bundle, the migrations and the runtime's start took 81 and 114 s on a busy two-core machine.
}, 300_000);

it("reads and writes its databases: a client made through the admin API gets a token", async () => {
  // /healthz touches no database; a runtime whose D1 binding is broken answers it and nothing else.
  const admin = { authorization: `Bearer ${service.adminToken}`, "content-type": "application/json" };
  const project = await fetch(`${service.baseUrl}/admin/v1/projects`, { method: "POST", headers: admin, body: JSON.stringify({ name: "Lean", controller: { name: "Example AB" } }) });
  expect(project.status, await project.clone().text()).toBe(201);
  const { projectId } = (await project.json()) as { projectId: string };
  const client = await fetch(`${service.baseUrl}/admin/v1/projects/${projectId}/clients`, {
    method: "POST",
    headers: admin,
    body: JSON.stringify({ name: "backend app", type: "backend", allowedOrigins: [] }),
  });
  expect(client.status, await client.clone().text()).toBe(201);
  const { clientId, clientSecret } = (await client.json()) as { clientId: string; clientSecret: string };
  const token = await fetch(`${service.baseUrl}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret }),
  });
  expect(token.status, await token.clone().text()).toBe(200);
}, 120_000);

afterAll(async () => {
  await service?.stop();
});

it("answers every request of a flood while the cron fires every 200 ms", async () => {
  const answered: number[] = [];
  // Liveness, not speed: a stuck runtime never answers, so each call gets a generous bound instead of hanging the file.
  const call = () => fetch(`${service.baseUrl}/healthz`, { signal: AbortSignal.timeout(60_000) }).then((res) => answered.push(res.status));
  const caller = async () => {
    for (let i = 0; i < 100; i++) await call();
  };
  await Promise.all(Array.from({ length: 16 }, caller));
  expect(answered.length).toBe(1600);
  expect(new Set(answered)).toEqual(new Set([200]));
  // The triggers reached the Worker's scheduled handler (a failed one is logged with its status).
  expect(service.log()).not.toMatch(/scheduled run .* failed/);
}, 300_000);
