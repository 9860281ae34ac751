/**
 * Holding back `<script src>`, `<iframe src>` and `<img src>` from listed hosts, however they reach the page:
 * - written in the HTML: a MutationObserver sees them as the parser inserts them, before a script runs (the yett
 *   technique: its type becomes `javascript/blocked`; a frame or image loses its `src`);
 * - created by script: the `src` property and `setAttribute('src')` of the three element types keep a listed URL
 *   aside instead of setting it, and inserting a node (`appendChild`, `insertBefore`, `append`, `prepend`, `before`,
 *   `after`, `replaceWith`) first holds what it carries that came with a `src` from a parser (innerHTML, cloneNode).
 * - held already at the edge (@assent/edge): `data-assent-held` marks a script turned `text/plain` or a frame or image
 *   whose `src` became `data-src`; they are taken as held (released at once when allowed).
 * Released elements keep their order: held ones are released in the order they were met.
 */
export type Watched = HTMLScriptElement | HTMLIFrameElement | HTMLImageElement;

export type Held = {
  element: Watched;
  url: string;
  purposes: string[];
  /** A script the HTML parser inserted: it runs only as a fresh copy (the parser's copy is spent). */
  parsed?: { type: string | null };
};

export type Holder = {
  /**
   * Releases every held element whose purposes are all allowed now (or just `only`), in the order they were held;
   * returns the released ones.
   */
  release(only?: Held): Watched[];
};

const classes = [HTMLScriptElement, HTMLIFrameElement, HTMLImageElement];
const selector = "script[src],iframe[src],img[src],[data-assent-held]";
const isWatched = (node: unknown): node is Watched => classes.some((kind) => node instanceof kind);

/**
 * Starts holding. `purposesOf(url)` names the purposes a URL's host maps to (none: not listed); `allowed` says
 * whether one may be used now; `onHeld` hears of every newly held element (to draw a placeholder).
 */
export function hold(purposesOf: (url: string) => string[], allowed: (purpose: string) => boolean, onHeld: (held: Held) => void): Holder {
  const heldBy = new Map<Watched, Held>();
  const proto = Element.prototype;
  const setAttribute = proto.setAttribute;
  const removeAttribute = proto.removeAttribute;
  const blocks = (purposes: string[]) => purposes.length > 0 && !purposes.every(allowed);
  // The browser's own `src` of each element type: what a released element is given.
  const srcOf = new Map(classes.map((kind) => [kind, Object.getOwnPropertyDescriptor(kind.prototype, "src")!]));
  const setSrc = (element: Watched, url: string) => srcOf.get(classes.find((kind) => element instanceof kind)!)!.set!.call(element, url);

  /** Keeps `url` aside for `element` when its host is listed and not yet allowed; true when held. */
  const keep = (element: Watched, url: string, parsed?: boolean): boolean => {
    const purposes = purposesOf(url);
    if (!blocks(purposes)) {
      heldBy.delete(element);
      return false;
    }
    const known = heldBy.get(element);
    const held: Held = { element, url, purposes };
    if (parsed && element instanceof HTMLScriptElement) {
      held.parsed = { type: element.getAttribute("type") };
      element.type = "javascript/blocked";
    } else if (element.hasAttribute("src")) {
      removeAttribute.call(element, "src");
      // A frame already in the page has started to navigate: this stops it.
      if (element instanceof HTMLIFrameElement && element.isConnected) setSrc(element, "about:blank");
    }
    if (known) Object.assign(known, { url, purposes });
    else {
      heldBy.set(element, held);
      onHeld(held);
    }
    return true;
  };

  for (const [kind, descriptor] of srcOf) {
    Object.defineProperty(kind.prototype, "src", {
      ...descriptor,
      get(this: Watched) {
        return heldBy.get(this)?.url ?? descriptor.get!.call(this);
      },
      set(this: Watched, value: string) {
        if (!keep(this, String(value))) descriptor.set!.call(this, value);
      },
    });
  }
  proto.setAttribute = function (this: Element, name: string, value: string) {
    if (name.toLowerCase() === "src" && isWatched(this) && keep(this, String(value))) return;
    setAttribute.call(this, name, value);
  };

  /** Takes an element the edge held as held here; one no longer to be held goes at once. */
  const adopt = (element: Watched) => {
    const url = element.getAttribute("src") ?? element.dataset.src!;
    for (const name of ["data-assent-held", "data-src"]) removeAttribute.call(element, name);
    const held: Held = { element, url, purposes: purposesOf(url) };
    // A script the edge made `text/plain`: it runs as a fresh copy, of the classic type it had.
    if (element instanceof HTMLScriptElement) held.parsed = { type: null };
    heldBy.set(element, held);
    if (blocks(held.purposes)) onHeld(held);
    else letGo([held]);
  };

  /** Holds listed elements in `node` (itself and below) that carry a `src` attribute already. */
  const scan = (node: unknown, parsed?: boolean) => {
    if (!(node instanceof Element)) return;
    for (const element of [node, ...node.querySelectorAll(selector)]) {
      if (!isWatched(element) || heldBy.has(element)) continue;
      if (element.hasAttribute("data-assent-held")) adopt(element);
      else if (element.hasAttribute("src")) keep(element, element.getAttribute("src")!, parsed);
    }
  };
  const insertions = [
    [Node.prototype, ["appendChild", "insertBefore", "replaceChild"]],
    [proto, ["append", "prepend", "before", "after", "replaceWith"]],
  ] as const;
  for (const [target, names] of insertions) {
    for (const name of names) {
      const original = (target as unknown as Record<string, (...args: unknown[]) => unknown>)[name];
      (target as unknown as Record<string, unknown>)[name] = function (this: unknown, ...args: unknown[]) {
        // replaceChild's second argument is the node leaving the page.
        for (const node of name === "replaceChild" ? args.slice(0, 1) : args) scan(node);
        return original.apply(this, args);
      };
    }
  }

  new MutationObserver((records) => {
    for (const record of records) for (const node of record.addedNodes) scan(node, document.readyState === "loading");
  }).observe(document.documentElement, { childList: true, subtree: true });

  /** Gives each of `released` what was kept from it, in order. */
  function letGo(released: Held[]) {
    for (const { element, url, parsed } of released) {
      heldBy.delete(element);
      if (!parsed) {
        setSrc(element, url);
        continue;
      }
      // A fresh copy, with the attributes, nonce and place of the one the parser spent; not async unless it was,
      // so released scripts run in the order the page wrote them.
      const script = document.createElement("script");
      for (const { name, value } of element.attributes) if (name !== "type") setAttribute.call(script, name, value);
      if (parsed.type !== null) script.type = parsed.type;
      script.nonce = element.nonce;
      script.async = element.hasAttribute("async");
      script.text = (element as HTMLScriptElement).text;
      element.replaceWith(script);
    }
  }

  return {
    release(only) {
      const released = (only ? [only] : [...heldBy.values()].filter((held) => held.purposes.every(allowed))).filter((held) => heldBy.has(held.element));
      letGo(released);
      return released.map((held) => held.element);
    },
  };
}
