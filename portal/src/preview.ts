// The consent widget's preview frame (/portal/preview, same origin as the portal). The portal posts the
// configuration being edited; this frame answers the widget's API calls itself from that document, so a
// preview never mints tokens, never creates identities and never records a consent.

type Message = {
  type: "assent-preview";
  configuration: { projectId: string };
  language: string;
  /** The widget's words as being edited (the Wording page); without them, the shipped words. */
  strings?: Record<string, string>;
  /** Which layer to show: the preferences (default) or the first layer. */
  layer?: "banner" | "preferences";
};

const widgetUrl = "/widget/assent.js";
const identityId = "idn_preview";
let configuration: unknown = null;
let shown: Message | null = null;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

const realFetch = window.fetch.bind(window);
window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
  const url = new URL(input instanceof Request ? input.url : String(input), location.href);
  const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
  if (url.origin !== location.origin || url.pathname.startsWith("/widget/")) return realFetch(input, init);
  // The one call a current widget makes (with the words being edited, when the page sends them); without
  // `strings` the widget takes its own language file.
  if (url.pathname.endsWith("/bootstrap") && shown?.strings) {
    return json({
      regime: { name: "opt-in", country: null, region: null, gpc: false, gpcApplied: false },
      language: shown.language,
      strings: shown.strings,
      configuration,
      fingerprint: "preview",
      consentMode: { enabled: false, waitForUpdate: 500, urlPassthrough: false, adsDataRedaction: false, defaults: [] },
      state: null,
    });
  }
  if (url.pathname === "/privacy/v1/configurations") return json(configuration);
  if (url.pathname.endsWith("/permission-state")) {
    return json({ projectId: "", identityId, updated: new Date().toISOString(), purposes: [] });
  }
  if (method === "POST" && url.pathname.endsWith("/permissions")) {
    const body = JSON.parse(String(init?.body ?? "{}"));
    const stamp = new Date().toISOString();
    return json({ requestId: "prm_preview", permissionStatus: "completed", ...body, created: stamp, updated: stamp }, 201);
  }
  return json({ status: 404, code: "not_found", detail: "Not available in the preview." }, 404);
};

// The widget moves focus to what it shows (its banner, its dialog), as it should on a site. Here the operator may
// be typing in the page around the frame, and every key re-renders the preview: a focus move made while this
// frame does not have focus is undone at once. It runs in the same task, so no keystroke lands in the frame, and
// a plain focus() is skipped, so the page does not scroll to the frame either.
const focusElement = HTMLElement.prototype.focus;
HTMLElement.prototype.focus = function (this: HTMLElement, options?: FocusOptions) {
  if (document.hasFocus()) focusElement.call(this, options);
};
const showModal = HTMLDialogElement.prototype.showModal;
HTMLDialogElement.prototype.showModal = function (this: HTMLDialogElement) {
  const outside = document.hasFocus() ? null : (window.parent.document.activeElement as HTMLElement | null);
  showModal.call(this);
  outside?.focus({ preventScroll: true });
};

const statusLine = document.getElementById("preview-status")!;

async function show(message: Message) {
  configuration = message.configuration;
  shown = message;
  document.documentElement.lang = message.language;
  try {
    await import(/* @vite-ignore */ widgetUrl);
  } catch {
    statusLine.textContent = "The consent widget is not built yet (npm run build:widget), so there is nothing to preview.";
    return;
  }
  statusLine.textContent = "";
  document.querySelector("assent-consent")?.remove();
  const widget = document.createElement("assent-consent");
  widget.setAttribute("project", message.configuration.projectId);
  widget.setAttribute("identity-id", identityId);
  widget.setAttribute("token", "preview");
  widget.setAttribute("lang", message.language);
  widget.setAttribute("collection-method", "portal-preview");
  if (message.layer !== "banner") widget.setAttribute("open", "");
  document.getElementById("preview")!.append(widget);
}

window.addEventListener("message", (event) => {
  if (event.origin !== location.origin || event.source !== window.parent) return;
  const data = event.data as Message;
  if (data?.type === "assent-preview") void show(data);
});
window.parent.postMessage({ type: "assent-preview-ready" }, location.origin);
