/**
 * The page's `__tcfapi` (IAB TCF CMP API v2), loaded only where the bootstrap names `tcf` (a project with TCF on, a
 * visitor under the opt-in regime): IAB's own `CmpApi` answers every command, takes over the calls IAB's stub queued,
 * and hears the TC string this chunk writes from the dialog's TCF toggles (docs/tcf.md#in-the-page), which it adds to
 * the widget's layers (layers.ts). Without the stub, the chunk adds the `__tcfapiLocator` frame and answers frames'
 * `__tcfapiCall` messages itself, as the stub would.
 */
import { CmpApi } from "@iabtechlabtcf/cmpapi";
import type { ConsentController } from "../controller";
import { storageKey } from "../../../shared/browser/storage-keys";
import { tcfWordPrefix, type TcfStrings } from "../../../shared/i18n/tcf";
import { firstLayer } from "../../../shared/tcf/first-layer";
import { everything, flipped, tcfChoice, togglesOf, type Toggles } from "./decision";
import { firstLayerPart, secondLayerPart, tcfStyles, type Dialog } from "./layers";
import { gvlLanguage } from "./languages";
import { askedOf, mustAskAgain, type Kept } from "./resurface";
import { acConsentsOf, acString, decodedSignals, signalsOf, tcString, type TcfPageSettings } from "./tc-string";

/** The project's vendor list (worker/tcf/project-list-routes.ts): the GVL with its vendors, its AC providers, and what the strings need. */
type ProjectList = Dialog["list"] & { language: string; settings: TcfPageSettings & { acProviders: number[]; publisherCountryCode: string } };

type TcfApi = ((...args: unknown[]) => unknown) | undefined;
const page = window as unknown as { __tcfapi?: TcfApi };

let started = false;

/** The strings of the TCF toggles as they stand now. */
function stringsNow(list: ProjectList, toggles: Toggles): Required<Kept> {
  const { settings } = list;
  const choice = tcfChoice(settings, toggles);
  const signals = signalsOf(list, settings, choice, list.language, settings.publisherCountryCode);
  return {
    tcString: tcString(list, signals, new Date(), list.language),
    acString: acString(choice.acConsents, settings.acProviders),
    vendors: signals.vendorsDisclosed,
    asked: askedOf(list, signals.vendorsDisclosed, settings.publisherPurposes),
  };
}

/** Answers a frame's `__tcfapiCall` (a string or an object, answered in kind) through `__tcfapi`, as IAB's stub does. */
function answerFrames(event: MessageEvent) {
  const text = typeof event.data === "string";
  let call;
  try {
    call = (text ? JSON.parse(event.data) : event.data)?.__tcfapiCall;
  } catch {
    return;
  }
  if (!call) return;
  page.__tcfapi?.(call.command, call.version, (returnValue: unknown, success: boolean) => {
    const reply = { __tcfapiReturn: { returnValue, success, callId: call.callId } };
    (event.source as Window | null)?.postMessage(text ? JSON.stringify(reply) : reply, "*");
  }, call.parameter);
}

async function projectList(flow: ConsentController): Promise<ProjectList> {
  const { api, project } = flow.host.source;
  const url = `${api}/tcf/v3/projects/${encodeURIComponent(project)}/vendor-list.json`;
  // The dialog's language where the GVL has it (languages.ts), else English (the list's own; a language the GVL lacks,
  // which only a project's own language can name, is refused without CORS headers, so the browser reports a failed fetch).
  const lang = gvlLanguage(flow.shown.language ?? "en");
  const inLanguage = lang === "en" ? undefined : await fetch(`${url}?lang=${lang}`).catch(() => undefined);
  return (inLanguage?.ok ? inLanguage : await fetch(url)).json();
}

declare const __ASSENT_TCF_I18N__: string;

/**
 * The layers' words in the widget's language (its primary language for a project's own one, `de` for `de-CH`), else
 * English: files the build writes beside this chunk (widget/vite.config.ts); under them the project's own wording of
 * them, which the bootstrap's words carry as `tcf.<key>` where the project set any (docs/languages.md#a-projects-own-words).
 */
