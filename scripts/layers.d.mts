export type Layer = "plumbing" | "data model" | "capabilities" | "routes and jobs";
export function layerOf(module: string, source: string): Layer;
export function layerCrossings(graph: Record<string, string[]>, sourceOf: (module: string) => string): string[];
export function workerGraph(root: string): Promise<{ graph: Record<string, string[]>; sourceOf: (module: string) => string }>;
