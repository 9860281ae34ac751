/**
 * The page's `__gpp` (IAB GPP CMP API v1.1), loaded only where the bootstrap names GPP sections (a US visitor under an
 * opt-out regime): ping, addEventListener, removeEventListener, hasSection, getSection and getField over the
 * sections the bootstrap named, derived from the controller's decision. It takes over the IAB stub's queue and
 * listeners if the page has the stub, and otherwise adds the `__gppLocator` frame and answers `__gppCall` messages
 * from frames itself. The answers' shapes follow IAB's @iabgpp/cmpapi (the tests' oracle).
 */
import type { ConsentController } from "../controller";
import { gppString } from "./encoding";
import { sectionValues } from "./fields";
import { gppSections, type GppSectionName } from "./sections";
import type { Bootstrap, Purpose } from "../../../shared/browser/types";

type Callback = (data: unknown, success: boolean) => void;
type Listener = { id: number; callback: Callback; parameter?: unknown };
type Gpp = (command?: string, callback?: Callback, parameter?: unknown, version?: string) => unknown;
type Parsed = Record<string, Record<string, unknown>>;

const page = window as unknown as { __gpp?: Gpp };

/** Where the state stands; the listeners and the page's calls read it. */
let sections: GppSectionName[] = [];
let mspa: Bootstrap["gppMspa"];
let flow: ConsentController;
const listeners = new Map<number, Listener>();
let nextListener = 1000;
let parsed: Parsed = {};
let sectionStrings: Record<string, string> = {};
let string = "";
/** What listeners were last told (CMP API 1.1, PingReturn): the page's layers, and whether the string may be used. */
let display = "hidden";
let signal: "ready" | "not ready" = "not ready";
/** A decision taken in the first layer is under way: from the save until the layer closes (or the save failed). */
let deciding = false;

const displayStatus = () => (flow.shown.banner === "ask" || flow.shown.open ? "visible" : "hidden");

function pingData() {
  const ids = sections.map((name) => gppSections[name].id);
  return {
    gppVersion: "1.1",
    cmpStatus: "loaded",
    cmpDisplayStatus: display,
    signalStatus: signal,
    supportedAPIs: sections.map((name) => `${gppSections[name].id}:${name}`),
    // No IAB-registered CMP id (docs/gpp.md).
    cmpId: 0,
    sectionList: ids,
    // The state's own section where there is one, else the US National section (docs/gpp.md).
    applicableSections: ids.slice(-1),
    gppString: string,
    parsedSections: parsed,
  };
}

const eventData = (eventName: string, listenerId: number, data: unknown) => ({ eventName, listenerId, data, pingData: pingData() });

function fire(eventName: string, data: unknown) {
  for (const { id, callback } of listeners.values()) callback(eventData(eventName, id, data), true);
}

function setSignal(status: typeof signal) {
  signal = status;
  fire("signalStatus", status);
}

/** Every section's string and parsed fields from the decision as it stands. */
function sectionsNow() {
  const decision = {
    purposes: flow.shown.config?.purposes ?? [],
    allowed: (purpose: Purpose) => flow.hasConsent(purpose.referenceId),
    gpc: flow.gpc,
    prescribed: flow.prescribed,
    mspa,
  };
  const bySection = Object.fromEntries(sections.map((name) => [name, sectionValues(name, decision)]));
  const all = gppString(bySection);
  const parts = all.split("~").slice(1);
  return {
    all,
    strings: Object.fromEntries(sections.map((name, i) => [name, parts[i]])),
    parsed: Object.fromEntries(
      sections.map((name) => [
        name,
        {
          Version: gppSections[name].version,
          ...Object.fromEntries(gppSections[name].fields.map(([field, , count]) => [field, bySection[name][field] ?? (count ? Array(count).fill(0) : 0)])),
          ...(gppSections[name].gpc ? { GpcSegmentType: 1, Gpc: bySection[name].Gpc } : {}),
        },
      ]),
    ),
  };
}

function take(next: ReturnType<typeof sectionsNow>) {
  string = next.all;
  sectionStrings = next.strings;
  parsed = next.parsed;
}

