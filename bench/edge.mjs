// `node bench/edge.mjs`: what gating a page at the edge costs (BENCHMARKS.md, "Blocking at the edge"). The example
// edge Worker (examples/edge, @assent/edge from source) and a plain proxy Worker, each in workerd through Miniflare,
// in front of the same local origin serving a shop page of about 60 KB with the vendors' usual tags; autocannon
// measures each in turn. The origin also answers the project's blocking.json (28 entries): the edge fetches it once
// a minute, so the service's own latency is not part of the per-page figure. The figure to read is workerd's CPU per
// page (cpuMsPerRequest): the latencies at 32 connections mostly measure the queue on a shared 2-core machine.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { edgeWorkerScript, startWorker } from "../scripts/edge-worker.mjs";
import { measure } from "./load.mjs";
import { groupCpuSecondsByCommand } from "./server.mjs";

const log = (...args) => console.log("[bench:edge]", ...args);
const seconds = Number(process.env.EDGE_SECONDS ?? 10);

const vendorTags = `
<link rel="preconnect" href="https://www.googletagmanager.com">
<script async src="https://www.googletagmanager.com/gtag/js?id=G-1"></script>
<script>window.dataLayer = window.dataLayer || []; function gtag(){dataLayer.push(arguments);} gtag('js', new Date()); gtag('config', 'G-1');</script>
<script src="https://connect.facebook.net/en_US/fbevents.js" async></script>
<script src="https://www.clarity.ms/tag/abc" async></script>
<script src="https://static.hotjar.com/c/hotjar-1.js" async></script>`;
const card = (i) => `<article class="product"><a href="/p/${i}"><img src="/img/${i}.jpg" alt="Product ${i}" width="300" height="300" loading="lazy"></a>
<h2><a href="/p/${i}">Product ${i}</a></h2><p>${"A sturdy, well-made thing for everyday use. ".repeat(6)}</p><p class="price">${i * 7} kr</p>
<button type="button" data-sku="${i}">Add to cart</button></article>`;
const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title>
<link rel="stylesheet" href="/shop.css">${vendorTags}
</head><body><header><nav>${Array.from({ length: 12 }, (_, i) => `<a href="/c/${i}">Category ${i}</a>`).join(" ")}</nav></header>
<main>${Array.from({ length: 60 }, (_, i) => card(i)).join("\n")}</main>
<iframe width="560" height="315" src="https://www.youtube.com/embed/xyz" title="Video"></iframe>
<img src="https://px.ads.linkedin.com/collect/?pid=1&fmt=gif" width="1" height="1" alt="">
<footer>${"<p>Shop AB, Storgatan 1, Stockholm.</p>".repeat(10)}</footer></body></html>`;
const hosts = [
  ["www.googletagmanager.com", "analytics"], ["*.google-analytics.com", "analytics"], ["connect.facebook.net", "marketing"],
  ["www.facebook.com", "marketing"], ["*.clarity.ms", "analytics"], ["*.hotjar.com", "analytics"], ["www.youtube.com", "marketing"],
  ["px.ads.linkedin.com", "marketing"], ["snap.licdn.com", "marketing"], ["analytics.tiktok.com", "marketing"],
  ...Array.from({ length: 18 }, (_, i) => [`t${i}.tracker.example`, "marketing"]),
];
const list = JSON.stringify({ api: "https://assent.example.com", project: "prj_bench", entries: hosts.map(([host, purpose]) => ({ host, purpose, vendor: null })) });

const origin = createServer((req, res) => {
  if (req.url.endsWith("/blocking.json")) return res.writeHead(200, { "content-type": "application/json", etag: '"l1"' }).end(list);
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page);
});
await new Promise((resolve) => origin.listen(0, "127.0.0.1", resolve));
const originUrl = `http://127.0.0.1:${origin.address().port}`;

const workers = {
  proxy: `export default { fetch(request, env) { const url = new URL(request.url); return fetch(new URL(url.pathname + url.search, env.ORIGIN), request); } };`,
  gated: await edgeWorkerScript(),
};

// workerd's CPU (Miniflare starts it in this process's group): what the Worker and its runtime spend per page.
const group = Number(readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ")[2]);
const workerdSeconds = () =>
  Object.entries(groupCpuSecondsByCommand(group))
    .filter(([command]) => command.startsWith("workerd"))
    .reduce((sum, [, seconds]) => sum + seconds, 0);

const results = {};
for (const [name, script] of Object.entries(workers)) {
  const { origin: url, stop } = await startWorker(script, { bindings: { ORIGIN: originUrl, ASSENT_SERVICE: originUrl, ASSENT_PROJECT: "prj_bench" } });
  const body = await (await fetch(`${url}/`)).text();
  log(`${name}: ${body.length} bytes, ${(body.match(/data-assent-held/g) ?? []).length} tags held`);
  results[name] = await measure(url, { path: "/", expectStatus: 200 }, { seconds, warmupSeconds: 2, cpuSeconds: workerdSeconds });
  log(name, results[name]);
  await stop();
}
origin.close();
console.log(
  JSON.stringify({ page: page.length, entries: hosts.length, seconds, proxy: results.proxy, gated: results.gated }, null, 2),
);
