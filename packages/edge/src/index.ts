/**
 * Assent at the edge: a Cloudflare Worker in front of a site gates the tags its HTML names from the project's
 * blocking list before the browser sees them (docs/blocking.md#at-the-edge).
 */
import { gateHtml } from "./gate";
import { pageBlocking } from "./list";
import type { EdgeOptions } from "./types";

export { blockerUrl, gateHtml } from "./gate";
export { pageBlocking } from "./list";
export type { EdgeOptions, PageBlocking } from "./types";

/** `response`, the site's answer to `request`, with its HTML gated by the project's current list. */
export async function gate(request: Request, response: Response, options: EdgeOptions): Promise<Response> {
  if (!/^text\/html\b/i.test(response.headers.get("content-type") ?? "")) return response;
  const blocking = await pageBlocking(options);
  if (!blocking) return response;
  return gateHtml(response, blocking, { pageUrl: request.url, blocker: options.blocker ?? true });
}

/** A Worker for the site's route that fetches each request from the origin and gates its HTML. */
export function assentEdge(options: EdgeOptions): { fetch(request: Request): Promise<Response> } {
  return { fetch: async (request) => gate(request, await fetch(request), options) };
}
