/**
 * Holding back `<script src>`, `<iframe src>`, `<img src>` and resource hints (`<link href>`) from listed hosts,
 * however they reach the page:
 * - written in the HTML: a MutationObserver sees them as the parser inserts them, before a script runs (the yett
 *   technique: its type becomes `javascript/blocked`; a frame or image loses its `src`);
 * - created by script: the `src` property and `setAttribute('src')` of the three element types keep a listed URL
 *   aside instead of setting it, and inserting a node (`appendChild`, `insertBefore`, `append`, `prepend`, `before`,
 *   `after`, `replaceWith`) first holds what it carries that came with a `src` from a parser (cloneNode, DOMParser).
 * - HTML strings (`innerHTML`, `outerHTML`, `insertAdjacentHTML`, `setHTMLUnsafe`, `createContextualFragment`,
 *   `document.write`): held in the string itself, before the browser parses it (see `defuse`), so no element of
 *   it ever has a listed `src`, attached or not, with no race against the browser's loading.
 * - held already at the edge (@assent/edge): `data-assent-held` marks a script turned `text/plain` or a frame or image
 *   whose `src` became `data-src`; they are taken as held (released at once when allowed). `defuse` writes that form.
 * Released elements keep their order: held ones are released in the order they were met. Same-origin frames the page
 * creates get the same holding in their own window as they are inserted.
 */
export type Watched = HTMLScriptElement | HTMLIFrameElement | HTMLImageElement | HTMLLinkElement;

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

