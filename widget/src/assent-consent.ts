import { html, nothing, render, type TemplateResult } from "lit/html.js";
import type { TokenProvider } from "../../shared/browser/session";
import { banner, frame, labels } from "./banner";
import { tellNative } from "./bridge";
import { ConsentController, type EventType, type Failure } from "./controller";
import { release, watch } from "./gating";
import { scriptUrl } from "./i18n";
import { direction } from "../../shared/i18n/direction";
import { adopt, styles } from "./styles";
import type { ConsentState, RegimeName } from "../../shared/browser/types";
import { helpers, links, type View, type ViewState } from "./view";

/** Where the script came from: the default API origin. */
const scriptOrigin = new URL(scriptUrl).origin;

/** Values native code can inject before the script runs (`window.AssentNative = {identityId, token}`). */
type NativeInjection = { identityId?: string; token?: string; tokenProvider?: TokenProvider };

type Preferences = {
  preferences(view: View): TemplateResult;
  savedNote(view: View): unknown;
  preferenceStyles: string;
  allow(flow: ConsentController, purposeReferenceId: string): Promise<boolean>;
};

/**
 * `<assent-consent project="prj_…">`: asks a data subject for consent to the project's purposes (first layer:
 * banner; second layer: preferences, loaded on demand), records one permission request per decision, and tells
 * the page (events, Consent Mode, script gating) and a native app (bridges) what may be used. See
 * docs/widget.md. The element holds the settings and renders; the flow is the controller's
 * (controller.ts). A plain custom element rendering with lit-html: the eager bundle has no room for a component
 * framework.
 */
export class AssentConsent extends HTMLElement {
  static observedAttributes = ["open", "lang"];

  // Properties a page may set (before or after the element upgrades); each also reads its attribute.
  /** Origin of the Assent API (no trailing slash); defaults to the origin the script was loaded from. */
  declare api?: string;
  declare project?: string;
  declare identityId?: string;
  /** An identity-scoped token minted by the site's backend. */
  declare token?: string;
  /** Returns a fresh identity-scoped token; called again when the current one is refused. */
  declare tokenProvider?: TokenProvider;
  declare internalReference?: string;
  declare application?: string;
  declare collectionMethod?: string;
  /** Forces the regime (opt-in, opt-out, notice); the service honours it only in local development. */
  declare regime?: RegimeName;

  #flow?: ConsentController;
  #root?: ShadowRoot;
  #prefs?: Preferences;
  #announcement = "";
  #queued = false;
  #opener?: HTMLElement | null;
  #unwatch?: () => void;
  /** What the layers render (banner.ts, preferences.ts). */
  #view?: View;

