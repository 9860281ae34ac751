// The example edge Worker (examples/edge) in front of a test site, in workerd through Miniflare: the same runtime
// and HTMLRewriter a site's zone runs it on. It is bundled by esbuild (vite's and wrangler's own), with @assent/edge
// from its source.
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

// Miniflare as wrangler pins it (scripts/lean-server.mjs takes it the same way).
const require = createRequire(createRequire(import.meta.url).resolve("wrangler"));
const { Miniflare } = require("miniflare") as typeof import("wrangler/node_modules/miniflare");

/** A port nothing listens on now: the edge's origin must be known before the project that allows it exists. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Serves `origin`'s pages at `http://localhost:{port}` through the edge Worker for `project` of `service`. */
export async function edgeSite(port: number, { origin, service, project }: { origin: string; service: string; project: string }) {
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL("../../examples/edge/src/index.ts", import.meta.url))],
    alias: { "@assent/edge": fileURLToPath(new URL("../../packages/edge/src/index.ts", import.meta.url)) },
    bundle: true,
    format: "esm",
    platform: "neutral",
    write: false,
  });
  const miniflare = new Miniflare({
    modules: true,
    script: bundle.outputFiles[0].text,
    compatibilityDate: "2026-05-01",
    bindings: { ASSENT_SERVICE: service, ASSENT_PROJECT: project, ORIGIN: origin },
    host: "127.0.0.1",
    port,
  });
  await miniflare.ready;
  return { origin: `http://localhost:${port}`, close: () => miniflare.dispose() };
}
