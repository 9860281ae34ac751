/**
 * A local stand-in for Google Tag Manager's sandboxed JavaScript: runs a web template's code with the APIs it
 * `require`s, each checking the grant Tag Manager checks (WEB_PERMISSIONS) and the argument shapes Google
 * documents (developers.google.com/tag-platform/tag-manager/templates/api), against a page: a global object and a
 * script loader. Values cross between sandbox and page as copies (functions wrapped), as Tag Manager converts them.
 * Only the APIs the Assent template uses are implemented; requiring any other name fails.
 */
import type { Permissions } from "./template-file";

/**
 * Tag Manager's consent types (shared/consent-mode/types.ts has the same list; test/integrations checks they agree).
 * Written out here because this file also runs in the page on its own, transpiled, where there is no `require`.
 */
export const consentTypes = [
  "ad_storage",
  "ad_user_data",
  "ad_personalization",
  "analytics_storage",
  "functionality_storage",
  "personalization_storage",
  "security_storage",
] as const;


type ConsentValue = "granted" | "denied";
export type ConsentSettings = Partial<Record<string, ConsentValue>> & { region?: string[]; wait_for_update?: number };

export type Page = {
  /** The page's global object, as `callInWindow`, `copyFromWindow` and `createQueue` reach it. */
  window: Record<string, unknown>;
  /** Adds a script element for `url`; calls back once it ran or failed, as a browser does. */
  loadScript(url: string, onLoad: () => void, onError: () => void): void;
  /** Tag Manager's preview mode: `logging` granted for "debug" only logs there. */
  debug?: boolean;
};

export type Run = {
  calls: { api: string; args: unknown[] }[];
  defaults: ConsentSettings[];
  updates: ConsentSettings[];
  gtagSets: Record<string, unknown>[];
  injected: string[];
  logs: unknown[][];
  /** How the tag ended: `data.gtmOnSuccess()` or `data.gtmOnFailure()`; Tag Manager allows one of them, once. */
  outcome?: "success" | "failure";
  /** The state Google tags in a place would apply now: the most specific default, then every update. */
  consentIn(place: string): Partial<Record<string, ConsentValue>>;
};

export class PermissionDenied extends Error {}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** What crosses the boundary: primitives, arrays and plain objects copied, functions wrapped, anything else undefined. */
function copy(value: unknown, wrap: (fn: (...args: unknown[]) => unknown) => unknown): unknown {
  if (value === null || ["string", "number", "boolean", "undefined"].includes(typeof value)) return value;
  if (typeof value === "function") return wrap(value as (...args: unknown[]) => unknown);
  if (Array.isArray(value)) return value.map((item) => copy(item, wrap));
  if (isObject(value) && [Object.prototype, null].includes(Object.getPrototypeOf(value))) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, copy(item, wrap)]));
  }
  return undefined;
}
const toPage = (value: unknown): unknown => copy(value, (fn) => (...args: unknown[]) => toSandbox(fn(...args.map(toSandbox))));
const toSandbox = (value: unknown): unknown => copy(value, (fn) => (...args: unknown[]) => toSandbox(fn(...args.map(toPage))));

/**
 * A URL match pattern of `inject_script`: https only; an exact host, `*.` and a domain, or `*` for any host (as
 * gallery templates loading from their customers' own domains use it); `*` anywhere in the path.
 * `loopback` also lets a pattern for http://localhost or http://127.0.0.1 through: the browser test's own service,
 * which Tag Manager would never be asked to load.
 */
export function urlMatches(pattern: string, url: string, loopback = false): boolean {
  const [, scheme, host, path] = /^(https?):\/\/([^/]+)(\/.*)$/.exec(pattern) ?? [];
  const local = loopback && /^(localhost|127\.0\.0\.1)(:\d+)?$/.test(host ?? "");
  if (!host || (scheme !== "https" && !local)) throw new Error(`"${pattern}" is not an https URL pattern.`);
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return false;
  }
  if (target.protocol !== `${scheme}:`) return false;
  const hostOk = host === "*" || (host.startsWith("*.") ? target.host === host.slice(2) || target.host.endsWith(host.slice(1)) : target.host === host);
  const glob = new RegExp(`^${path.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`);
  return hostOk && glob.test(target.pathname + target.search);
}

const regionCode = /^[A-Z]{2}(-[A-Z0-9]{1,3})?$/;

/** Checks a consent command as Google documents it: consent types valued granted or denied, `region` and `wait_for_update` on defaults only. */
function checkConsentSettings(api: string, settings: unknown, isDefault: boolean): asserts settings is ConsentSettings {
  if (!isObject(settings)) throw new TypeError(`${api} takes an object.`);
  for (const [key, value] of Object.entries(settings)) {
    if (isDefault && key === "region") {
      if (!Array.isArray(value) || !value.length || !value.every((code) => typeof code === "string" && regionCode.test(code))) {
        throw new TypeError(`${api}: region must be a non-empty array of ISO 3166-2 codes, not ${JSON.stringify(value)}.`);
      }
    } else if (isDefault && key === "wait_for_update") {
      if (typeof value !== "number" || !Number.isFinite(value) || value < 0) throw new TypeError(`${api}: wait_for_update must be milliseconds, not ${JSON.stringify(value)}.`);
    } else if (!(consentTypes as readonly string[]).includes(key)) {
      throw new TypeError(`${api}: ${key} is not a consent type.`);
    } else if (value !== "granted" && value !== "denied") {
      throw new TypeError(`${api}: ${key} is ${JSON.stringify(value)}, neither "granted" nor "denied".`);
    }
  }
}