  #attr(property: keyof this & string, attribute: string = property): string | undefined {
    return (this[property] as string | undefined) ?? this.getAttribute(attribute) ?? undefined;
  }

  get #languages() {
    return [...new Set([this.lang, document.documentElement.lang, ...navigator.languages].filter(Boolean))].slice(0, 20);
  }

  connectedCallback(): void {
    const native = (window as unknown as { AssentNative?: NativeInjection }).AssentNative;
    this.identityId ??= this.getAttribute("identity-id") ?? native?.identityId;
    this.token ??= this.getAttribute("token") ?? native?.token;
    this.tokenProvider ??= native?.tokenProvider;
    document.addEventListener("click", this.#onOpenLink);
    this.#unwatch = watch(this.#allowed, this.#frames);
    if (this.#flow) return;
    adopt((this.#root = this.attachShadow({ mode: "open" })), styles);
    this.#flow = new ConsentController({
      source: {
        api: this.#attr("api") ?? scriptOrigin,
        project: this.#attr("project") ?? "",
        token: this.token,
        identityId: this.identityId,
        tokenProvider: this.tokenProvider,
      },
      languages: () => this.#languages,
      regime: () => this.#attr("regime") as RegimeName | undefined,
      consentMode: this.hasAttribute("consent-mode"),
      context: () => {
        const context: Record<string, string> = {
          collectionMethod: this.#attr("collectionMethod", "collection-method") ?? "web-dialog",
          application: this.#attr("application") || location.hostname,
          language: this.#flow!.shown.language!,
        };
        const reference = this.#attr("internalReference", "internal-reference");
        if (reference) context.internalReference = reference;
        return context;
      },
      emit: (type, detail) => this.#emit(type, detail),
      render: () => this.#render(),
      root: this.#root,
    });
    this.#flow.start();
    if (this.hasAttribute("open")) this.show();
  }

  disconnectedCallback(): void {
    document.removeEventListener("click", this.#onOpenLink);
    this.#unwatch?.();
  }

  attributeChangedCallback(name: string, before: string | null, after: string | null): void {
    if (!this.#flow || before === after) return;
    if (name === "open") this.open = after !== null;
    // Another language: its words, and the configuration's texts in it (a second bootstrap, as a returning visitor).
    else void this.#flow.load();
  }

  /** Whether the preferences (second layer) are showing; set it (or the attribute) to show or close them. */
  get open(): boolean {
    return !!this.#flow?.shown.open;
  }

  set open(value: boolean) {
    if (value) this.show();
    else this.#flow?.set({ open: false });
  }

  /** Shows the preferences (for a "Privacy choices" link on the page; `<a data-assent-open>` does it too). */
  show(): void {
    const flow = this.#flow;
    if (!flow) return;
    if (!flow.shown.open) this.#opener = document.activeElement as HTMLElement | null;
    void this.#customize();
    if (!flow.shown.config) void flow.load();
  }

  /**
   * Whether the purpose may be used now: a consent purpose approved at its current version (or not yet answered
   * under opt-out and notice), any other purpose unless an objection was upheld.
   */
  hasConsent(purposeReferenceId: string): boolean {
    return !!this.#flow?.hasConsent(purposeReferenceId);
  }

  /**
   * Records consent to one purpose (by referenceId) and nothing else, as a click-to-load placeholder asks; true once
   * the service confirmed. Its code comes with the preferences layer's chunk, off the eager bundle. The banner stays
   * up while other purposes are unanswered.
   */
  async allow(purposeReferenceId: string): Promise<boolean> {
    await this.#preferences();
    return this.#prefs!.allow(this.#flow!, purposeReferenceId);
  }

  /** The current state, as `assent-change` carries it. */
  get consent(): ConsentState | undefined {
    return this.#flow?.state;
  }

  #onOpenLink = (event: Event) => {
    if (!(event.target as Element).closest?.("[data-assent-open]")) return;
    event.preventDefault();
    this.show();
  };

  #emit(type: EventType, detail: ConsentState | Failure) {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
    if (type === "assent-error") tellNative({ type, error: detail as Failure });
    else tellNative({ type, state: detail });
    if (type !== "assent-error" && release(this.#allowed)) this.#frames();
  }

  #allowed = (purposeReferenceId: string) => this.hasConsent(purposeReferenceId);

  /** Click-to-load placeholders for gated frames still held: their code loads only on a page that has one. */
  #frames = () => import("./gated-frames").then((frames) => frames.draw(this, this.#flow!));

  /** The second layer (and the receipt note), loaded on first use. */
  async #preferences() {
    if (!this.#prefs) {
      const prefs = await import("./preferences");
      adopt(this.#root!, prefs.preferenceStyles);
      this.#prefs = prefs;
    }
  }

  async #customize() {
    await this.#preferences();
    this.#flow!.set({ banner: "", open: true });
  }

  /**
   * After a stored decision: a quick answer in the first layer just closes it; a decision made in the preferences
   * layer ends on the saved note with the signed receipt (when the service signs one), since that visitor is
   * taking a closer look. The receipt is in the `assent-change` detail either way.
   */
  async #decide(decision: Promise<boolean>) {
    const flow = this.#flow!;
    const inPreferences = flow.shown.open;
    if (!(await decision)) return;
    // In the preferences layer its chunk (which draws the saved note) is loaded already.
    const receipt = inPreferences && flow.shown.receipt;
    this.#announcement = flow.shown.strings!.saved;
    flow.set({ open: false, banner: receipt ? "saved" : "" });
  }

  /** Escape or the close button: closed without a decision (reported when something was being asked). */
  #dismiss() {
    const flow = this.#flow!;
    const asked = flow.shown.banner === "ask" || flow.shown.open;
    flow.set({ open: false, banner: "" });
    if (asked) flow.dismiss();
  }

  /** The view's helpers and actions, made once: `#paint` brings its state up to date before each render. */
  #actions(flow: ConsentController): View {
    const view = {
      ...helpers,
      links: (policies) => links(view, policies),
      frame: (content) => frame(view, content),
      answered: (purpose) => flow.answered(purpose),
      acceptAll: () => void this.#decide(flow.setAll(true)),
      rejectAll: () => {
        if (view.config) return void this.#decide(flow.setAll(false));
        flow.set({ banner: "", open: false });
        flow.rejectOffline();
      },
      customize: () => void this.#customize(),
      acknowledge: () => {
        flow.set({ banner: "" });
        flow.acknowledge();
      },
      dismiss: () => this.#dismiss(),
      retry: () => void (view.config ? this.#decide(flow.save()) : flow.load()),
      save: () => void this.#decide(flow.save()),
      toggle: (key, on) => flow.toggle(key, on),
      object: (purpose) => void flow.object(purpose),
      closePreferences: () => flow.set({ open: false }),
    } as View;
    return view;
  }

  /** Renders once per task, whatever changed in it. */
  #render() {
    if (this.#queued) return;
    this.#queued = true;
    queueMicrotask(() => {
      this.#queued = false;
      this.#paint();
    });
  }

  /** Renders, then brings the layers' top-layer state (popover, modal dialog) and focus in line with it. */
  #paint() {
    const flow = this.#flow!;
    const { config, strings, language, failed, busy, choices, objected, receipt, banner: layer, open, buttons } = flow.shown;
    // Removed from the page while a bootstrap was on its way: nothing to show (a popover must be in the page).
    if (!strings || !this.isConnected) return;
    const project = config?.project;
    const state: ViewState = {
      t: strings,
      language: language!,
      dir: direction(language!),
      controller: project?.controller?.name || project?.name || strings.thisSite,
      config,
      regime: flow.regime,
      gpc: flow.gpc,
      gpcApplied: flow.gpcApplied,
      prescribed: flow.prescribed,
      buttons,
      failed,
      busy,
      pending: flow.pending,
      choices,
      objected,
      receipt,
      section: flow.host.section,
    };
    const view = Object.assign((this.#view ??= this.#actions(flow)), state);
    const root = this.#root!;
    const bannerBefore = root.querySelector("[popover]");
    render(
      html`<p class="hidden" role="status">${this.#announcement}</p>
        ${layer === "ask" ? banner(view) : layer === "saved" ? this.#prefs!.savedNote(view) : nothing}
        ${this.#prefs ? this.#prefs.preferences(view) : nothing}`,
      root,
    );
    render(layer === "ask" ? labels(view) : nothing, this);
    this.toggleAttribute("banner", layer === "ask");
    this.toggleAttribute("open", open);
    const bannerElement = root.querySelector<HTMLElement>("[popover]");
    if (bannerElement && bannerElement !== bannerBefore) {
      bannerElement.showPopover?.();
      // A new banner takes focus, unless the visitor is already somewhere in the page (typing in a field): never
      // pull focus away from them; Tab still reaches the banner.
      if (document.activeElement === document.body) bannerElement.focus();
    }
    const dialog = root.querySelector("dialog");
    if (open && dialog && !dialog.open) dialog.showModal();
    else if (!open && dialog?.open) {
      dialog.close();
      this.#opener?.focus();
    }
  }
}
