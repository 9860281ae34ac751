// Types of edge-worker.mjs, for the browser test of blocking at the edge.
export function edgeWorkerScript(): Promise<string>;
export function startWorker(script: string, options: { bindings: Record<string, string>; port?: number }): Promise<{ origin: string; stop(): Promise<void> }>;
