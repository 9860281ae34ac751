/**
 * The consent flow behind the element, without any DOM: the bootstrap and what follows from it (state, regime,
 * Consent Mode, the decision kept on the device), and recording decisions and objections. The element (its host)
 * supplies the settings and renders what `shown` says; the controller tells it when to render and what to emit.
 */
import { sessionFor, type AuthSource, type RequestFailed, type Session } from "../../shared/browser/session";
import { allowed, choicesFrom, localTimestamp, permissionRequest, toggle, type Choices, type PermissionRequest } from "./consent";
import { fallbackSettings, modesOf, setDefaults, update } from "./consent-mode";
import { offlineStrings } from "./i18n";
import type { Strings } from "../../shared/i18n/strings";
import { consentStore, type ConsentStore, type Decision } from "./store";
import type { WidgetFeature } from "../../shared/browser/features";
import type { ViewState } from "./view";
import type { Bootstrap, ButtonStyle, ConsentState, PrescribedLink, Purpose, RegimeName, StatePurpose } from "../../shared/browser/types";

/** The widget's optional parts (shared/browser/features.ts), each a chunk fetched only where the bootstrap names it. */
const optionalParts: Record<WidgetFeature, () => Promise<{ default: (flow: ConsentController, boot: Bootstrap) => void }>> = {
  gpp: () => import("./gpp/gpp"),
  tcf: () => import("./tcf/tcf"),
  analytics: () => import("./analytics/analytics"),
};

export type EventType = "assent-ready" | "assent-change" | "assent-error" | "assent-dismiss";
export type Failure = { status: number; message: string };

/** What the element shows; every change goes through `set`, which asks the host to render. */
export type Shown = {
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
  strings?: Strings;
  /** The language of `strings` (and of the configuration's texts), for `lang` and `dir`. */
  language?: string;
  receipt?: string;
  /** The first layer's button style of the visitor's banner variant, when an experiment runs (docs/analytics.md). */
  buttons?: ButtonStyle;
};

export type Host = {
  source: AuthSource;
  languages(): string[];
  /** A forced regime (honoured by the service in local development only). */
  regime(): RegimeName | undefined;
  /** The page says it uses Consent Mode: all-denied defaults at once on a first visit. */
  consentMode: boolean;
  /** `meta.context` of a request; the service adds the browser signals. */
  context(): Record<string, string | boolean>;
  emit(type: EventType, detail: ConsentState | Failure): void;
  render(): void;
  /** The element's shadow root: an optional part that renders into the layers adopts its own styles there. */
  root: ShadowRoot;
  /** What an optional part adds to the layers (the TCF chunk: docs/tcf.md#what-each-layer-shows-and-why). */
  section?: ViewState["section"];
};

/** Whether two JSON values differ (the stored decision's parts, compared with the service's answer). */
const differ = (a: unknown, b: unknown) => JSON.stringify(a) !== JSON.stringify(b);

export class ConsentController {
  shown: Shown = { banner: "", open: false, saved: [], choices: {}, objected: {}, failed: false, busy: false };
  /** The element the flow speaks for: its settings (`source`) and what it renders and emits. */
  readonly host: Host;
  #store: ConsentStore;
  #session: Session;
  #boot?: Bootstrap;
  #decision?: Decision;
  #identity = "";
  #loading?: Promise<void>;

  constructor(host: Host) {
    this.host = host;
    this.#store = consentStore(host.source.api, host.source.project);
    this.#session = sessionFor(host.source);
  }

