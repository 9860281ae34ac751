// The lean local runtime (`npm run serve`, and the benchmark's second runtime): the built Worker bundle in
// Miniflare with persistent local D1, KV and queues, and nothing else: no bundler watching files, no dev proxy,
// no per-request logging. It takes the options `wrangler dev` takes that matter here:
//   node scripts/lean-server.mjs --port 8787 --ip 127.0.0.1 --persist-to .wrangler/state --var NAME:value …
// `--inspector-port N` opens workerd's inspector (Chrome DevTools protocol) there: `npm run bench:profile` uses it.
// Bindings come from wrangler.toml (and .dev.vars) exactly as wrangler reads them; the Miniflare used is the one
// wrangler itself runs, so both runtimes share one storage layout and one workerd.
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { experimental_readRawConfig, unstable_getMiniflareWorkerOptions } from "wrangler";
import { Log, LogLevel, Miniflare } from "./miniflare.mjs";

export const workerBundle = "dist/worker/index.js";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "8787" },
    ip: { type: "string", default: "127.0.0.1" },
    "persist-to": { type: "string", default: ".wrangler/state" },
    var: { type: "string", multiple: true, default: [] },
    "inspector-port": { type: "string" },
    // How often the cron triggers fire, in milliseconds: production's minute unless a test wants them sooner; 0: never.
    "cron-every": { type: "string", default: "60000" },
  },
});
const vars = Object.fromEntries(values.var.map((pair) => [pair.slice(0, pair.indexOf(":")), pair.slice(pair.indexOf(":") + 1)]));


// The bundle is one module, so wrangler's module rules have nothing to say (and Miniflare 5 takes none).
const { workerOptions: { modulesRules: _rules, ...workerOptions } } = unstable_getMiniflareWorkerOptions("wrangler.toml");
const miniflare = new Miniflare({
  ...workerOptions,
  name: "assent",
  modules: true,
  scriptPath: resolve(workerBundle),
  bindings: { ...workerOptions.bindings, ...vars },
  // wrangler dev keeps its state under <persist-to>/v3; the same place, so either runtime opens the other's data.
  // (Miniflare 5's converter drops Miniflare 4's `defaultPersistRoot` without a word: storage was then in memory.)
  resourcePersistencePath: join(resolve(values["persist-to"]), "v3"),
  host: values.ip,
  port: Number(values.port),
  log: new Log(LogLevel.WARN),
  unsafeTriggerHandlers: true,
  ...(values["inspector-port"] ? { inspectorPort: Number(values["inspector-port"]) } : {}),
});
const url = await miniflare.ready;
console.log(`Assent (lean runtime) listening on ${url.origin}`);

// The cron triggers of wrangler.toml, fired every minute as production does (wrangler dev needs a curl for it).
// Fired over HTTP, at the Worker itself (the route override passes the static-assets router, which has no
// scheduled handler): Miniflare's getWorker() proxy makes its first call synchronously, parking this thread, the one
// that drains workerd's output, while workerd may itself be waiting for that output to drain.
const crons = experimental_readRawConfig({ config: "wrangler.toml" }).rawConfig.triggers?.crons ?? [];
const cronEvery = Number(values["cron-every"]);
if (cronEvery > 0) setInterval(() => {
  for (const cron of crons) {
    const trigger = new URL(`/cdn-cgi/local/scheduled?cron=${encodeURIComponent(cron)}`, url);
    fetch(trigger, { headers: { "MF-Route-Override": "assent" } }).then(
      async (res) => res.ok || console.error(`scheduled run (${cron}) failed: ${res.status} ${await res.text()}`),
      (error) => console.error(`scheduled run (${cron}) failed: ${error.message}`),
    );
  }
}, cronEvery).unref();
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => miniflare.dispose().finally(() => process.exit(0)));
}
