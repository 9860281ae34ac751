import { html, LitElement, nothing, type PropertyValues } from "lit";
import { Session, type RequestFailed, type TokenProvider } from "./api";
import { tellNative } from "./bridge";
import { release } from "./gating";
import {
  ACCEPT, CLOSE, CONSENT, CONTROLLERS, DATA, DETAILS, DOWN, GPC, INTRO, legalGrounds, OBJECT, OBJECTED, PENDING, pick,
  POLICY, REJECT, RETRY, SAVE, SAVED, strings, TITLE, uiLanguage,
} from "./i18n";
import { styles } from "./styles";
import type { Configuration, ConsentState, PermissionState, Policies, Purpose, Status, StatePurpose, Translation } from "./types";

/** Where the script came from (the classic build has no import.meta): the default API origin. */
const scriptOrigin = new URL((document.currentScript as HTMLScriptElement | null)?.src || import.meta.url).origin;

/** Values native code can inject before the script runs (`window.AssentNative = {identityId, token}`). */
type NativeInjection = { identityId?: string; token?: string; tokenProvider?: TokenProvider };

type Kind = "dataGroups" | "processors" | "recipients";
const itemKinds: Kind[] = ["dataGroups", "processors", "recipients"];
const idOf = (item: { dataGroupId?: string; partyId?: string }) => item.dataGroupId ?? item.partyId!;

/** ISO 8601 local time with milliseconds and the numeric offset, as the permission request wants it. */
function localTimestamp(): string {
  const at = new Date();
  const offset = -at.getTimezoneOffset();
  const pad = (n: number) => String(n).padStart(2, "0");
  const local = new Date(at.getTime() + offset * 60_000).toISOString().slice(0, 23);
  return `${local}${offset < 0 ? "-" : "+"}${pad((Math.abs(offset) / 60) | 0)}:${pad(Math.abs(offset) % 60)}`;
}

/**
 * `<assent-consent project="prj_…">`: asks a data subject for consent to the project's purposes, records one
 * permission request per save, and tells the page (events, script gating) and a native app (bridges) what
 * may be used. See the README, section "Consent widget".
 */
export class AssentConsent extends LitElement {
  // Static getters rather than static fields: they need no class static blocks, which Safari 15 lacks.
  static override get styles() {
    return styles;
  }

  /** Reactive properties (declared here rather than with decorators: it keeps the bundle under budget). */
  static override get properties() {
    return {
    api: {},
    project: {},
    identityId: { attribute: "identity-id" },
    lang: {},
    token: {},
    tokenProvider: { attribute: false },
    internalReference: { attribute: "internal-reference" },
    application: {},
    collectionMethod: { attribute: "collection-method" },
    open: { type: Boolean, reflect: true },
    config: { state: true },
    saved: { state: true },
    choices: { state: true },
    objected: { state: true },
    failed: { state: true },
    busy: { state: true },
    announcement: { state: true },
    };
  }

  /** Origin of the Assent API (no trailing slash); defaults to the origin the script was loaded from. */
  api = scriptOrigin;
  project = "";
  identityId?: string;
  /** Language of the texts; defaults to the page's `lang`, then the browser's. */
  override lang = "";
  /** An identity-scoped token minted by the site's backend. */
  token?: string;
  /** Returns a fresh identity-scoped token; called again when the current one is refused. */
  tokenProvider?: TokenProvider;
  internalReference?: string;
  application?: string;
  collectionMethod = "web-dialog";
  /** Whether the dialog is showing; set it (or the attribute) to show the dialog now. */
  open = false;

  private config?: Configuration;
  private saved: StatePurpose[] = [];
  /** The switches: key `purposeId` for a purpose, `purposeId kind itemId` for a data group or party. */
  private choices: Record<string, boolean> = {};
  private objected: Record<string, boolean> = {};
  private failed = false;
  private busy = false;
  private announcement = "";