  /** Before anything is gated or any tag reads it: Consent Mode defaults, then the stored decision if there is one. */
  start() {
    const stored = (this.#decision = this.#store.decision.get());
    const settings = stored?.consentMode ?? (this.host.consentMode ? fallbackSettings() : undefined);
    if (settings) setDefaults(settings);
    if (stored) {
      this.#identity = stored.identityId;
      update(stored.modes, stored.consents, stored.consentMode);
      this.host.emit("assent-ready", this.state);
    }
    void this.load();
  }

  set(patch: Partial<Shown>) {
    Object.assign(this.shown, patch);
    this.host.render();
  }

  get regime(): RegimeName {
    return this.#boot?.regime.name ?? this.#decision?.regime ?? "opt-in";
  }

  /** The links whose words the visitor's law prescribes (data from the service's jurisdiction rules). */
  get prescribed(): PrescribedLink[] {
    return this.#boot?.regime.prescribed ?? [];
  }

  get gpcApplied() {
    return !!this.#boot?.regime.gpcApplied;
  }

  get gpc() {
    return !!(navigator as { globalPrivacyControl?: boolean }).globalPrivacyControl;
  }

  /** A Reject all taken while the API was down waits on this device. */
  get pending() {
    return !!this.#store.pending.get();
  }

  /** Whether the purpose may be used now (see `allowed`); before the configuration is known, the stored decision. */
  hasConsent(purposeReferenceId: string): boolean {
    if (this.pending) return false;
    const config = this.shown.config;
    const purpose = config?.purposes.find((p) => p.referenceId === purposeReferenceId);
    if (!purpose) return !config && !!this.#decision?.consents[purposeReferenceId];
    return allowed(purpose, this.shown.saved, this.regime);
  }

  get #consentPurposes() {
    return this.shown.config?.purposes.filter((p) => p.legalGround === "consent") ?? [];
  }

