// Scripts that run inside the scanned pages, as source text: the Worker's type-check has no DOM, and the browser
// only ever receives them as strings anyway.

/**
 * Installed before any page script, in every frame: records which script wrote each cookie and storage key (the
 * first page or script URL on the call stack) and each cookie as written (a third-party frame's write the scan's
 * browser drops is rebuilt from it), counts the widget's signals (`assent-ready`, `assent-change`), and
 * neutralises hostile pages' popups and dialogs, counting them so a storm is reported rather than suffered.
 */
export const recorderScript = `(() => {
  if (window.__assentScan) return;
  const scan = { writes: [], cookies: [], ready: 0, decisions: 0, popups: 0, dialogs: 0 };
  Object.defineProperty(window, "__assentScan", { value: scan });
  const caller = () => {
    const frames = (new Error().stack || "").match(/(?:https?|file):\\/\\/[^\\s()]+?(?=:\\d+:\\d+)/g);
    return frames ? frames[0] : null;
  };
  const record = (area, name) => { if (scan.writes.length < 5000) scan.writes.push([area, String(name), caller()]); };
  const cookie = Object.getOwnPropertyDescriptor(Document.prototype, "cookie");
  Object.defineProperty(Document.prototype, "cookie", {
    configurable: true,
    get() { return cookie.get.call(this); },
    set(value) {
      record("cookie", String(value).split(";")[0].split("=")[0].trim());
      if (scan.cookies.length < 500) scan.cookies.push([String(value).slice(0, 4096), caller()]);
      cookie.set.call(this, value);
    },
  });
  const setItem = Storage.prototype.setItem;
  Storage.prototype.setItem = function (key, value) {
    record(this === window.sessionStorage ? "sessionStorage" : "localStorage", key);
    return setItem.call(this, key, value);
  };
  const open = IDBFactory.prototype.open;
  IDBFactory.prototype.open = function (name, version) { record("indexedDB", name); return open.apply(this, arguments); };
  document.addEventListener("assent-ready", () => { scan.ready++; });
  document.addEventListener("assent-change", () => { scan.decisions++; });
  window.open = () => { scan.popups++; return null; };
  for (const name of ["alert", "confirm", "prompt", "print"]) window[name] = () => { scan.dialogs++; return null; };
})()`;

export type Recorded = {
  writes: [area: string, name: string, caller: string | null][];
  /** Each \`document.cookie\` write as written, with its caller. */
  cookies: [written: string, caller: string | null][];
  decisions: number;
  popups: number;
  dialogs: number;
};
export const readRecorder = `(() => { const s = window.__assentScan; return s ? { writes: s.writes, cookies: s.cookies, decisions: s.decisions, popups: s.popups, dialogs: s.dialogs } : null; })()`;

/** Storage keys of the frame's origin; indexedDB.databases() is missing in some browsers (then only recorded opens). */
export const readStorage = `(async () => {
  const keys = (area) => { try { return Object.keys(window[area]); } catch { return []; } };
  let databases = [];
  try { databases = (await indexedDB.databases()).map((d) => d.name).filter(Boolean); } catch {}
  return { origin: location.origin, localStorage: keys("localStorage"), sessionStorage: keys("sessionStorage"), indexedDB: databases };
})()`;
export type FrameStorage = { origin: string; localStorage: string[]; sessionStorage: string[]; indexedDB: string[] };

/**
 * Scripts and iframes with a source (gated ones by `data-src`), same-origin links, and the Assent service the page
 * talks to: the widget's `api` attribute, else the origin its script came from.
 */
export const readPage = `(() => {
  const abs = (value) => { try { return new URL(value, location.href).href; } catch { return null; } };
  const elements = [];
  for (const e of document.querySelectorAll("script[src], iframe[src], iframe[data-src]")) {
    const src = abs(e.getAttribute("src") || e.getAttribute("data-src"));
    if (src && /^https?:/.test(src)) elements.push({ kind: e.tagName === "SCRIPT" ? "script" : "iframe", src, gatedBy: e.getAttribute("data-assent-purpose") });
  }
  const links = [...document.querySelectorAll("a[href]")].map((a) => abs(a.getAttribute("href"))).filter(Boolean);
  const widget = document.querySelector("assent-consent");
  const widgetScript = [...document.scripts].find((s) => /\\/widget\\/assent(\\.classic)?\\.js/.test(s.src));
  const assent = widget ? abs(widget.getAttribute("api") || (widgetScript ? new URL(widgetScript.src).origin : "")) : null;
  return { elements, links, assent, height: document.documentElement.scrollHeight };
})()`;
export type PageFacts = { elements: { kind: "script" | "iframe"; src: string; gatedBy: string | null }[]; links: string[]; assent: string | null; height: number };

export const scrollToBottom = `(() => { window.scrollTo(0, document.documentElement.scrollHeight); return document.documentElement.scrollHeight; })()`;
