import { html, nothing } from "lit";
import { customElement, property, state } from "lit/decorators.js";
import { api, ApiProblem, ok, session } from "../../api";
import { pageHead } from "../../parts";
import type { Project } from "../../types";
import { ActionElement, loadingView, notify, problemView, several } from "../../ui";
import { chooser } from "./chooser";
import {
  activeVendors,
  consentOnlyPurposes,
  toggled,
  type AtpList,
  type Gvl,
  type GvlVendor,
  type TcfSettings,
} from "./model";
import { previewView } from "./preview";
import { firstLayer } from "../../../../shared/tcf/first-layer";
import { restrictionsCard } from "./restrictions";

/** Where on the page a refusal of the service belongs: the field its `code` is about (docs/tcf.md#a-projects-settings). */
type Part = "cmp" | "vendors" | "restrictions" | "publisher" | "providers" | "page";
const partOf = (problem: ApiProblem, settings: TcfSettings): Part => {
  const purposes = (problem.members.purposes as number[] | undefined) ?? [];
  const own = [...settings.publisherPurposes.consent, ...settings.publisherPurposes.legitimateInterest];
  switch (problem.code) {
    case "cmp_id_required":
      return "cmp";
    case "unknown_vendors":
      return "vendors";
    case "unknown_ac_providers":
    case "provider_list_unavailable":
      return "providers";
    case "restriction_vendor_not_selected":
    case "restriction_conflict":
      return "restrictions";
    case "unknown_purposes":
    case "legitimate_interest_not_allowed":
      return purposes.some((p) => own.includes(p)) ? "publisher" : "restrictions";
    default:
      return "page";
  }
};

const vendorDeclares = (v: GvlVendor) =>
  [
    v.purposes.length ? `consent: ${v.purposes.join(", ")}` : "",
    v.legIntPurposes.length ? `legitimate interest: ${v.legIntPurposes.join(", ")}` : "",
    v.specialFeatures.length ? `special features: ${v.specialFeatures.join(", ")}` : "",
  ]
    .filter(Boolean)
    .join("; ") || "no purposes";

/**
 * A project's TCF settings (docs/tcf.md#the-portals-tcf-page): the CMP id, the GVL vendors the publisher works with,
 * publisher restrictions and purposes, Google's ATP providers, and what the dialog's first layer will say. One PUT
 * saves them all; the service checks them against the lists it hosts and a refusal shows beside its field.
 */
@customElement("ap-tcf")
export class TcfPage extends ActionElement {
  @property({ attribute: false }) project!: Project;
  @state() private settings: TcfSettings | null = null;
  /** null: the service holds none yet (the cron has not fetched it). */
  @state() private gvl: Gvl | null | undefined = undefined;
  @state() private atp: AtpList | null | undefined = undefined;
  @state() private loadError: unknown = null;
  /** A refusal of the service, and the part of the page it is about. */
  @state() private refusal: { part: Part; problem: unknown } | null = null;
  /** Set when the member's role lacks `projects:write` (from the session), or the service refused a save for it: the page is then read-only. */
  @state() private readOnly = false;
  @state() private vendorQuery = "";
  @state() private onlySelectedVendors = false;
  @state() private providerQuery = "";
  @state() private onlySelectedProviders = false;

  override connectedCallback() {
    super.connectedCallback();
    void this.load();
  }

  private async load() {
    /** A list the cron has not fetched yet answers 404: the page says so rather than failing. */
    const list = <T>(request: Promise<{ data?: unknown; error?: unknown; response: Response }>) =>
      ok(request).then(
        (document) => document as T,
        (error: unknown) => {
          if (error instanceof ApiProblem && error.status === 404) return null;
          throw error;
        },
      );
    try {
      const [settings, gvl, atp, writable] = await Promise.all([
        ok(api.GET("/admin/v1/projects/{project_id}/tcf", { params: { path: { project_id: this.project.projectId } } })),
        list<Gvl>(api.GET("/tcf/v3/vendor-list.json")),
        list<AtpList>(api.GET("/tcf/atp/additional-consent-providers.json")),
        session.holds("projects:write", this.project.projectId),
      ]);
      this.readOnly = !writable;
      this.settings = settings;
      this.gvl = gvl;
      this.atp = atp;
    } catch (error) {
      this.loadError = error;
    }
  }