  get state(): ConsentState {
    const { config, saved, receipt } = this.shown;
    const consents: Record<string, boolean> = { ...(config ? {} : this.#decision?.consents) };
    for (const p of config?.purposes ?? []) consents[p.referenceId] = this.hasConsent(p.referenceId);
    const consentMode = config ? modesOf(config.purposes, (p) => consents[p.referenceId]) : { ...this.#decision?.modes };
    return { identityId: this.#identity, consents, consentMode, purposes: saved, regime: this.regime, receipt };
  }

  /**
   * Anything that went wrong is shown (nothing is ever reported as saved that the service did not confirm). The
   * service's own words go to the console for the site's developer: an unregistered origin's refusal names the
   * origin and where to register it. (A request that got no answer the browser reports itself.)
   */
  #fail(error: unknown) {
    const { status, message } = error as RequestFailed;
    if (status) console.error(`Assent: ${message}`);
    this.set({ failed: true });
    this.host.emit("assent-error", { status, message });
  }

  load() {
    return (this.#loading ??= this.#bootstrap().finally(() => (this.#loading = undefined)));
  }

  async #bootstrap() {
    const store = this.#store;
    const host = this.host;
    this.set({ failed: false });
    const languages = host.languages();
    const first = !this.#decision;
    try {
      const boot = await this.#session.bootstrap({ languages, regime: host.regime(), gpc: this.gpc });
      this.#identity = (await this.#session.current()).identityId;
      if (first && boot.consentMode) setDefaults(boot.consentMode);
      this.#boot = boot;
      // The words come with the answer (a server from before them: the widget's own file).
      const [language, strings] = boot.strings ? [boot.language, boot.strings as Strings] : await offlineStrings([boot.language]);
      this.set({ strings, language, config: boot.configuration, buttons: boot.buttons });
      this.#apply(boot.state?.purposes ?? []);
      const pending = store.pending.get();
      if (pending) await this.#send(permissionRequest(this.#consentPurposes, {}), pending.requested);
      store.pending.set();
      const before = this.#decision;
      this.#remember(first ? this.regime !== "opt-in" : undefined);
      // A returning visitor's state changes with the answer, or with the regime (another place, other rules).
      if (first) host.emit("assent-ready", this.state);
      else if (before?.regime !== this.regime || differ(before?.consents, this.#decision?.consents)) {
        host.emit("assent-change", this.state);
      }
      // The optional parts the bootstrap names (GPP for a US visitor under an opt-out regime); an unknown name is skipped.
      // The first layer waits for TCF's part (and the parts after it), so that it does not ask without its TCF part and
      // then again with it; the part bounds that wait (docs/tcf.md#loading). A part that fails leaves the layer as it is.
      for (const name of boot.features ?? []) {
        const part = optionalParts[name]?.().then((part) => part.default(this, boot)).catch(() => {});
        if (name === "tcf") await part;
      }
      if (!this.shown.open && !store.dismissed.get() && this.#unanswered()) this.set({ banner: "ask" });
    } catch (error) {
      // The words of an earlier answer stand; the first time, the widget's own file.
      if (!this.shown.strings) {
        const [language, strings] = await offlineStrings(languages);
        this.set({ strings, language });
      }
      this.#fail(error);
      // The visitor can still say no while the API is down: the first layer opens without the configuration.
      if (first && !store.dismissed.get() && !store.pending.get()) this.set({ banner: "ask" });
    }
  }

  /**
   * A first-layer question is open: opt-in asks until every consent purpose is answered, the others until seen. A
   * refusal stands until the service says it has lapsed (`askAgain`, after the project's period).
   */
  #unanswered() {
    const open = this.#consentPurposes.some((p) => !this.answered(p) || this.#boot?.askAgain?.includes(p.purposeId));
    return this.regime === "opt-in" ? open : open && !this.#decision?.acknowledged;
  }

  answered(purpose: Purpose) {
    return this.shown.saved.some((s) => s.purposeId === purpose.purposeId);
  }

  /** Takes a permission state as the saved truth and sets every switch from it. */
  #apply(saved: StatePurpose[]) {
    this.set({ saved, choices: choicesFrom(this.#consentPurposes, saved, this.regime) });
  }

  /**
   * Keeps the decision on this device and tells Consent Mode and GTM when asked, or (`tell` unset) when the modes
   * differ from the ones this device last told.
   */
  #remember(tell?: boolean, acknowledged = this.#decision?.acknowledged) {
    const { consents, consentMode: modes } = this.state;
    const boot = this.#boot!;
    tell ??= differ(modes, this.#decision?.modes);
    this.#store.decision.set(
      (this.#decision = {
        identityId: this.#identity,
        fingerprint: boot.fingerprint,
        regime: this.regime,
        consents,
        modes,
        consentMode: boot.consentMode,
        acknowledged,
      }),
    );
    if (tell) update(modes, consents, boot.consentMode);
  }

  /** What a recorded request carries besides its `request`: the identity, when, and the page; `requestedBy` is the service's. */
  async #recorded(requested = localTimestamp()) {
    const { identityId } = await this.#session.current();
    const context: Record<string, unknown> = this.host.context();
    // Browser signals (GPC) the service reads from the request itself (shared/signals/signals.ts).
    // What ran without consent when the decision was made, and under which exemption.
    const exempt = this.shown.config?.purposes.filter((p) => p.exemption).map((p) => ({ purposeId: p.purposeId, version: p.version, ...p.exemption }));
    if (exempt?.length) context.exemptions = exempt;
    return { identityId, requested, meta: { context } };
  }

  /** Sends a permission request and takes the state the service then reports as the truth. */
  async #send(request: PermissionRequest, requested?: string) {
    const { receipt } = await this.#session.call("/privacy/v2/projects/{project_id}/permissions", { ...(await this.#recorded(requested)), request });
    this.set({ receipt });
    this.#apply((await this.#session.call("/privacy/v2/projects/{project_id}/identities/{identityId}/permission-state")).purposes);
  }

  /** Records the switches as they are (or `choices`), of every consent purpose or `purposes`; true once the service confirmed. */
  async save(choices = this.shown.choices, purposes = this.#consentPurposes): Promise<boolean> {
    if (!this.shown.config || this.shown.busy) return false;
    this.set({ busy: true, choices });
    try {
      await this.#send(permissionRequest(purposes, choices));
      this.#remember(true);
      this.host.emit("assent-change", this.state);
      return true;
    } catch (error) {
      this.#fail(error);
      return false;
    } finally {
      this.set({ busy: false });
    }
  }

  setAll(on: boolean) {
    let choices = this.shown.choices;
    for (const key of Object.keys(choices)) choices = toggle(choices, key, on);
    return this.save(choices);
  }

  toggle(key: string, on: boolean) {
    this.set({ choices: toggle(this.shown.choices, key, on) });
  }

  /** Reject all without the configuration (API down): kept on this device and sent when the API answers. */
  rejectOffline() {
    this.#store.pending.set({ status: "denied", requested: localTimestamp() });
    this.host.emit("assent-change", this.state);
  }

  async object(purpose: Purpose) {
    try {
      await this.#session.call("/privacy/v2/projects/{project_id}/objections", {
        ...(await this.#recorded()),
        request: { purposes: [{ purposeId: purpose.purposeId }] },
      });
      this.set({ objected: { ...this.shown.objected, [purpose.purposeId]: true } });
      this.host.emit("assent-change", this.state);
    } catch (error) {
      this.#fail(error);
    }
  }

  /** The opt-out or notice banner was seen (OK). */
  acknowledge() {
    if (this.shown.config) this.#remember(false, true);
  }

  /** Closed without a decision: remembered for this browser session and reported. */
  dismiss() {
    this.#store.dismissed.set(true);
    this.host.emit("assent-dismiss", this.state);
  }
}
