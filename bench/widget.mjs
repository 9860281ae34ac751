// The widget's share of the benchmark: its size (the production build is minified; gzip at level 9), and the time
// from the start of its script to its first layer (the banner) laid out in headless
// Chromium, for a first-time visitor (one bootstrap call, or on a service without it a visitor token, the
// configuration and the state; it opens because nothing is answered yet). Median of WIDGET_VISITS (default 10);
// WIDGET_TRACE=1 logs each visit's resource timings.
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { apiClient, ok } from "./api.mjs";

const file = "dist/public/widget/assent.js";
const visits = Number(process.env.WIDGET_VISITS ?? 10);

export async function measureWidget(server, fixture, log) {
  if (!existsSync(file)) {
    const skipped = `${file} does not exist (run \`npm run build:widget\`); size and time to dialog not measured.`;
    log(skipped);
    return { skipped };
  }
  const source = readFileSync(file);
  const gzipBytes = gzipSync(source, { level: 9 }).length;
  const result = { file, minifiedBytes: source.length, gzipBytes };
  const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  if (!existsSync(executablePath)) return { ...result, note: `no Chromium at ${executablePath}; time to dialog not measured` };

  // A host page on its own origin (localhost is a secure context, as a real site on https would be).
  let page = "";
  const site = createServer((_request, response) => response.writeHead(200, { "content-type": "text/html" }).end(page));
  await new Promise((resolve) => site.listen(0, "127.0.0.1", resolve));
  const siteOrigin = `http://localhost:${site.address().port}`;
  const api = apiClient(server.baseUrl, server.adminToken);
  await ok(
    api.admin.POST("/admin/v1/projects/{project_id}/clients", {
      params: { path: { project_id: fixture.projectId } },
      body: { name: "Bench site", type: "web", allowedOrigins: [siteOrigin] },
    }),
  );
  // The mark is set by an inline script just before the widget's script tag: "script start".
  page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bench</title>
<script>performance.mark("widget-script-start")</script>
<script type="module" src="${server.baseUrl}/widget/assent.js"></script></head>
<body><assent-consent project="${fixture.projectId}" api="${server.baseUrl}" application="bench"></assent-consent></body></html>`;
  const browser = await chromium.launch({ executablePath, headless: true, args: ["--no-sandbox", "--disable-gpu", "--disable-quic"] });
  const times = [];
  try {
    for (let i = 0; i < visits; i++) {
      const context = await browser.newContext();
      const tab = await context.newPage();
      await tab.goto(`${siteOrigin}/`);
      const ms = await tab.waitForFunction(
        () => {
          const dialog = document.querySelector("assent-consent")?.shadowRoot?.querySelector("dialog[open], [role=dialog], [part~=banner]");
          if (!dialog || dialog.getBoundingClientRect().height === 0) return false;
          return performance.now() - performance.getEntriesByName("widget-script-start")[0].startTime;
        },
        undefined,
        { timeout: 30_000, polling: "raf" },
      );
      times.push(Math.round(await ms.jsonValue()));
      if (process.env.WIDGET_TRACE) {
        const trace = await tab.evaluate(() =>
          performance.getEntriesByType("resource").map((e) => `${new URL(e.name).pathname.split("/").pop()} ${Math.round(e.startTime)}-${Math.round(e.responseEnd)}`),
        );
        log(`visit ${i + 1}: ${times.at(-1)} ms; ${trace.join(", ")}`);
      }
      await context.close();
    }
  } finally {
    await browser.close();
    site.close();
  }
  times.sort((a, b) => a - b);
  log(`widget: ${gzipBytes} bytes min+gzip; script start to open dialog ${times.join(", ")} ms`);
  return { ...result, timeToDialogMs: times[Math.floor(times.length / 2)], timesMs: times, note: `median of ${visits} first visits` };
}