async function tcfWords(flow: ConsentController): Promise<TcfStrings> {
  const language = flow.shown.language ?? "en";
  // Beside this chunk; through a variable, since Vite rewrites `new URL(template, import.meta.url)` into a glob of source files.
  const here = import.meta.url;
  const file = (tag: string) => fetch(new URL(`tcf-i18n/${__ASSENT_TCF_I18N__}/${tag}.json`, here)).then((answer) => (answer.ok ? answer.json() : Promise.reject()));
  const shipped: TcfStrings = await file(language)
    .catch(() => file(language.split("-")[0]!))
    .catch(() => file("en"));
  const own = Object.entries(flow.shown.strings ?? {}).filter(([key]) => key.startsWith(tcfWordPrefix));
  return { ...shipped, ...Object.fromEntries(own.map(([key, text]) => [key.slice(tcfWordPrefix.length), text])) };
}

/**
 * The TCF layers on the element (layers.ts): its styles, the part each layer renders, and Accept all and Reject all
 * setting every TCF toggle before the widget records its decision.
 */
function layers(flow: ConsentController, list: ProjectList, words: TcfStrings, layer: ReturnType<typeof firstLayer>, toggles: Toggles): Dialog {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(tcfStyles);
  flow.host.root.adoptedStyleSheets = [...flow.host.root.adoptedStyleSheets, sheet];
  const dialog: Dialog = {
    list,
    layer,
    words,
    toggles,
    vendorsOpen: false,
    openVendors: [],
    render: () => flow.host.render(),
    flip: (key, id, on) => {
      dialog.toggles = flipped(dialog.toggles, key, id, on);
      flow.host.render();
    },
    showVendors: (open, focus) => {
      dialog.vendorsOpen = open;
      wantFocus ||= !!focus;
      if (open && !dialog.vendorList) {
        void import("./vendors").then((vendors) => {
          dialog.vendorList = vendors.vendorList;
          flow.host.render();
        });
      }
      flow.host.render();
    },
    showVendor: (id, open) => {
      dialog.openVendors = open ? [...dialog.openVendors, id] : dialog.openVendors.filter((v) => v !== id);
      flow.host.render();
    },
  };
  // The vendor list asked for from the first layer takes focus once the second layer shows it, after the element's
  // paint (which the element queued before this).
  let wantFocus = false;
  const focusVendors = () => {
    const summary = flow.host.root.querySelector<HTMLElement>("dialog[open] #tcf-vendors > summary");
    if (!wantFocus || !summary) return;
    wantFocus = false;
    summary.focus();
  };
  const render = flow.host.render;
  flow.host.render = () => {
    render();
    queueMicrotask(focusVendors);
  };
  flow.host.section = (view, at) => (at === "banner" ? firstLayerPart(view, dialog) : secondLayerPart(view, dialog));
  const setAll = flow.setAll.bind(flow);
  flow.setAll = (on) => {
    dialog.toggles = everything(list, list.settings.vendors, layer, on, list.settings.acProviders);
    return setAll(on);
  };
  flow.host.render();
  return dialog;
}

/**
 * How long the first layer waits for the TCF part once its chunk runs (the project's vendor list and the layers'
 * words, both cached at the edge): long enough for a slow mobile connection, short enough that a visitor is not left
 * without the question when the list hangs (docs/tcf.md#loading).
 */
const holdMs = 5_000;

/**
 * Serves `__tcfapi` from the controller's decision; called again when a bootstrap answers, which changes nothing here.
 * The widget holds the first layer until this settles: once the TCF part is in the layers, or after `holdMs`, when
 * the part goes on loading and joins the layers (or asks again, docs/tcf.md#when-the-dialog-shows-again) once it can.
 */
export default function serveTcf(flow: ConsentController): Promise<void> | undefined {
  if (started) return;
  started = true;
  // Without the vendor list this page has no CMP; a later one asks again with it.
  const served = serve(flow).catch((error: unknown) => console.warn("Assent: no IAB TCF vendor list", error));
  return Promise.race([served, new Promise<void>((resolve) => setTimeout(resolve, holdMs))]);
}

