import { html, LitElement, nothing, type TemplateResult } from "lit";
import { CenterApi, type Channel, type Decision, type Kind, type Page, type Person, type PersonRequest } from "./api";
import { challengeAsked, solveChallenge } from "./challenge";
import { fetchKeys, verifyReceipt, type Checked } from "./receipts";
import { styles } from "./styles";
import { fillIn } from "../../shared/i18n/fill";

/** The script's own URL: the default API origin (as the widget finds its own). */
const scriptUrl = import.meta.url;
const kinds: Kind[] = ["access", "portability", "erasure", "objection"];


/**
 * `<assent-privacy-center project="prj_…">`: the data subject's own door. The browser's decisions with their receipts
 * (checked in the page against the service's keys) and a way to change them (the consent widget's preferences); then,
 * after a one-time code, the person's identity, requests, deadlines and downloads, and new requests.
 */
export class AssentPrivacyCenter extends LitElement {
  static override styles = styles;
  static override properties = {
    project: { type: String },
    api: { type: String },
    challengeSiteKey: { type: String, attribute: "challenge-site-key" },
    state: { state: true },
  };

  project = "";
  api = "";
  /** The deployment's Turnstile site key (the hosted page sets it from TURNSTILE_SITE_KEY); a challenge's own wins. */
  challengeSiteKey = "";
  state: {
    page?: Page;
    error?: string;
    browser?: Decision[];
    checks: Map<string, Checked>;
    channel?: Channel;
    address: string;
    codeSent: boolean;
    person?: Person;
    filed?: boolean;
    busy: boolean;
  } = { checks: new Map(), address: "", codeSent: false, busy: false };

  #center?: CenterApi;
  #keys?: Promise<JsonWebKey[]>;