/** Hints that fetch or connect ahead: held like what they point at. */
const hints = /^(preload|prefetch|modulepreload|preconnect|dns-prefetch)$/i;
const selector = "script[src],iframe[src],img[src],link[href],[data-assent-held]";
/** A start tag of the three element types, attribute values quoted or not (a `>` inside quotes stays in the tag). */
const tags = /<(script|img|iframe)\b(?:[^>"']|"[^"]*"|'[^']*')*>/gi;
const srcAttribute = /(\s)src(\s*=\s*)("[^"]*"|'[^']*'|[^\s>]+)/i;

/**
 * Starts holding in `win` (this window, or a same-origin frame's). `purposesOf(url)` names the purposes a URL maps to
 * (none: not listed); `allowed` says whether one may be used now; `onHeld` hears of every newly held element (to draw
 * a placeholder).
 */
export function hold(
  purposesOf: (url: string) => string[],
  allowed: (purpose: string) => boolean,
  onHeld: (held: Held) => void,
  win: Window & typeof globalThis = window,
): Holder {
  const { Element, Node, Document, Range, ShadowRoot, HTMLScriptElement, HTMLIFrameElement, HTMLImageElement, HTMLLinkElement, MutationObserver } = win;
  const doc = win.document;
  const classes = [HTMLScriptElement, HTMLIFrameElement, HTMLImageElement];
  const isWatched = (node: unknown): node is Watched => node instanceof HTMLLinkElement || classes.some((kind) => node instanceof kind);
  const heldBy = new Map<Watched, Held>();
  /** Scripts an HTML string made: a browser never runs them, so they are neither held nor released. */
  const inert = new WeakSet<Node>();
  const frames: Holder[] = [];
  /** Held while out of the page: `onHeld` hears of them once they are inserted (a placeholder needs a place). */
  const unplaced = new WeakSet<Watched>();
  const proto = Element.prototype;
  const setAttribute = proto.setAttribute;
  const removeAttribute = proto.removeAttribute;
  const heard = (held: Held) => (held.element.isConnected ? onHeld(held) : unplaced.add(held.element));
  const blocks = (purposes: string[]) => purposes.length > 0 && !purposes.every(allowed);
  // The browser's own `src` of each element type: what a released element is given.
  const srcOf = new Map(classes.map((kind) => [kind, Object.getOwnPropertyDescriptor(kind.prototype, "src")!]));
  const setUrl = (element: Watched, url: string) =>
    element instanceof HTMLLinkElement
      ? setAttribute.call(element, "href", url)
      : srcOf.get(classes.find((kind) => element instanceof kind)!)!.set!.call(element, url);

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
    } else if (element instanceof HTMLLinkElement) removeAttribute.call(element, "href");
    else if (element.hasAttribute("src")) {
      removeAttribute.call(element, "src");
      // A frame already in the page has started to navigate: this stops it.
      if (element instanceof HTMLIFrameElement && element.isConnected) setUrl(element, "about:blank");
    }
    if (known) Object.assign(known, { url, purposes });
    else {
      heldBy.set(element, held);
      heard(held);
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
    if (name.toLowerCase() === "src" && isWatched(this) && !(this instanceof HTMLLinkElement) && keep(this, String(value))) return;
    setAttribute.call(this, name, value);
  };

  /** Takes an element held in its markup (by the edge, or by `defuse`) as held here; one no longer to be held goes at once. */
  const adopt = (element: Watched) => {
    const url = element.getAttribute("src") ?? element.dataset.src!;
    for (const name of ["data-assent-held", "data-src"]) removeAttribute.call(element, name);
    const held: Held = { element, url, purposes: purposesOf(url) };
    // A script made `text/plain`: it runs as a fresh copy, of the classic type it had.
    if (element instanceof HTMLScriptElement) held.parsed = { type: null };
    heldBy.set(element, held);
    if (blocks(held.purposes)) heard(held);
    else letGo([held]);
  };

  /** Holds listed elements in `node` (itself and below) that carry a URL already; `fromString`: its scripts are inert. */
  const scan = (node: unknown, parsed?: boolean, fromString?: boolean) => {
    if (!(node instanceof Element)) return;
    for (const element of [node, ...node.querySelectorAll(selector)]) {
      if (!isWatched(element) || heldBy.has(element) || inert.has(element)) continue;
      if (element.hasAttribute("data-assent-held")) adopt(element);
      else if (element instanceof HTMLLinkElement) {
        if (hints.test(element.rel)) keep(element, element.href);
      } else if (fromString && element instanceof HTMLScriptElement) inert.add(element);
      else if (element.hasAttribute("src")) keep(element, element.getAttribute("src")!, parsed);
    }
  };

  /** Once `node` is in the page: placeholders for what was held out of it, and same-origin frames reached. */
  const placed = (node: unknown) => {
    if (!(node instanceof Element) || !node.isConnected) return;
    for (const element of [node, ...node.querySelectorAll(selector)] as Watched[]) {
      if (unplaced.has(element)) {
        unplaced.delete(element);
        onHeld(heldBy.get(element)!);
      }
      // A frame's window exists once it is in the page.
      if (element instanceof HTMLIFrameElement) reach(element);
    }
  };

  const reach = (frame: HTMLIFrameElement) => {
    if (heldBy.has(frame)) return;
    try {
      const inner = frame.contentWindow as (Window & typeof globalThis) | null;
      if (inner && !(inner as { __assentHeld?: 1 }).__assentHeld) {
        (inner as { __assentHeld?: 1 }).__assentHeld = 1;
        frames.push(hold(purposesOf, allowed, onHeld, inner));
      }
    } catch {
      // Another origin's frame: its page is its own (docs/blocking.md).
    }
  };

  /**
   * An HTML string with each listed `src` of a script, frame or image turned into the held form the edge writes:
   * frames and images get `data-src` instead of `src`; a script (only `write`: a script in any other string never
   * runs) gets `type="text/plain"` before its own (the first of two attributes wins).
   */
  const defuse = (html: string, write?: boolean) =>
    String(html).replace(tags, (tag, name: string) => {
      const src = srcAttribute.exec(tag);
      const url = src?.[3].replace(/^["']|["']$/g, "").replace(/&amp;/g, "&");
      if (!url || !blocks(purposesOf(url))) return tag;
      if (name.toLowerCase() !== "script") return tag.replace(srcAttribute, "$1data-assent-held$1data-src$2$3");
      return write ? `<${name} type="text/plain" data-assent-held${tag.slice(name.length + 1)}` : tag;
    });

  const observer = new MutationObserver((records) => take(records));
  const take = (records: MutationRecord[], fromString?: boolean) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        scan(node, doc.readyState === "loading", fromString);
        placed(node);
      }
    }
  };

  /** Wraps `name` of `target` so that its HTML string argument (at `index`) is defused, and what it made is taken. */
  const strings = (target: object | undefined, name: string, index: number, write?: boolean) => {
    const descriptor = target && Object.getOwnPropertyDescriptor(target, name);
    if (!descriptor) return;
    const wrap = (original: (...args: unknown[]) => unknown) =>
      function (this: Node, ...args: unknown[]) {
        take(observer.takeRecords());
        args[index] = defuse(args[index] as string, write);
        const result = original.apply(this, args);
        // Scripts made from the string never run (but those document.write makes); what it made outside the
        // observed page (a detached element, a fragment) is taken when it is inserted.
        take(observer.takeRecords(), !write);
        return result;
      };
    Object.defineProperty(target, name, descriptor.set ? { ...descriptor, set: wrap(descriptor.set) } : { ...descriptor, value: wrap(descriptor.value) });
  };
  for (const target of [proto, ShadowRoot?.prototype]) {
    strings(target, "innerHTML", 0);
    strings(target, "setHTMLUnsafe", 0);
  }
  strings(proto, "outerHTML", 0);
  strings(proto, "insertAdjacentHTML", 1);
  strings(Range.prototype, "createContextualFragment", 0);
  strings(Document.prototype, "write", 0, true);
  strings(Document.prototype, "writeln", 0, true);

  const insertions = [
    [Node.prototype, ["appendChild", "insertBefore", "replaceChild"]],
    [proto, ["append", "prepend", "before", "after", "replaceWith", "replaceChildren", "insertAdjacentElement"]],
    [Range.prototype, ["insertNode"]],
  ] as const;
  for (const [target, names] of insertions) {
    for (const name of names) {
      const original = (target as unknown as Record<string, (...args: unknown[]) => unknown>)[name];
      (target as unknown as Record<string, unknown>)[name] = function (this: unknown, ...args: unknown[]) {
        // replaceChild's second argument is the node leaving the page.
        const inserted = name === "replaceChild" ? args.slice(0, 1) : args;
        for (const node of inserted) scan(node);
        const result = original.apply(this, args);
        for (const node of inserted) placed(node);
        return result;
      };
    }
  }

  observer.observe(doc, { childList: true, subtree: true });

  /** Gives each of `released` what was kept from it, in order. */
  function letGo(released: Held[]) {
    for (const { element, url, parsed } of released) {
      heldBy.delete(element);
      unplaced.delete(element);
      if (!parsed) {
        setUrl(element, url);
        continue;
      }
      // A fresh copy, with the attributes, nonce and place of the one the parser spent; not async unless it was,
      // so released scripts run in the order the page wrote them.
      const script = doc.createElement("script");
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
      // What same-origin frames hold goes with it (`only` may be one of theirs).
      return [...released.map((held) => held.element), ...frames.flatMap((frame) => frame.release(only))];
    },
  };
}