async function serve(flow: ConsentController) {
  const [list, words] = await Promise.all([projectList(flow), tcfWords(flow)]);
  const storage = `${storageKey(flow.host.source.api, flow.host.source.project)}:tcf`;
  let kept: Kept | undefined;
  try {
    kept = JSON.parse(localStorage.getItem(storage) ?? "null") ?? undefined;
  } catch {
    // Blocked storage keeps nothing: the visitor is asked again.
  }
  if (!page.__tcfapi) {
    const frame = document.createElement("iframe");
    frame.name = "__tcfapiLocator";
    frame.hidden = true;
    document.body.append(frame);
    addEventListener("message", answerFrames);
  }
  const layer = firstLayer(list, list.settings);
  let toggles: Toggles = { purposes: [], objections: [], specialFeatures: [], vendors: [], vendorObjections: [], acProviders: [] };
  try {
    if (kept) toggles = togglesOf(decodedSignals(kept.tcString, list), list, list.settings, layer, acConsentsOf(kept.acString));
  } catch {
    // A kept string that no longer decodes: the toggles start as for a new visitor, who is asked again below.
  }
  const dialog = layers(flow, list, words, layer, toggles);
  // Google's Additional Consent Mode reads the AC string as TCData's `addtlConsent`, beside the TC string it was made
  // with: added to getTCData's answer, which addEventListener's use too (CmpApi's built-in command middleware).
  const cmpApi = new CmpApi(list.settings.cmpId, list.settings.cmpVersion, true, {
    getTCData: (next, data: unknown, status: boolean) => {
      if (data && typeof data === "object" && kept?.acString) Object.assign(data, { addtlConsent: kept.acString });
      (next as (data: unknown, status: boolean) => void)(data, status);
    },
  });
  /**
   * Whether the API last said the dialog shows (undefined before the first update), and whether a decision was just
   * told (the layer is still closing).
   */
  let shownTold: boolean | undefined;
  let closing = false;
  const visible = () => flow.shown.banner === "ask" || flow.shown.open;

  // A decision sends its strings with it (meta.context), made from the TCF toggles as they stand.
  let sent: Kept | undefined;
  const context = flow.host.context;
  flow.host.context = () => {
    sent = stringsNow(list, dialog.toggles);
    return { ...context(), tcString: sent.tcString, acString: sent.acString };
  };
  // Once the service confirmed it (assent-change), the strings are the visitor's: kept, and told to the page.
  const emit = flow.host.emit;
  flow.host.emit = (type, detail) => {
    emit(type, detail);
    if (type !== "assent-change" || !sent) return;
    kept = sent;
    sent = undefined;
    try {
      localStorage.setItem(storage, JSON.stringify(kept));
    } catch {
      // Blocked storage: the page still hears the string.
    }
    shownTold = false;
    closing = true;
    cmpApi.update(kept.tcString, false);
  };
  // The dialog showing or closing without a decision, as the widget renders it: cmpuishown, then the string as it was.
  const render = flow.host.render;
  const follow = () => {
    if (flow.shown.busy) return;
    if (closing) closing = visible();
    else if (visible() !== shownTold) {
      shownTold = visible();
      cmpApi.update(kept?.tcString ?? "", shownTold);
    }
  };
  flow.host.render = () => {
    render();
    follow();
  };

  // A visitor whose kept string no longer covers what is asked is asked again (docs/tcf.md#when-the-dialog-shows-again), unless
  // they closed the layer in this browser session. A decision already on its way (the visitor was quicker than this
  // chunk) is told when it is recorded, or, when it went without strings, once the layer closes.
  const dismissed = sessionStorage.getItem(`${storageKey(flow.host.source.api, flow.host.source.project)}:dismissed`);
  const now = stringsNow(list, dialog.toggles);
  if (!visible() && !dismissed && !flow.shown.busy && mustAskAgain(kept, list, now.asked, now.vendors, list.settings.acProviders)) flow.set({ banner: "ask" });
  else follow();
}
