// Miniflare as wrangler pins it, for the runtimes started outside wrangler (the lean server, the edge Worker): the
// copy at the top of node_modules is the vitest plugin's newer one, with another storage layout and options.
import { createRequire } from "node:module";

export const { Miniflare, Log, LogLevel } = createRequire(createRequire(import.meta.url).resolve("wrangler"))("miniflare");