  get #dialog() {
    return this.renderRoot.querySelector("dialog")!;
  }

  #session?: Session;
  #identity = "";
  #opener?: HTMLElement | null;

  override connectedCallback(): void {
    super.connectedCallback();
    const native = (window as unknown as { AssentNative?: NativeInjection }).AssentNative;
    this.identityId ??= native?.identityId;
    this.token ??= native?.token;
    this.tokenProvider ??= native?.tokenProvider;
    if (!this.#session) void this.#load();
  }

  /** Shows the dialog (for a "Privacy settings" link on the page). */
  show(): void {
    this.open = true;
  }

  /**
   * Whether the purpose may be used now: consent-based purposes need an approval on their current version;
   * purposes on other legal grounds may be used unless an objection has been upheld.
   */
  hasConsent(purposeReferenceId: string): boolean {
    const purpose = this.config?.purposes.find((p) => p.referenceId === purposeReferenceId);
    if (!purpose) return false;
    const status = this.saved.find((s) => s.purposeId === purpose.purposeId)?.status;
    return purpose.legalGround === "consent" ? status === "approved" : status !== "denied";
  }

  get #language() {
    return uiLanguage(this.lang || document.documentElement.lang || navigator.language || "en");
  }

  get #text() {
    return strings(this.#language);
  }

  get #gpc() {
    return (navigator as { globalPrivacyControl?: boolean }).globalPrivacyControl === true;
  }

  get #consentPurposes() {
    return this.config?.purposes.filter((p) => p.legalGround === "consent") ?? [];
  }

  get #state(): ConsentState {
    const consents: Record<string, boolean> = {};
    for (const p of this.config?.purposes ?? []) consents[p.referenceId] = this.hasConsent(p.referenceId);
    return { identityId: this.#identity, consents, purposes: this.saved };
  }

  #emit(type: "assent-ready" | "assent-change" | "assent-error", detail: unknown) {
    this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
    if (type !== "assent-error") {
      release((ref) => this.hasConsent(ref));
      tellNative(type, detail as ConsentState);
    }
  }

  /** Anything that went wrong is shown (nothing is ever reported as saved that the service did not confirm). */
  #fail(error: unknown) {
    this.failed = true;
    this.#emit("assent-error", { status: (error as RequestFailed).status, message: (error as Error).message });
  }

  async #load() {
    this.#session = new Session({
      api: this.api,
      project: this.project,
      token: this.token,
      identityId: this.identityId,
      tokenProvider: this.tokenProvider,
    });
    this.failed = false;
    try {
      const [config, current] = await Promise.all([
        this.#session.call<Configuration>("/privacy/v1/configurations"),
        this.#session.call<PermissionState>(this.#path("/identities/{identity}/permission-state")),
      ]);
      this.#identity = (await this.#session.current()).identityId;
      this.config = config;
      this.#apply(current.purposes);
      this.#emit("assent-ready", this.#state);
      // Ask on arrival when a consent-based purpose has no answer for its current version.
      if (this.#consentPurposes.some((p) => !this.#answered(p))) this.open = true;
    } catch (error) {
      this.#session = undefined;
      this.#fail(error);
    }
  }

  /** A path under the project's privacy root (`{identity}` is filled in by the session). */
  #path(suffix: string) {
    return `/privacy/v2/projects/${encodeURIComponent(this.project)}${suffix}`;
  }

  #answered(purpose: Purpose) {
    return this.saved.some((s) => s.purposeId === purpose.purposeId);
  }

  /** Takes a permission state as the saved truth and sets every switch from it (unanswered ones off). */
  #apply(saved: StatePurpose[]) {
    this.saved = saved;
    const choices: Record<string, boolean> = {};
    for (const purpose of this.#consentPurposes) {
      const entry = saved.find((s) => s.purposeId === purpose.purposeId);
      choices[purpose.purposeId] = entry?.status === "approved";
      for (const kind of itemKinds) {
        for (const item of purpose[kind] as { dataGroupId?: string; partyId?: string }[]) {
          const grant = entry?.[kind].find((g) => idOf(g) === idOf(item));
          choices[`${purpose.purposeId} ${kind} ${idOf(item)}`] = (grant?.status ?? entry?.status) === "approved";
        }
      }
    }
    this.choices = choices;
  }

  /** Sets a purpose and everything under it; turning one item on turns its purpose on. */
  #toggle(key: string, on: boolean) {
    const choices = { ...this.choices, [key]: on };
    const [purposeId, kind] = key.split(" ");
    if (!kind) for (const k of Object.keys(choices)) if (k.startsWith(`${purposeId} `)) choices[k] = on;
    if (kind && on) choices[purposeId] = true;
    this.choices = choices;
  }

  #setAll(on: boolean) {
    for (const key of Object.keys(this.choices)) this.#toggle(key, on);
    void this.#save();
  }

  /** Request meta; `requestedBy` is left to the service, which records the token's client. */
  #meta() {
    const context: Record<string, string> = {
      collectionMethod: this.collectionMethod,
      application: this.application || location.hostname,
      language: this.#language,
    };
    if (this.internalReference) context.internalReference = this.internalReference;
    return { context };
  }

  /** Records a permission or objection request for this identity; the identity and meta come from the session. */
  async #post(family: "permissions" | "objections", request: unknown) {
    const auth = await this.#session!.current();
    await this.#session!.call(this.#path(`/${family}`), {
      method: "POST",
      body: JSON.stringify({ identityId: auth.identityId, requested: localTimestamp(), meta: this.#meta(), request }),
    });
  }

  async #save() {
    if (!this.#session || this.busy) return;
    this.busy = true;
    const status = (key: string): Status => (this.choices[key] ? "approved" : "denied");
    try {
      await this.#post("permissions", {
        purposes: this.#consentPurposes.map((p) => {
          const entry: Record<string, unknown> = {
            purposeId: p.purposeId,
            referenceId: p.referenceId,
            version: p.version,
            status: status(p.purposeId),
          };
          for (const kind of itemKinds) {
            entry[kind] = (p[kind] as { dataGroupId?: string; partyId?: string; referenceId: string }[]).map((item) => ({
              [kind === "dataGroups" ? "dataGroupId" : "partyId"]: idOf(item),
              referenceId: item.referenceId,
              status: status(`${p.purposeId} ${kind} ${idOf(item)}`),
            }));
          }
          return entry;
        }),
      });
      // Only what the service confirmed is reported as saved: read the state back.
      this.#apply((await this.#session.call<PermissionState>(this.#path("/identities/{identity}/permission-state"))).purposes);
      this.announcement = this.#text[SAVED];
      this.#emit("assent-change", this.#state);
      this.#close();
    } catch (error) {
      this.#fail(error);
    } finally {
      this.busy = false;
    }
  }

  async #object(purpose: Purpose) {
    try {
      await this.#post("objections", { purposes: [{ purposeId: purpose.purposeId }] });
      this.objected = { ...this.objected, [purpose.purposeId]: true };
      this.#emit("assent-change", this.#state);
    } catch (error) {
      this.#fail(error);
    }
  }

  /**
   * Escape (the dialog's `cancel`) closes through here, in step with `open`; `close` covers a dialog the
   * browser closes by itself (Chrome may skip a cancel without user activation).
   */
  #close() {
    this.open = false;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has("open") && this.open) {
      this.#opener = document.activeElement as HTMLElement | null;
      if (!this.#session) void this.#load();
    }
  }

  protected override updated(changed: PropertyValues<this>): void {
    if (!changed.has("open")) return;
    const dialog = this.#dialog;
    if (this.open && !dialog.open) {
      dialog.showModal();
    } else if (!this.open) {
      if (dialog.open) dialog.close();
      this.#opener?.focus();
    }
  }

  #focusables() {
    return [...this.#dialog.querySelectorAll<HTMLElement>("button,input,a[href],summary")].filter(
      (element) => element.getClientRects().length > 0,
    );
  }

  /** Keeps Tab inside the dialog (a modal dialog alone lets it reach the browser's own controls). */
  #onKeydown(event: KeyboardEvent) {
    if (event.key !== "Tab") return;
    const list = this.#focusables();
    const active = this.renderRoot instanceof ShadowRoot ? this.renderRoot.activeElement : null;
    const edge = event.shiftKey ? list[0] : list[list.length - 1];
    if (active === edge || !list.includes(active as HTMLElement)) {
      event.preventDefault();
      (event.shiftKey ? list[list.length - 1] : list[0])?.focus();
    }
  }

  #switchFor(key: string, label: string) {
    return html`<input
      type="checkbox"
      role="switch"
      part="switch"
      aria-label=${label}
      .checked=${!!this.choices[key]}
      @change=${(e: Event) => this.#toggle(key, (e.target as HTMLInputElement).checked)}
    />`;
  }

  #pick(texts?: Translation[]) {
    return pick(texts, this.#language, this.config?.project.defaultLanguage);
  }

  #links(policies: Policies = {}) {
    return (["privacy", "terms", "cookie"] as const).map((key, i) =>
      policies[key]
        ? html` <a part="link" href=${policies[key]!} target="_blank">${this.#text[POLICY + i]}</a>`
        : nothing,
    );
  }

  /** A data group or party in a purpose's details; `key` (kind and id) gives it a switch on consent purposes. */
  #item(purpose: Purpose, name: string, description?: Translation[], key?: string, policies?: Policies) {
    return html`<li class="item row">
      <div>${name}<small>${this.#pick(description)}${this.#links(policies)}</small></div>
      ${key && purpose.legalGround === "consent" ? this.#switchFor(`${purpose.purposeId} ${key}`, `${name}: ${purpose.name}`) : nothing}
    </li>`;
  }

  #section(heading: string, items: unknown[]) {
    return items.length ? html`<h4>${heading}</h4><ul>${items}</ul>` : nothing;
  }

  #renderPurpose(purpose: Purpose) {
    const t = this.#text;
    const consent = purpose.legalGround === "consent";
    return html`<li class="purpose" part="purpose">
      <div class="row">
        <div>
          <h3>${purpose.name}</h3>
          <span class="tag">${t[CONSENT + legalGrounds.indexOf(purpose.legalGround)]}</span>
          ${consent && !this.#answered(purpose) ? html`<span class="tag new">${t[PENDING]}</span>` : nothing}
        </div>
        ${consent
          ? this.#switchFor(purpose.purposeId, purpose.name)
          : this.objected[purpose.purposeId]
            ? html`<span role="status">${t[OBJECTED]}</span>`
            : html`<button part="button object" aria-label="${t[OBJECT]}: ${purpose.name}" @click=${() => this.#object(purpose)}>
                ${t[OBJECT]}
              </button>`}
      </div>
      <p class="desc">${this.#pick(purpose.description)}</p>
      <details part="details">
        <summary>${t[DETAILS]}</summary>
        ${this.#section(
          t[DATA],
          purpose.dataGroups.map((g) => this.#item(purpose, g.name, g.description, `dataGroups ${g.dataGroupId}`)),
        )}
        ${(["controllers", "processors", "recipients"] as const).map((kind, i) =>
          this.#section(
            t[CONTROLLERS + i],
            purpose[kind].map(({ partyId, details }) =>
              this.#item(purpose, details.name, details.description, kind === "controllers" ? "" : `${kind} ${partyId}`, details.policies),
            ),
          ),
        )}
      </details>
    </li>`;
  }

  protected override render() {
    const t = this.#text;
    const project = this.config?.project;
    return html`<p class="hidden" role="status">${this.announcement}</p>
      <dialog
        part="dialog"
        aria-modal="true"
        aria-labelledby="title"
        aria-describedby="intro"
        lang=${this.#language}
        @cancel=${(event: Event) => {
          event.preventDefault();
          this.#close();
        }}
        @close=${this.#close}
        @keydown=${this.#onKeydown}
      >
        <header>
          <h2 id="title" part="title">${t[TITLE]}</h2>
          <button class="x" part="close" aria-label=${t[CLOSE]} @click=${this.#close}>×</button>
        </header>
        <div class="body">
          <p id="intro">
            ${t[INTRO].replace("{c}", project?.controller?.name ?? project?.name ?? "")}
            ${this.#links(project?.policies)}
          </p>
          ${this.#gpc && this.#consentPurposes.length ? html`<p class="note" part="notice">${t[GPC]}</p>` : nothing}
          ${this.failed
            ? html`<p class="note error" part="notice" role="alert">
                ${t[DOWN]} <button @click=${() => (this.config ? this.#save() : this.#load())}>${t[RETRY]}</button>
              </p>`
            : nothing}
          <ul>
            ${this.config?.purposes.map((p) => this.#renderPurpose(p))}
          </ul>
        </div>
        <footer part="footer">
          <button part="button reject" ?disabled=${!this.config || this.busy} @click=${() => this.#setAll(false)}>${t[REJECT]}</button>
          <button part="button save" ?disabled=${!this.config || this.busy} @click=${this.#save}>${t[SAVE]}</button>
          <button part="button accept" ?disabled=${!this.config || this.busy} @click=${() => this.#setAll(true)}>${t[ACCEPT]}</button>
        </footer>
      </dialog>`;
  }
}
