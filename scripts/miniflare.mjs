// Miniflare for the runtimes started outside wrangler (the lean server, the edge Worker): the one wrangler and the
// vitest plugin share (scripts/toolchain.mjs checks there is one). Miniflare 5 takes each Worker's options in a new
// shape; these scripts write Miniflare 4's, which its own converter turns into the new one.
import { createRequire } from "node:module";

const miniflare = createRequire(createRequire(import.meta.url).resolve("wrangler"))("miniflare");

export const { Log, LogLevel } = miniflare;

export class Miniflare extends miniflare.Miniflare {
  constructor(options) {
    super(miniflare.convertV4MiniflareOptions(options));
  }
}
