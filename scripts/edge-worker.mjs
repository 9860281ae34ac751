// The example edge Worker (examples/edge) in workerd through Miniflare, as a site's zone runs it: for the browser test
// of blocking at the edge and its benchmark. @assent/edge is bundled from its source by esbuild (vite's and wrangler's).
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { Miniflare } from "./miniflare.mjs";

/** The example Worker as one ES module. */
export async function edgeWorkerScript() {
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL("../examples/edge/src/index.ts", import.meta.url))],
    alias: { "@assent/edge": fileURLToPath(new URL("../packages/edge/src/index.ts", import.meta.url)) },
    bundle: true,
    format: "esm",
    platform: "neutral",
    write: false,
  });
  return bundle.outputFiles[0].text;
}

/**
 * Starts `script` (a Worker module) in workerd on `port` (0: any) with `bindings`; answers its origin and a stop.
 * Its compatibility date is the example's wrangler.toml's.
 */
export async function startWorker(script, { bindings, port = 0 }) {
  const miniflare = new Miniflare({ modules: true, script, compatibilityDate: "2026-05-01", bindings, host: "127.0.0.1", port });
  const { origin } = await miniflare.ready;
  return { origin, stop: () => miniflare.dispose() };
}