  private change(edit: (s: TcfSettings) => Partial<TcfSettings>) {
    if (this.settings) this.settings = { ...this.settings, ...edit(this.settings) };
  }

  private async save(e: SubmitEvent) {
    e.preventDefault();
    const body = this.settings;
    if (!body) return;
    this.refusal = null;
    const saved = await this.run(async () => {
      this.settings = await ok(api.PUT("/admin/v1/projects/{project_id}/tcf", { params: { path: { project_id: this.project.projectId } }, body }));
    });
    if (saved) return notify("TCF settings saved.");
    const problem = this.formError;
    this.formError = null;
    if (problem instanceof ApiProblem && problem.status === 403) this.readOnly = true;
    this.refusal = { part: problem instanceof ApiProblem ? partOf(problem, body) : "page", problem };
  }

  private refused(part: Part) {
    return this.refusal?.part === part ? problemView(this.refusal.problem, "Not saved") : nothing;
  }

  protected override render() {
    const head = pageHead(
      "IAB TCF",
      "The Transparency and Consent Framework for sites with programmatic ads: the vendors of IAB's Global Vendor List this site works with, publisher restrictions, Google's Ad Tech Providers, and what the dialog's first layer will say (docs/tcf.md).",
    );
    if (this.loadError) return html`${head}${problemView(this.loadError, "The TCF settings could not be loaded")}`;
    if (!this.settings || this.gvl === undefined || this.atp === undefined) return html`${head}${loadingView("the TCF settings")}`;
    const s = this.settings;
    return html`${head}
      ${this.readOnly
        ? html`<p class="notice" role="status">Your role may read these settings but not change them: that needs <code>projects:write</code> (admins and owners).</p>`
        : nothing}
      ${this.gvl === null
        ? html`<div class="notice" role="status">
            <strong>The service holds no Global Vendor List yet.</strong>
            <p>
              It fetches IAB's list only for a deployment where a project has TCF on: turn TCF on and save, and the list is
              fetched at once (reload in a minute); until then vendors, restrictions and purposes cannot be chosen. Where
              the lists come from (<code>TCF_GVL_BASE_URL</code>) and the alert when they fail: docs/tcf.md, <em>The hosted lists</em>.
            </p>
          </div>`
        : nothing}
      <form @submit=${this.save} novalidate aria-label="TCF settings">
        ${this.refused("page")} ${this.cmpCard(s)} ${this.gvl ? this.vendorsCard(this.gvl, s) : nothing}
        ${this.gvl ? restrictionsCard({ gvl: this.gvl, settings: s, readOnly: this.readOnly, refused: this.refused("restrictions"), change: (edit) => this.change(edit) }) : nothing} ${this.gvl ? this.publisherCard(this.gvl, s) : nothing}
        ${this.providersCard(s)} ${this.gvl ? previewView(firstLayer(this.gvl, s)) : nothing}
        <div class="actions">
          <button class="button primary" type="submit" ?disabled=${this.busy || this.readOnly}>Save TCF settings</button>
        </div>
      </form>`;
  }

  private cmpCard(s: TcfSettings) {
    const number = (id: string, label: string, value: number, set: (n: number) => Partial<TcfSettings>, hint: string) =>
      html`<div class="field">
        <label for=${id}>${label}</label>
        <span class="hint" id="${id}-hint">${hint}</span>
        <input id=${id} type="number" min="0" max="4095" step="1" aria-describedby="${id}-hint" .value=${String(value)} ?disabled=${this.readOnly}
          @input=${(e: Event) => this.change(() => set(Number((e.target as HTMLInputElement).value)))} />
      </div>`;
    return html`<section class="card" aria-labelledby="tcf-cmp-title">
      <h3 id="tcf-cmp-title">The CMP</h3>
      ${this.refused("cmp")}
      <label class="choice"
        ><input type="checkbox" .checked=${s.enabled} ?disabled=${this.readOnly} @change=${(e: Event) => this.change(() => ({ enabled: (e.target as HTMLInputElement).checked }))} />
        The widget acts as a TCF CMP on this project's pages</label
      >
      ${number("tcf-cmp-id", "CMP id", s.cmpId, (cmpId) => ({ cmpId }), "The id IAB Europe registered for you as a CMP; 0 only in local development (docs/tcf.md, Registration).")}
      ${number("tcf-cmp-version", "CMP version", s.cmpVersion, (cmpVersion) => ({ cmpVersion }), "The version you registered; raise it when the dialog changes.")}
    </section>`;
  }

