// The example edge Worker (examples/edge) in front of a test site, in workerd (scripts/edge-worker.mjs): the same
// runtime and HTMLRewriter a site's zone runs it on.
import { edgeWorkerScript, startWorker } from "../../scripts/edge-worker.mjs";

/** Serves `origin`'s pages at `http://localhost:{port}` through the edge Worker for `project` of `service`. */
export async function edgeSite(port: number, { origin, service, project }: { origin: string; service: string; project: string }) {
  const worker = await startWorker(await edgeWorkerScript(), { bindings: { ASSENT_SERVICE: service, ASSENT_PROJECT: project, ORIGIN: origin }, port });
  return { origin: `http://localhost:${port}`, close: worker.stop };
}
