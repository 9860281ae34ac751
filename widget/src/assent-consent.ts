import { html, nothing, render, type TemplateResult } from "lit/html.js";
import { sessionFor, type RequestFailed, type Session, type TokenProvider } from "./api";
import { banner, savedBanner } from "./banner";
import { tellNative } from "./bridge";
import { allowed, choicesFrom, localTimestamp, permissionRequest, toggle, type Choices } from "./consent";
import { fallbackSettings, modesOf, setDefaults, update } from "./consent-mode";
import { release, watch } from "./gating";
import { direction, loadStrings, SAVED, SITE, uiLanguage } from "./i18n";
import { consentStore, type ConsentStore, type Decision } from "./store";
import { styles } from "./styles";
import type { Bootstrap, ConsentState, Purpose, RegimeName, StatePurpose } from "./types";
import { helpers, links, type View } from "./view";

/** Where the script came from (the classic build has no import.meta): the default API origin. */
const scriptOrigin = new URL((document.currentScript as HTMLScriptElement | null)?.src || import.meta.url).origin;

/** Values native code can inject before the script runs (`window.AssentNative = {identityId, token}`). */
type NativeInjection = { identityId?: string; token?: string; tokenProvider?: TokenProvider };

type Preferences = { preferences(view: View): TemplateResult; preferenceStyles: string };

type EventType = "assent-ready" | "assent-change" | "assent-error" | "assent-dismiss";

/** What the element shows; every change goes through `#set`, which renders once per task. */
type Shown = {
  /** The first layer: the question, or the note that a decision was saved (with its receipt). */
  banner: "" | "ask" | "saved";
  /** The second layer. */
  open: boolean;
  config?: Bootstrap["configuration"];
  saved: StatePurpose[];
  choices: Choices;
  objected: Record<string, boolean>;
  failed: boolean;
  busy: boolean;
  announcement: string;
  strings?: string[];
  receipt?: string;
  prefs?: Preferences;
};

/**
 * A stylesheet the shadow root adopts (constructed, so a Content-Security-Policy without 'unsafe-inline' allows
 * it); a <style> element where the browser cannot construct one (Safari before 16.4).
 */
function adopt(root: ShadowRoot, css: string) {
  if ("adoptedStyleSheets" in root && "replaceSync" in CSSStyleSheet.prototype) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  } else {
    root.prepend(Object.assign(document.createElement("style"), { textContent: css }));
  }
}

/**
 * `<assent-consent project="prj_…">`: asks a data subject for consent to the project's purposes (first layer:
 * banner; second layer: preferences, loaded on demand), records one permission request per decision, and tells
 * the page (events, Consent Mode, script gating) and a native app (bridges) what may be used. See the README,
 * section "Consent widget". A plain custom element rendering with lit-html: the eager bundle has no room for a
 * component framework.
 */
export class AssentConsent extends HTMLElement {
  static get observedAttributes() {
    return ["open", "lang"];
  }

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

  #shown: Shown = { banner: "", open: false, saved: [], choices: {}, objected: {}, failed: false, busy: false, announcement: "" };
  #queued = false;
  #root?: ShadowRoot;
  #session?: Session;
  #store?: ConsentStore;
  #boot?: Bootstrap;
  #decision?: Decision;
  #identity = "";
  #opener?: HTMLElement | null;
  #loading?: Promise<void>;
  #unwatch?: () => void;

