/**
 * Holding a page's tags back on its way to the browser: every `<script src>`, `<iframe src>` and `<img src>` from a
 * listed host is marked `data-assent-held` in a form no browser fetches, and resource hints to those hosts are
 * dropped, so the preload scanner and the parser fetch nothing of them before consent. The project's blocker, first
 * in `<head>`, takes them as held and releases them as it does what it holds itself (docs/blocking.md#at-the-edge).
 */
import { isRule, ruleCovers, ruleParts } from "../../../shared/blocking/hosts";
import type { PageBlocking } from "./types";

/**
 * How each kind of element is held, by data: the attribute naming the URL, and what becomes of a listed one. A
 * script keeps its `src` under `type="text/plain"` (which no browser fetches); a frame or an image moves it to
 * `data-src`; a hint (preload, prefetch, preconnect) goes, as it would only fetch ahead what is held anyway. The
 * purposes are written for people reading the page; the blocker takes them from its own copy of the list.
 */
const rules: { elements: string[]; attribute: "src" | "href"; holds(element: Element): boolean; hold(element: Element, purposes: string): void }[] = [
  {
    elements: ["script"],
    attribute: "src",
    // Classic scripts only: the blocker releases a held script as a classic one.
    holds: (element) => /^((text|application)\/javascript)?$/i.test(element.getAttribute("type")?.trim() ?? ""),
    hold(element, purposes) {
      element.setAttribute("type", "text/plain");
      element.setAttribute("data-assent-held", purposes);
    },
  },
  {
    elements: ["iframe", "img"],
    attribute: "src",
    holds: () => true,
    hold(element, purposes) {
      element.setAttribute("data-src", element.getAttribute("src")!);
      element.removeAttribute("src");
      // A responsive image's candidates would load instead of its src: the held image loads its src alone.
      element.removeAttribute("srcset");
      element.setAttribute("data-assent-held", purposes);
    },
  },
  {
    elements: ["link"],
    attribute: "href",
    holds: (element) => /(^|\s)(preload|modulepreload|prefetch|preconnect|dns-prefetch)(\s|$)/i.test(element.getAttribute("rel") ?? ""),
    hold: (element) => element.remove(),
  },
];

/** `value` as a URL on `page`; null when it is none. */
function resolve(value: string, page: URL): URL | null {
  try {
    return new URL(value, page);
  } catch {
    return null;
  }
}

/** The purposes a URL's host waits for, space-separated; "" when not listed. */
function purposesOf(entries: PageBlocking["entries"], value: string, page: URL): string {
  const url = resolve(value, page);
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) return "";
  return [...new Set(entries.filter((entry) => ruleCovers(entry.host, url)).map((entry) => entry.purpose))].join(" ");
}

/**
 * A selector for the elements of a rule whose URL mentions a listed host. HTMLRewriter calls into JavaScript only for
 * the elements a selector matches, and each call costs more than matching: the page's own images and scripts then
 * cost nothing. The match is a pre-filter (a listed name in a query string matches too); `purposesOf` decides.
 */
function selectorOf(rule: (typeof rules)[number], entries: PageBlocking["entries"]): string {
  // The list is checked by the service; an entry that is not a host pattern here is left out of the selector.
  const needles = [...new Set(entries.filter((entry) => isRule(entry.host)).map((entry) => ruleParts(entry.host)[0].replace(/^\*/, "")))];
  return rule.elements.flatMap((element) => needles.map((needle) => `${element}[${rule.attribute}*="${needle}" i]`)).join(", ");
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
  const page = new URL(options.pageUrl);
  const blocker = blockerUrl(blocking);
  let injected = !options.blocker;
  const inject = (element: Element, where: "prepend" | "before") => {
    if (injected) return;
    injected = true;
    element[where](`<script src="${blocker.replace(/&/g, "&amp;").replace(/"/g, "&quot;")}"></script>`, { html: true });
  };

  let rewriter = new HTMLRewriter()
    .on("head", { element: (element) => inject(element, "prepend") })
    // A document written without `<head>`: the blocker goes before `<body>`.
    .on("body", { element: (element) => inject(element, "before") });
  if (options.blocker) {
    rewriter = rewriter.on(`script[src*="/blocking.js" i]`, {
      element(element) {
        if (resolve(element.getAttribute("src")!, page)?.href === blocker) element.remove();
      },
    });
  }
  for (const rule of rules) {
    const selector = selectorOf(rule, blocking.entries);
    if (selector) {
      rewriter = rewriter.on(selector, {
        element(element) {
          if (element.removed || !rule.holds(element)) return;
          const purposes = purposesOf(blocking.entries, element.getAttribute(rule.attribute)!, page);
          if (purposes) rule.hold(element, purposes);
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