/** The grants of one template, asked as Tag Manager asks them. */
export function grants(permissions: Permissions, extraScriptUrls: string[] = []) {
  const globals = (permissions.access_globals?.keys ?? []) as { key: string; read: boolean; write: boolean; execute: boolean }[];
  const consent = (permissions.access_consent?.consentTypes ?? []) as { consentType: string; read: boolean; write: boolean }[];
  const scripts = (permissions.inject_script?.urls ?? []) as string[];
  const dataLayerKeys = (permissions.write_data_layer?.keyPatterns ?? []) as string[];
  const keyGlob = (pattern: string) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`);
  return {
    global: (key: string, access: "read" | "write" | "execute" | "readwrite") =>
      globals.some((g) => g.key === key && (access === "readwrite" ? g.read && g.write : g[access])),
    consent: (type: string, access: "read" | "write") => consent.some((c) => c.consentType === type && c[access]),
    script: (url: string) => scripts.some((pattern) => urlMatches(pattern, url)) || extraScriptUrls.some((pattern) => urlMatches(pattern, url, true)),
    dataLayer: (key: string) => dataLayerKeys.some((pattern) => keyGlob(pattern).test(key)),
    logging: (debug: boolean) => {
      const environments = permissions.logging?.environments;
      return environments === "all" || (environments === "debug" && debug);
    },
    declared: (permission: string) => permission in permissions,
  };
}

/** The keys gtagSet writes: every leaf of a plain object, dotted. */
const flatKeys = (value: Record<string, unknown>, prefix = ""): string[] =>
  Object.entries(value).flatMap(([key, item]) => (isObject(item) ? flatKeys(item, `${prefix}${key}.`) : [`${prefix}${key}`]));

/** Which of the page's globals a path names, and its parent (the `this` of a call). */
function resolve(root: Record<string, unknown>, path: string): [unknown, unknown] {
  let parent: unknown;
  let value: unknown = root;
  for (const part of path.split(".")) {
    parent = value;
    value = isObject(parent) || typeof parent === "function" ? (parent as Record<string, unknown>)[part] : undefined;
  }
  return [value, parent];
}

/**
 * Syntax the sandbox does not have: it runs a subset of ES5 with const, let and arrow functions, without `new`,
 * `this`, classes, for…in, regular expression literals or template literals, and without the browser's globals.
 */
const unsupported: [RegExp, string][] = [
  [/\bnew\s/, "new"],
  [/\bthis\b/, "this"],
  [/\bclass\s/, "class"],
  [/\bfor\s*\([^)]*\s(in|of)\s/, "for…in / for…of"],
  [/`/, "template literals"],
  [/(^|[=(,:;!&|?{}]\s*)\/[^/*]/m, "regular expression literals"],
  [/\b(async|await|import|export|yield)\b/, "modules and async functions"],
  [/\b(window|document|globalThis|self|localStorage|navigator|location)\b/, "the browser's globals"],
];

export function unsupportedSyntax(code: string): string[] {
  const bare = code.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "").replace(/'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"/g, "''");
  return unsupported.filter(([pattern]) => pattern.test(bare)).map(([, name]) => name);
}

/** Globals a browser or Node would have that the sandbox does not: shadowed while the code runs. */
const shadowed = ["window", "document", "globalThis", "self", "JSON", "Math", "Date", "Object", "Array", "String", "Number", "Promise", "RegExp", "Function", "console", "setTimeout", "setInterval", "fetch", "XMLHttpRequest", "Symbol", "Reflect", "Proxy", "process"];

export type RunOptions = {
  page: Page;
  /** Replaces APIs by name, as a TESTS scenario's `mock(name, fn)` does. */
  mocks?: Record<string, (...args: unknown[]) => unknown>;
  /** URL patterns added to the `inject_script` grant, as a site owner does for their own service's origin. */
  extraScriptUrls?: string[];
};

export function runTemplate(code: string, permissions: Permissions, fields: Record<string, unknown>, options: RunOptions): Run {
  const problems = unsupportedSyntax(code);
  if (problems.length) throw new SyntaxError(`The sandbox does not support ${problems.join(", ")}.`);
  const { page, mocks = {} } = options;
  const allowed = grants(permissions, options.extraScriptUrls);
  const deny = (what: string) => {
    throw new PermissionDenied(`Permission denied: ${what}`);
  };
  const run: Run = {
    calls: [],
    defaults: [],
    updates: [],
    gtagSets: [],
    injected: [],
    logs: [],
    consentIn(place) {
      const [country] = place.split("-");
      const scope = (entry: ConsentSettings) => (!entry.region ? 0 : entry.region.includes(place) ? 2 : entry.region.includes(country) ? 1 : -1);
      const state: Partial<Record<string, ConsentValue>> = {};
      for (const type of consentTypes) {
        const best = run.defaults.filter((entry) => entry[type] && scope(entry) >= 0).sort((a, b) => scope(b) - scope(a))[0];
        if (best) state[type] = best[type];
      }
      for (const entry of run.updates) Object.assign(state, entry);
      return state;
    },
  };
  const apis: Record<string, (...args: unknown[]) => unknown> = {
    setDefaultConsentState(settings) {
      checkConsentSettings("setDefaultConsentState", settings, true);
      for (const type of Object.keys(settings)) if (type !== "region" && type !== "wait_for_update" && !allowed.consent(type, "write")) deny(`access_consent write ${type}`);
      run.defaults.push(structuredClone(settings));
    },
    updateConsentState(settings) {
      checkConsentSettings("updateConsentState", settings, false);
      for (const type of Object.keys(settings)) if (!allowed.consent(type, "write")) deny(`access_consent write ${type}`);
      run.updates.push(structuredClone(settings));
    },
    gtagSet(keyOrObject, value) {
      const entry = isObject(keyOrObject) ? keyOrObject : typeof keyOrObject === "string" ? { [keyOrObject]: value } : undefined;
      if (!entry) throw new TypeError("gtagSet takes an object, or a key and a value.");
      for (const key of isObject(keyOrObject) ? flatKeys(entry) : [keyOrObject as string]) if (!allowed.dataLayer(key)) deny(`write_data_layer ${key}`);
      run.gtagSets.push(structuredClone(entry));
    },
    injectScript(url, onSuccess, onFailure) {
      if (typeof url !== "string" || !allowed.script(url)) deny(`inject_script ${String(url)}`);
      run.injected.push(url as string);
      page.loadScript(url as string, () => (onSuccess as () => void)?.(), () => (onFailure as () => void)?.());
    },
    callInWindow(path, ...args) {
      if (typeof path !== "string" || !allowed.global(path, "execute")) deny(`access_globals execute ${String(path)}`);
      const [fn, parent] = resolve(page.window, path as string);
      return typeof fn === "function" ? toSandbox(fn.apply(parent, args.map(toPage))) : undefined;
    },
    copyFromWindow(key) {
      if (typeof key !== "string" || !allowed.global(key, "read")) deny(`access_globals read ${String(key)}`);
      return toSandbox(resolve(page.window, key as string)[0]);
    },
    createQueue(key) {
      if (typeof key !== "string" || !allowed.global(key, "readwrite")) deny(`access_globals readwrite ${String(key)}`);
      const existing = resolve(page.window, key as string)[0];
      const queue = Array.isArray(existing) ? existing : (page.window[key as string] = []);
      return (...items: unknown[]) => (queue as unknown[]).push(...items.map(toPage));
    },
    logToConsole(...args) {
      if (!allowed.declared("logging")) deny("logging");
      if (allowed.logging(!!page.debug)) run.logs.push(args);
    },
    queryPermission(permission, ...args) {
      if (permission === "inject_script") return allowed.script(String(args[0]));
      if (permission === "access_globals") return allowed.global(String(args[1]), args[0] as "read");
      if (permission === "access_consent") return allowed.consent(String(args[0]), args[1] as "write");
      if (permission === "write_data_layer") return allowed.dataLayer(String(args[0]));
      if (permission === "logging") return allowed.declared("logging");
      throw new Error(`queryPermission('${String(permission)}') is not in this shim.`);
    },
    encodeUriComponent: (value) => encodeURIComponent(String(value)),
    makeString: (value) => String(value),
    makeNumber: (value) => Number(value),
    getType: (value) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value),
    JSON: { parse: (text: string) => JSON.parse(text), stringify: (value: unknown) => JSON.stringify(value) } as never,
  };
  const require = (name: string) => {
    const api = apis[name];
    if (!api) throw new Error(`require('${name}'): no such API in this shim (the template uses only those it implements).`);
    const implementation = mocks[name] ?? api;
    if (typeof implementation !== "function") return implementation;
    return (...args: unknown[]) => {
      run.calls.push({ api: name, args: structuredClone(args.map((a) => (typeof a === "function" ? "[function]" : a))) });
      return implementation(...args);
    };
  };
  const end = (outcome: "success" | "failure") => () => {
    if (run.outcome) throw new Error(`data.gtmOn${outcome === "success" ? "Success" : "Failure"}() after the tag already ended (${run.outcome}).`);
    run.outcome = outcome;
  };
  const data = { ...fields, gtmOnSuccess: end("success"), gtmOnFailure: end("failure") };
  // The template's code is a function body (it may `return` early, and declare names the shadowing parameters hold).
  new Function("require", "data", ...shadowed, `(function () {\n${code}\n})();`)(require, data);
  return run;
}
