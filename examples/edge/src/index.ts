// A site's edge Worker: every page goes through it on its way to the browser, and the tags the project's blocking
// list names leave it held, so the browser fetches nothing of them before consent (docs/blocking.md#at-the-edge).
import { gate } from "@assent/edge";

type Env = {
  /** The Assent service, e.g. https://assent.example.com. */
  ASSENT_SERVICE: string;
  ASSENT_PROJECT: string;
  /** Where the site is served from when it is not this route's own origin (a site on another host, a local test). */
  ORIGIN?: string;
};

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const upstream = env.ORIGIN ? new Request(new URL(url.pathname + url.search, env.ORIGIN), request) : request;
    return gate(request, await fetch(upstream), { service: env.ASSENT_SERVICE, project: env.ASSENT_PROJECT });
  },
};
