/**
 * Holding a page's tags back on its way to the browser: every `<script src>`, `<iframe src>` and `<img src>` from a
 * listed host is marked `data-assent-held` in a form no browser fetches, and resource hints to those hosts are
 * dropped, so the preload scanner and the parser fetch nothing of them before consent. The project's blocker, first
 * in `<head>`, takes them as held and releases them as it does what it holds itself (docs/blocking.md#at-the-edge).
 */
import { patternCovers } from "../../../shared/blocking/hosts";
import type { PageBlocking } from "./types";

/** What the page's own URLs resolve against, as the document's `<base href>` may change it. */
type Resolution = { base: URL };

/**
 * How each kind of element is held, by data: the attribute naming the URL, and what becomes of a listed one. A
 * script keeps its `src` under `type="text/plain"` (which no browser fetches); a frame or an image moves it to
 * `data-src`; a hint (preload, prefetch, preconnect) goes, as it would only fetch ahead what is held anyway. The
 * purposes are written for people reading the page; the blocker takes them from its own copy of the list.
 */
const rules: { selector: string; attribute: "src" | "href"; gate(element: Element, purposes: string): void }[] = [
  {
    // Classic scripts only: the blocker releases a held script as a classic one.
    selector: 'script[src]:not([type]), script[src][type=""], script[src][type="text/javascript" i], script[src][type="application/javascript" i]',
    attribute: "src",
    gate(element, purposes) {
      element.setAttribute("type", "text/plain");
      element.setAttribute("data-assent-held", purposes);
    },
  },
  ...["iframe[src]", "img[src]"].map((selector) => ({
    selector,
    attribute: "src" as const,
    gate(element: Element, purposes: string) {
      element.setAttribute("data-src", element.getAttribute("src")!);
      element.removeAttribute("src");
      // A responsive image's candidates would load instead of its src: the held image loads its src alone.
      element.removeAttribute("srcset");
      element.setAttribute("data-assent-held", purposes);
    },
  })),
  {
    selector: 'link[href][rel~="preload" i], link[href][rel~="modulepreload" i], link[href][rel~="prefetch" i], link[href][rel~="preconnect" i], link[href][rel~="dns-prefetch" i]',
    attribute: "href",
    gate: (element) => element.remove(),
  },
];

/** `value` as a URL against the document's base; null when it is none. */
function resolve(value: string, { base }: Resolution): URL | null {
  try {
    return new URL(value, base);
  } catch {
    return null;
  }
}

/** The purposes a URL's host waits for, space-separated; "" when not listed. */
function purposesOf(entries: PageBlocking["entries"], value: string, resolution: Resolution): string {
  const url = resolve(value, resolution);
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) return "";
  return [...new Set(entries.filter((entry) => patternCovers(entry.host, url.hostname)).map((entry) => entry.purpose))].join(" ");
}

/** The project's blocker, which holds back what the page's own scripts create. */
export const blockerUrl = ({ api, project }: Pick<PageBlocking, "api" | "project">) => `${api}/widget/v1/projects/${encodeURIComponent(project)}/blocking.js`;

/**
 * `response` with its HTML gated by `blocking`. Anything but a successful HTML answer passes unchanged. With
 * `blocker`, the project's blocker becomes the first element of `<head>` (a copy the page already has is dropped):
 * it is what releases the held tags, and a page routed through the edge need not name it itself.
 */
export function gateHtml(response: Response, blocking: PageBlocking, options: { pageUrl: string | URL; blocker?: boolean }): Response {
  const type = response.headers.get("content-type") ?? "";
  if (!response.ok || !response.body || !/^text\/html\b/i.test(type)) return response;
  const resolution: Resolution = { base: new URL(options.pageUrl) };
  const blocker = blockerUrl(blocking);
  let injected = !options.blocker;
  const inject = (element: Element, where: "prepend" | "before") => {
    if (injected) return;
    injected = true;
    element[where](`<script src="${blocker.replace(/&/g, "&amp;").replace(/"/g, "&quot;")}"></script>`, { html: true });
  };

  let rewriter = new HTMLRewriter()
    .on("base[href]", {
      element(element) {
        // An unusable base leaves URLs resolving against the page, as browsers do.
        resolution.base = resolve(element.getAttribute("href")!, resolution) ?? resolution.base;
      },
    })
    .on("head", { element: (element) => inject(element, "prepend") })
    // A document written without `<head>`: the blocker goes before the first element that could load something.
    .on("body, script, iframe, img, link", { element: (element) => inject(element, "before") })
    .on("script[src]", {
      element(element) {
        if (options.blocker && resolve(element.getAttribute("src")!, resolution)?.href === blocker) element.remove();
      },
    });
  if (blocking.entries.length > 0) {
    for (const rule of rules) {
      rewriter = rewriter.on(rule.selector, {
        element(element) {
          if (element.removed) return;
          const purposes = purposesOf(blocking.entries, element.getAttribute(rule.attribute)!, resolution);
          if (purposes) rule.gate(element, purposes);
        },
      });
    }
  }
  const gated = rewriter.transform(response);
  const headers = new Headers(gated.headers);
  // The body differs from the origin's: its length and validators no longer describe it.
  for (const name of ["content-length", "etag", "last-modified"]) headers.delete(name);
  return new Response(gated.body, { status: gated.status, statusText: gated.statusText, headers });
}
