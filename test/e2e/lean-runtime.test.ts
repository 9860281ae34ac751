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
