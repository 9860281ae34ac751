// Types of miniflare.mjs: wrangler's own Miniflare.
export const Miniflare: typeof import("wrangler/node_modules/miniflare").Miniflare;
export const Log: typeof import("wrangler/node_modules/miniflare").Log;
export const LogLevel: typeof import("wrangler/node_modules/miniflare").LogLevel;