  private vendorsCard(gvl: Gvl, s: TcfSettings) {
    return html`<section class="card" aria-labelledby="tcf-vendors-title">
      <h3 id="tcf-vendors-title">Vendors</h3>
      <p class="hint">The vendors of the Global Vendor List v${gvl.vendorListVersion} this site works with: the dialog lists them and the TC string discloses them.</p>
      ${this.refused("vendors")}
      ${chooser({
        id: "tcf-vendors",
        noun: "vendor",
        items: activeVendors(gvl),
        selected: s.vendors,
        query: this.vendorQuery,
        onlySelected: this.onlySelectedVendors,
        readOnly: this.readOnly,
        onQuery: (q) => (this.vendorQuery = q),
        onOnlySelected: (on) => (this.onlySelectedVendors = on),
        onToggle: (id, on) =>
          this.change((v) => ({
            vendors: toggled(v.vendors, id, on),
            // A restriction names only selected vendors (the service refuses others).
            publisherRestrictions: on ? v.publisherRestrictions : v.publisherRestrictions.map((r) => ({ ...r, vendors: r.vendors.filter((x) => x !== id) })).filter((r) => r.vendors.length),
          })),
        detail: vendorDeclares,
      })}
    </section>`;
  }

  private publisherCard(gvl: Gvl, s: TcfSettings) {
    const own = s.publisherPurposes;
    const box = (purpose: number, basis: "consent" | "legitimateInterest", label: string) =>
      html`<label class="choice"
        ><input
          type="checkbox"
          ?disabled=${this.readOnly || (basis === "legitimateInterest" && consentOnlyPurposes.has(purpose))}
          .checked=${own[basis].includes(purpose)}
          @change=${(e: Event) =>
            this.change((v) => ({ publisherPurposes: { ...v.publisherPurposes, [basis]: toggled(v.publisherPurposes[basis], purpose, (e.target as HTMLInputElement).checked) } }))}
        />
        ${label}</label
      >`;
    return html`<section class="card" aria-labelledby="tcf-publisher-title">
      <h3 id="tcf-publisher-title">Publisher purposes</h3>
      <p class="hint">The purposes this site processes itself, written as the TC string's publisher segment. Legitimate interest is never allowed for purposes 1, 3, 4, 5 and 6.</p>
      ${this.refused("publisher")}
      ${Object.values(gvl.purposes).map(
        (p) => html`<fieldset class="tcf-purpose">
          <legend>${p.id}. ${p.name}</legend>
          ${box(p.id, "consent", "On consent")} ${box(p.id, "legitimateInterest", "On legitimate interest")}
        </fieldset>`,
      )}
    </section>`;
  }

  private providersCard(s: TcfSettings) {
    return html`<section class="card" aria-labelledby="tcf-providers-title">
      <h3 id="tcf-providers-title">Google's Ad Tech Providers</h3>
      <p class="hint">Providers of Google's ATP list that are not registered with IAB: the AC string (Additional Consent Mode) names them.</p>
      ${this.refused("providers")}
      ${this.atp === null
        ? html`<p class="notice" role="status">The service holds no ATP list yet: it fetches Google's list once a project has TCF on (docs/tcf.md, <em>The hosted lists</em>).</p>`
        : chooser({
            id: "tcf-providers",
            noun: "provider",
            items: this.atp!.providers,
            selected: s.acProviders,
            query: this.providerQuery,
            onlySelected: this.onlySelectedProviders,
            readOnly: this.readOnly,
            onQuery: (q) => (this.providerQuery = q),
            onOnlySelected: (on) => (this.onlySelectedProviders = on),
            onToggle: (id, on) => this.change((v) => ({ acProviders: toggled(v.acProviders, id, on) })),
            detail: (p) => p.policyUrl,
          })}
      ${s.acProviders.length ? html`<p class="small">${several(s.acProviders.length, "provider")} in the AC string.</p>` : nothing}
    </section>`;
  }
}