  #attr(property: keyof this, attribute: string): string | undefined {
    return (this[property] as string | undefined) ?? this.getAttribute(attribute) ?? undefined;
  }

  get #api() {
    return this.#attr("api", "api") ?? scriptOrigin;
  }

  get #project() {
    return this.#attr("project", "project") ?? "";
  }

  connectedCallback(): void {
    const native = (window as unknown as { AssentNative?: NativeInjection }).AssentNative;
    this.identityId ??= this.getAttribute("identity-id") ?? native?.identityId;
    this.token ??= this.getAttribute("token") ?? native?.token;
    this.tokenProvider ??= native?.tokenProvider;
    document.addEventListener("click", this.#onOpenLink);
    this.#unwatch = watch((ref) => this.hasConsent(ref));
    if (this.#store) return;
    this.#root = this.attachShadow({ mode: "open" });
    adopt(this.#root, styles);
    this.#store = consentStore(this.#api, this.#project);
    // Before anything is gated or any tag reads it: Consent Mode defaults (the project's, as stored last time; on a
    // first visit, all denied if the page says it uses Consent Mode), then a stored decision if there is one.
    const stored = (this.#decision = this.#store.decision.get());
    const settings = stored?.consentMode ?? (this.hasAttribute("consent-mode") ? fallbackSettings : undefined);
    if (settings) setDefaults(settings);
    if (stored) {
      this.#identity = stored.identityId;
      update(stored.modes, stored.consents);
      this.#emit("assent-ready", this.#state);
    }
    if (this.hasAttribute("open")) this.show();
    void this.#load();
  }

  disconnectedCallback(): void {
    document.removeEventListener("click", this.#onOpenLink);
    this.#unwatch?.();
  }

  attributeChangedCallback(name: string, before: string | null, after: string | null): void {
    if (!this.#store || before === after) return;
    if (name === "open") this.open = after !== null;
    // Another language: its words, and the configuration's texts in it (a second bootstrap, as a returning visitor).
    else {
      this.#set({ strings: undefined });
      void this.#load();
    }
  }

  /** Whether the preferences (second layer) are showing; set it (or the attribute) to show or close them. */
  get open(): boolean {
    return this.#shown.open;
  }

  set open(value: boolean) {
    if (value) this.show();
    else this.#set({ open: false });
  }

  /** Shows the preferences (for a "Privacy choices" link on the page; `<a data-assent-open>` does it too). */
  show(): void {
    if (!this.#shown.open) this.#opener = document.activeElement as HTMLElement | null;
    void this.#customize();
    if (!this.#shown.config && !this.#loading) void this.#load();
  }

  /** Whether the purpose may be used now (see `allowed`); before the configuration is known, the stored decision. */
  hasConsent(purposeReferenceId: string): boolean {
    if (this.#store?.pending.get()) return false;
    const config = this.#shown.config;
    const purpose = config?.purposes.find((p) => p.referenceId === purposeReferenceId);
    if (!purpose) return !config && !!this.#decision?.consents[purposeReferenceId];
    return allowed(purpose, this.#shown.saved, this.#regime);
  }

  /** The current state, as `assent-change` carries it. */
  get consent(): ConsentState {
    return this.#state;
  }

  /** Changes what is shown and renders it (once, whatever else changes in the same task). */
  #set(patch: Partial<Shown>) {
    Object.assign(this.#shown, patch);
    if (this.#queued) return;
    this.#queued = true;
    queueMicrotask(() => {
      this.#queued = false;
      this.#paint();
    });
  }

  #onOpenLink = (event: Event) => {
    if (!(event.target as Element).closest?.("[data-assent-open]")) return;
    event.preventDefault();
    this.show();
  };

  get #regime(): RegimeName {
    return this.#boot?.regime.name ?? this.#decision?.regime ?? "opt-in";
  }

  get #languages() {
    return [...new Set([this.lang, document.documentElement.lang, ...navigator.languages].filter(Boolean))].slice(0, 20);
  }

  get #gpc() {
    return (navigator as { globalPrivacyControl?: boolean }).globalPrivacyControl === true;
  }

  get #consentPurposes() {
    return this.#shown.config?.purposes.filter((p) => p.legalGround === "consent") ?? [];
  }

  get #state(): ConsentState {
    const { config, saved, receipt } = this.#shown;
    const consents: Record<string, boolean> = { ...(config ? {} : this.#decision?.consents) };
    for (const p of config?.purposes ?? []) consents[p.referenceId] = this.hasConsent(p.referenceId);
    return { identityId: this.#identity, consents, purposes: saved, regime: this.#regime, receipt };
  }

  #emit(type: EventType, detail: ConsentState | { status: number; message: string }) {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
    if (type === "assent-error") tellNative({ type, error: detail as { status: number; message: string } });
    else tellNative({ type, state: detail });
    if (type !== "assent-error") release((ref) => this.hasConsent(ref));
  }

  /** Anything that went wrong is shown (nothing is ever reported as saved that the service did not confirm). */
  #fail(error: unknown) {
    this.#set({ failed: true });
    this.#emit("assent-error", { status: (error as RequestFailed).status, message: (error as Error).message });
  }

  #load() {
    return (this.#loading ??= this.#bootstrap().finally(() => (this.#loading = undefined)));
  }

  async #bootstrap() {
    const store = this.#store!;
    this.#session ??= sessionFor({
      api: this.#api,
      project: this.#project,
      token: this.token,
      identityId: this.identityId,
      tokenProvider: this.tokenProvider,
    });
    this.#set({ failed: false });
    const strings = this.#shown.strings ? Promise.resolve(this.#shown.strings) : loadStrings(uiLanguage(this.#languages));
    const first = !this.#decision;
    try {
      const boot = await this.#session.bootstrap({
        languages: this.#languages,
        regime: this.#attr("regime", "regime") as RegimeName | undefined,
        gpc: this.#gpc,
      });
      this.#identity = (await this.#session.current()).identityId;
      if (first && boot.consentMode) setDefaults(boot.consentMode);
      this.#boot = boot;
      this.#set({ strings: await strings, config: boot.configuration });
      this.#apply(boot.state?.purposes ?? []);
      const pending = store.pending.get();
      if (pending) await this.#send(permissionRequest(this.#consentPurposes, {}), pending.requested);
      store.pending.set();
      const before = this.#decision;
      this.#remember(first ? this.#regime !== "opt-in" : JSON.stringify(before?.modes) !== JSON.stringify(this.#decision?.modes));
      if (first) this.#emit("assent-ready", this.#state);
      else if (JSON.stringify(before?.consents) !== JSON.stringify(this.#decision?.consents)) this.#emit("assent-change", this.#state);
      if (!this.#shown.open && !store.dismissed.get() && this.#unanswered()) this.#set({ banner: "ask" });
    } catch (error) {
      this.#set({ strings: await strings });
      this.#fail(error);
      // The visitor can still say no while the API is down: the first layer opens without the configuration.
      if (first && !store.dismissed.get() && !store.pending.get()) this.#set({ banner: "ask" });
    }
  }

  /** A first-layer question is open: opt-in asks until every consent purpose is answered, the others until seen. */
  #unanswered() {
    const open = this.#consentPurposes.some((p) => !this.#answered(p));
    return this.#regime === "opt-in" ? open : open && !this.#decision?.acknowledged;
  }

  #answered(purpose: Purpose) {
    return this.#shown.saved.some((s) => s.purposeId === purpose.purposeId);
  }

  /** Takes a permission state as the saved truth and sets every switch from it. */
  #apply(saved: StatePurpose[]) {
    this.#set({ saved, choices: choicesFrom(this.#consentPurposes, saved, this.#regime) });
  }

  /** Keeps the decision on this device and, when asked, tells Consent Mode and GTM. */
  #remember(tell: boolean, acknowledged = this.#decision?.acknowledged) {
    const state = this.#state;
    const modes = this.#boot!.consentMode?.enabled ? modesOf(this.#shown.config!.purposes, (p) => this.hasConsent(p.referenceId)) : {};
    this.#store!.decision.set(
      (this.#decision = {
        identityId: this.#identity,
        fingerprint: this.#boot!.fingerprint,
        regime: this.#regime,
        consents: state.consents,
        modes,
        consentMode: this.#boot!.consentMode,
        acknowledged,
      }),
    );
    if (tell) update(modes, state.consents);
  }

  /** Request meta; `requestedBy` is left to the service, which records the token's client. */
  #meta() {
    const context: Record<string, string | boolean> = {
      collectionMethod: this.#attr("collectionMethod", "collection-method") ?? "web-dialog",
      application: this.#attr("application", "application") || location.hostname,
      language: uiLanguage(this.#languages),
    };
    const reference = this.#attr("internalReference", "internal-reference");
    if (reference) context.internalReference = reference;
    // Servers from before the bootstrap refuse fields they do not know.
    if (this.#gpc && !this.#boot?.legacy) context.gpc = true;
    return { context };
  }

  #path(suffix: string) {
    return `/privacy/v2/projects/${encodeURIComponent(this.#project)}${suffix}`;
  }

  /** Records a permission or objection request for this identity. */
  async #post(family: "permissions" | "objections", request: unknown, requested = localTimestamp()) {
    const auth = await this.#session!.current();
    return this.#session!.call<{ receipt?: string }>(this.#path(`/${family}`), {
      method: "POST",
      body: JSON.stringify({ identityId: auth.identityId, requested, meta: this.#meta(), request }),
    });
  }

  /** Sends a permission request and takes the state the service then reports as the truth. */
  async #send(request: unknown, requested?: string) {
    const { receipt } = await this.#post("permissions", request, requested);
    this.#set({ receipt });
    this.#apply((await this.#session!.call<{ purposes: StatePurpose[] }>(this.#path("/identities/{identity}/permission-state"))).purposes);
  }

  async #save(choices = this.#shown.choices) {
    if (!this.#shown.config || this.#shown.busy) return;
    this.#set({ busy: true, choices });
    try {
      await this.#send(permissionRequest(this.#consentPurposes, choices));
      this.#remember(true);
      this.#emit("assent-change", this.#state);
      this.#set({ announcement: this.#shown.strings![SAVED], open: false, banner: this.#shown.receipt ? "saved" : "" });
    } catch (error) {
      this.#fail(error);
    } finally {
      this.#set({ busy: false });
    }
  }

  #setAll(on: boolean) {
    let choices = this.#shown.choices;
    for (const key of Object.keys(choices)) choices = toggle(choices, key, on);
    void this.#save(choices);
  }

  /** Reject all without the configuration (API down): kept on this device and sent when the API answers. */
  #rejectOffline() {
    this.#store!.pending.set({ status: "denied", requested: localTimestamp() });
    this.#set({ banner: "", open: false });
    this.#emit("assent-change", this.#state);
  }

  async #object(purpose: Purpose) {
    try {
      await this.#post("objections", { purposes: [{ purposeId: purpose.purposeId }] });
      this.#set({ objected: { ...this.#shown.objected, [purpose.purposeId]: true } });
      this.#emit("assent-change", this.#state);
    } catch (error) {
      this.#fail(error);
    }
  }

  /** Escape or the close button: closed without a decision, remembered for this browser session and reported. */
  #dismiss() {
    const asked = this.#shown.banner === "ask" || this.#shown.open;
    this.#set({ open: false, banner: "" });
    if (!asked) return;
    this.#store!.dismissed.set(true);
    this.#emit("assent-dismiss", this.#state);
  }

  /** The second layer, loaded on first use. */
  async #customize() {
    if (!this.#shown.prefs) {
      const prefs = await import("./preferences");
      adopt(this.#root!, prefs.preferenceStyles);
      this.#shown.prefs = prefs;
    }
    this.#set({ banner: "", open: true });
  }

  #view(): View {
    const { config, strings, failed, busy, choices, objected, receipt } = this.#shown;
    const project = config?.project;
    const language = uiLanguage(this.#languages);
    const view: View = {
      ...helpers(language, project?.defaultLanguage),
      links: (policies) => links(view, policies),
      t: strings!,
      language,
      dir: direction(language),
      controller: project?.controller?.name || project?.name || strings![SITE],
      config,
      regime: this.#regime,
      gpc: this.#gpc,
      gpcApplied: !!this.#boot?.regime.gpcApplied,
      failed,
      busy,
      pending: !!this.#store!.pending.get(),
      choices,
      objected,
      receipt,
      answered: (purpose) => this.#answered(purpose),
      acceptAll: () => this.#setAll(true),
      rejectAll: () => (config ? this.#setAll(false) : this.#rejectOffline()),
      customize: () => void this.#customize(),
      acknowledge: () => {
        this.#set({ banner: "" });
        if (config) this.#remember(false, true);
      },
      dismiss: () => this.#dismiss(),
      retry: () => void (config ? this.#save() : this.#load()),
      save: () => void this.#save(),
      toggle: (key, on) => this.#set({ choices: toggle(this.#shown.choices, key, on) }),
      object: (purpose) => void this.#object(purpose),
      closePreferences: () => this.#set({ open: false }),
    };
    return view;
  }

  /** Renders, then brings the layers' top-layer state (popover, modal dialog) and focus in line with it. */
  #paint() {
    const { strings, banner: layer, open, prefs, announcement } = this.#shown;
    if (!strings) return;
    const view = this.#view();
    const bannerBefore = this.#root!.querySelector("[popover]");
    render(
      html`<p class="hidden" role="status">${announcement}</p>
        ${layer === "ask" ? banner(view) : layer === "saved" ? savedBanner(view) : nothing}
        ${prefs ? prefs.preferences(view) : nothing}`,
      this.#root!,
    );
    this.toggleAttribute("open", open);
    const bannerElement = this.#root!.querySelector<HTMLElement>("[popover]");
    if (bannerElement && bannerElement !== bannerBefore) {
      bannerElement.showPopover?.();
      bannerElement.focus();
    }
    const dialog = this.#root!.querySelector("dialog");
    if (open && dialog && !dialog.open) dialog.showModal();
    else if (!open && dialog?.open) {
      dialog.close();
      this.#opener?.focus();
    }
  }
}