  get #words() {
    return this.state.page!.strings;
  }

  #set(patch: Partial<AssentPrivacyCenter["state"]>) {
    this.state = { ...this.state, ...patch };
  }

  override async connectedCallback() {
    super.connectedCallback();
    const api = this.api || new URL(scriptUrl).origin;
    this.#center = new CenterApi(api, this.project);
    this.#keys = fetchKeys(api).catch(() => []);
    try {
      const page = await this.#center.page(navigator.languages ?? [navigator.language]);
      for (const [property, value] of Object.entries(page.theme)) this.style.setProperty(property, value);
      this.lang = page.language;
      this.dir = page.dir;
      this.#set({ page, channel: page.channels[0] });
      await this.#loadBrowser();
    } catch (error) {
      this.#set({ error: (error as Error).message || "The privacy service could not be reached." });
    }
  }

  async #loadBrowser() {
    const browser = await this.#center!.browserDecisions().catch(() => undefined);
    this.#set({ browser });
    await this.#check(browser ?? []);
  }

  async #check(decisions: Decision[]) {
    const keys = await this.#keys!;
    const checks = new Map(this.state.checks);
    for (const decision of decisions) if (decision.receipt) checks.set(decision.requestId, await verifyReceipt(decision.receipt, keys));
    this.#set({ checks });
  }

  /** Opens the consent widget's preferences (loading the widget if the page has none), then shows the new decisions. */
  async #change() {
    let widget = document.querySelector("assent-consent") as (HTMLElement & { show(): void }) | null;
    if (!widget) {
      await import(/* @vite-ignore */ `${this.#center!.api}/widget/assent.js`);
      const ready = new Promise((resolve) => {
        document.addEventListener("assent-ready", resolve, { once: true });
        document.addEventListener("assent-error", resolve, { once: true });
      });
      widget = document.createElement("assent-consent") as HTMLElement & { show(): void };
      widget.setAttribute("project", this.project);
      widget.setAttribute("api", this.#center!.api);
      document.body.append(widget);
      await ready;
    }
    document.addEventListener("assent-change", () => void this.#loadBrowser(), { once: true });
    widget.show();
  }

  async #run(task: () => Promise<void>) {
    this.#set({ busy: true, error: undefined });
    try {
      await task();
    } catch (error) {
      this.#set({ error: (error as Error).message });
    } finally {
      this.#set({ busy: false });
    }
  }

  /**
   * `call`, and when the service asks for a challenge instead (403 `challenge_required`): Turnstile rendered in the
   * element's `challenge` slot (in the page's own DOM, where Turnstile's frame works), then `call` again with its token.
   */
  async #withChallenge(call: (challenge?: string) => Promise<void>) {
    try {
      await call();
    } catch (error) {
      const siteKey = challengeAsked(error, this.challengeSiteKey);
      if (!siteKey) throw error;
      const slot = document.createElement("div");
      slot.slot = "challenge";
      this.append(slot);
      try {
        await call(await solveChallenge(slot, siteKey));
      } finally {
        slot.remove();
      }
    }
  }

  #sendCode(event: Event) {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    const address = String(form.get("address") ?? "").trim();
    void this.#run(async () => {
      await this.#withChallenge((challenge) => this.#center!.requestCode(this.state.channel!, address, challenge).then(() => {}));
      this.#set({ address, codeSent: true });
    });
  }

  #verify(event: Event) {
    event.preventDefault();
    const code = String(new FormData(event.target as HTMLFormElement).get("code") ?? "").trim();
    void this.#run(async () => {
      await this.#withChallenge((challenge) => this.#center!.verify(this.state.channel!, this.state.address, code, challenge));
      await this.#refreshPerson();
    });
  }

  async #refreshPerson() {
    const person = await this.#center!.person();
    this.#set({ person });
    await this.#check(person.decisions);
  }

  #file(event: Event) {
    event.preventDefault();
    const element = event.target as HTMLFormElement;
    const form = new FormData(element);
    const kind = form.get("kind") as Kind;
    void this.#run(async () => {
      await this.#center!.file(kind, form.getAll("purpose").map(String));
      element.reset();
      this.#set({ filed: true });
      await this.#refreshPerson();
    });
  }

  #when = (iso: string) => new Date(iso).toLocaleString(this.state.page?.language, { dateStyle: "medium", timeStyle: "short" });
  #day = (iso: string) => new Date(iso).toLocaleDateString(this.state.page?.language, { dateStyle: "long" });

  #purposeName = (id: string) => this.state.page?.purposes.find((p) => p.purposeId === id)?.name ?? id;

  #decision(decision: Decision): TemplateResult {
    const w = this.#words;
    const check = this.state.checks.get(decision.requestId);
    const purposes = ((decision.request?.purposes ?? []) as { purposeId: string; status?: string }[]).map(
      (p) => `${this.#purposeName(p.purposeId)}: ${decision.family === "objection" ? w.object : p.status === "approved" ? "✓" : "✗"}`,
    );
    return html`<li data-request=${decision.requestId}>
      <div class="row"><span>${purposes.join(" · ")}</span><span class="muted">${this.#when(decision.requested)}</span></div>
      ${decision.receipt
        ? html`<span class="badge ${check?.valid ? "ok" : check ? "bad" : ""}" data-receipt=${check ? (check.valid ? "valid" : "invalid") : "checking"}
            >${check ? (check.valid ? `✓ ${w.receiptVerified}` : `✗ ${w.receiptInvalid}`) : "…"}</span
          >`
        : nothing}
    </li>`;
  }

  #request(request: PersonRequest): TemplateResult {
    const w = this.#words;
    const open = request.status === "received" || request.status === "in_progress";
    return html`<li data-request=${request.requestId} data-kind=${request.kind}>
      <div class="row">
        <strong>${w[request.kind]}</strong>
        <span class="badge" data-status=${request.status}>${w[request.status] ?? request.status}</span>
      </div>
      <p class="muted">${this.#when(request.created)}</p>
      ${open
        ? html`<p>${fillIn(w.deadline, { d: this.#day(request.deadline) })}</p>
            <p class="muted">${fillIn(w.extension, { c: this.state.page!.controller, d: this.#day(request.deadline) })}</p>`
        : nothing}
      ${request.download
        ? html`<p><a href=${request.download.url} download>${w.download}</a> <span class="muted">${fillIn(w.downloadUntil, { d: this.#when(request.download.expires) })}</span></p>`
        : nothing}
    </li>`;
  }

  #identify(page: Page): TemplateResult {
    const w = this.#words;
    const { channel, codeSent, busy } = this.state;
    if (page.channels.length === 0) return html``;
    return html`<section aria-labelledby="identify">
      <h2 id="identify">${w.identify}</h2>
      <p class="muted">${w.identifyIntro}</p>
      ${page.channels.length > 1
        ? html`<fieldset>
            ${page.channels.map(
              (c) => html`<label class="choice"><input type="radio" name="channel" .checked=${c === channel} @change=${() => this.#set({ channel: c, codeSent: false })} />${c === "email" ? w.email : w.phone}</label>`,
            )}
          </fieldset>`
        : nothing}
      <form @submit=${this.#sendCode}>
        <label for="address">${channel === "email" ? w.email : w.phone}</label>
        <input id="address" name="address" required type=${channel === "email" ? "email" : "tel"} autocomplete=${channel === "email" ? "email" : "tel"} />
        <button ?disabled=${busy}>${w.sendCode}</button>
      </form>
      <slot name="challenge"></slot>
      ${codeSent
        ? html`<p role="status">${w.codeSent}</p>
            <form @submit=${this.#verify}>
              <label for="code">${w.code}</label>
              <input id="code" name="code" required inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" type="text" />
              <button ?disabled=${busy}>${w.verify}</button>
            </form>`
        : nothing}
    </section>`;
  }

  #personView(person: Person): TemplateResult {
    const w = this.#words;
    const method = person.verification.method === "sms" ? w.methodSms : w.methodEmail;
    return html`<section aria-labelledby="you">
        <h2 id="you">${fillIn(w.verifiedBy, { m: method, t: this.#when(person.verification.verifiedAt) })}</h2>
        ${person.identity
          ? html`<p>${w.addressNames}</p>
              <ul class="aliases">
                ${person.identity.aliases.map((a) => html`<li data-alias=${a.type}><code>${a.type}</code> <span>${a.identifier}</span></li>`)}
              </ul>
              <ul>
                ${person.decisions.map((d) => this.#decision(d))}
              </ul>`
          : html`<p data-empty>${w.noIdentity}</p>`}
      </section>
      ${person.identity
        ? html`<section aria-labelledby="requests">
            <h2 id="requests">${w.yourRequests}</h2>
            ${person.requests.length ? html`<ul>${person.requests.map((r) => this.#request(r))}</ul>` : html`<p class="muted">${w.noRequests}</p>`}
            <form @submit=${this.#file}>
              <fieldset>
                ${kinds.map((kind, i) => html`<label class="choice"><input type="radio" name="kind" value=${kind} ?checked=${i === 0} />${w[kind]}</label>`)}
              </fieldset>
              <fieldset>
                <legend>${w.objectionPurposes}</legend>
                ${this.state.page!.purposes.map((p) => html`<label class="choice"><input type="checkbox" name="purpose" value=${p.purposeId} />${p.name}</label>`)}
              </fieldset>
              <button ?disabled=${this.state.busy}>${w.send}</button>
              ${this.state.filed ? html`<p role="status">${w.requestSent}</p>` : nothing}
            </form>
          </section>`
        : nothing}`;
  }

  override render() {
    const { page, error, browser, person } = this.state;
    if (!page) return error ? html`<p role="alert">${error}</p>` : html`<p aria-busy="true">…</p>`;
    const w = this.#words;
    return html`<header>
        <h1>${w.heading}</h1>
        <p>${fillIn(w.intro, { c: page.controller })}</p>
        ${page.policies.privacy ? html`<p><a href=${page.policies.privacy}>${w.privacyPolicy}</a></p>` : nothing}
      </header>
      <section aria-labelledby="choices">
        <h2 id="choices">${w.yourChoices}</h2>
        ${browser?.length ? html`<ul>${browser.map((d) => this.#decision(d))}</ul>` : html`<p class="muted">${w.noChoices}</p>`}
        <button class="secondary" @click=${() => void this.#change()}>${w.changeChoices}</button>
      </section>
      ${person ? this.#personView(person) : this.#identify(page)}
      ${error ? html`<p role="alert">${error}</p>` : nothing}`;
  }
}

if (!customElements.get("assent-privacy-center")) customElements.define("assent-privacy-center", AssentPrivacyCenter);

declare global {
  interface HTMLElementTagNameMap {
    "assent-privacy-center": AssentPrivacyCenter;
  }
}