/**
 * Brings listeners in line with the page, in the order the CMP API 1.1 asks ("addEventListener", after the events'
 * table): `signalStatus` "not ready" first whenever the visitor is choosing (the preferences are open, or a decision
 * is on its way) or a section is about to change; then the display; then each section that changed; and "ready"
 * last, once the layers are closed and the sections hold the decision. While not ready the sections keep the last
 * string that was ready.
 */
function sync() {
  const { open, busy, banner, failed } = flow.shown;
  deciding = busy || (deciding && banner === "ask" && !failed);
  const holding = open || deciding;
  const next = holding ? undefined : sectionsNow();
  const changed = next ? sections.filter((name) => next.strings[name] !== sectionStrings[name]) : [];
  if ((holding || changed.length) && signal === "ready") setSignal("not ready");
  if (displayStatus() !== display) {
    display = displayStatus();
    fire("cmpDisplayStatus", display);
  }
  if (!next) return;
  take(next);
  for (const name of changed) fire("sectionChange", name);
  if (signal !== "ready") setSignal("ready");
}

const commands: Record<string, (callback: Callback, parameter: unknown) => void> = {
  ping: (callback) => callback(pingData(), true),
  addEventListener(callback) {
    const id = nextListener++;
    listeners.set(id, { id, callback });
    callback(eventData("listenerRegistered", id, true), true);
  },
  removeEventListener: (callback, id) => callback(eventData("listenerRemoved", id as number, listeners.delete(id as number)), true),
  hasSection: (callback, name) => callback(sections.includes(name as GppSectionName), true),
  getSection: (callback, name) => callback(parsed[name as string] ?? null, true),
  getField(callback, path) {
    const [name, field] = String(path).split(".");
    callback(parsed[name]?.[field] ?? null, true);
  },
};

const gpp: Gpp = (command, callback, parameter) => {
  const run = typeof command === "string" && Object.hasOwn(commands, command) && typeof callback === "function" ? commands[command] : undefined;
  if (run) run(callback!, parameter);
  else callback?.(null, false);
};

/** Answers a frame's `__gppCall` (a string or an object, answered in kind) through `__gpp`. */
function answerFrames(event: MessageEvent) {
  const text = typeof event.data === "string";
  let call;
  try {
    call = (text ? JSON.parse(event.data) : event.data)?.__gppCall;
  } catch {
    return;
  }
  if (!call) return;
  gpp(call.command, (returnValue, success) => {
    const reply = { __gppReturn: { returnValue, success, callId: call.callId } };
    (event.source as Window | null)?.postMessage(text ? JSON.stringify(reply) : reply, "*");
  }, call.parameter, call.version);
}

/** Serves `__gpp` for the sections the bootstrap names, from the controller's decision; called again when a bootstrap answers. */
export default function serveGpp(controller: ConsentController, boot: Bootstrap) {
  sections = [...(boot.gppSections ?? [])].sort((a, b) => gppSections[a].id - gppSections[b].id);
  mspa = boot.gppMspa;
  if (page.__gpp === gpp) return sync();
  flow = controller;
  take(sectionsNow());
  // IAB's stub keeps the calls it could not answer as `__gpp()` returns them, and its listeners on `__gpp.events`.
  const stub = page.__gpp as (Gpp & { events?: Listener[] }) | undefined;
  const queue = (stub?.() as unknown[][] | undefined) ?? [];
  for (const listener of stub?.events ?? []) listeners.set(listener.id, listener);
  page.__gpp = gpp;
  if (!stub) {
    const frame = document.createElement("iframe");
    frame.name = "__gppLocator";
    frame.hidden = true;
    document.body.append(frame);
    addEventListener("message", answerFrames);
  }
  for (const call of queue) gpp(...(call as Parameters<Gpp>));
  // Event order example 1: loaded, then the layer shown (if it is), then ready.
  fire("cmpStatus", "loaded");
  sync();
  // Every change of what the widget shows goes through the host's render (ConsentController.set): following it
  // from here keeps the observing in this chunk, off the eager bundle.
  const render = controller.host.render;
  controller.host.render = () => {
    render();
    sync();
  };
}
