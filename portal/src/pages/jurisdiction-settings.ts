import { html, nothing } from "lit";
import { customElement, property, state } from "lit/decorators.js";
import { api, ApiProblem, ok } from "../api";
import { regimes, type ConsentModeSettings, type JurisdictionPreset, type JurisdictionRules, type Project, type Regime } from "../types";
import { ActionElement, loadingView, notify, problemView } from "../ui";

type Rules = JurisdictionRules & { preset: string | null };

/** One rule per line, `AREA regime`: short to read and to edit, and the API's errors name the line (rules.N). */
const rulesText = (rules: JurisdictionRules) => rules.rules.map((r) => `${r.area} ${r.regime}`).join("\n");
const parseRules = (text: string) =>
  text
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [area = "", regime = ""] = line.split(/[\s:=]+/);
      return { area: area.toUpperCase(), regime: regime.toLowerCase() as Regime };
    });

/** The API names a rule by its index (`rules.3.area`); the operator sees lines. */
function byLine(error: unknown) {
  if (!(error instanceof ApiProblem)) return error;
  const errors = error.errors.map((e) => ({ ...e, path: e.path.replace(/^rules\.(\d+)\.(\w+)$/, (_, n: string, field: string) => `Line ${Number(n) + 1} (${field})`) }));
  return new ApiProblem(error.status, error.code, error.title, error.detail, errors);
}

/** The settings page's section for where which regime applies, and Google Consent Mode. */
@customElement("ap-jurisdiction-settings")
export class JurisdictionSettings extends ActionElement {
  @property({ attribute: false }) project!: Project;
  @state() private rules: Rules | null = null;
  @state() private presets: JurisdictionPreset[] = [];
  @state() private consentMode: ConsentModeSettings | null = null;
  @state() private loadError: unknown = null;
  @state() private consentModeError: unknown = null;
  @state() private draft = "";
  @state() private rest: Regime = "notice";

  override connectedCallback() {
    super.connectedCallback();
    void this.load();
  }

  private async load() {
    try {
      const params = { project_id: this.project.projectId };
      const [rules, presets, consentMode] = await Promise.all([
        ok(api.GET("/admin/v1/projects/{project_id}/jurisdictions", { params: { path: params } })),
        ok(api.GET("/admin/v1/jurisdiction-presets")),
        ok(api.GET("/admin/v1/projects/{project_id}/consent-mode", { params: { path: params } })),
      ]);
      this.show(rules);
      this.presets = presets.items;
      this.consentMode = consentMode;
    } catch (error) {
      this.loadError = error;
    }
  }

  private show(rules: Rules) {
    this.rules = rules;
    this.draft = rulesText(rules);
    this.rest = rules.rest;
  }

  private applyPreset(name: string) {
    const preset = this.presets.find((p) => p.name === name);
    if (!preset) return;
    this.draft = rulesText(preset.rules);
    this.rest = preset.rules.rest;
  }

  private async saveRules(e: SubmitEvent) {
    e.preventDefault();
    await this.run(async () => {
      try {
        const saved = await ok(api.PUT("/admin/v1/projects/{project_id}/jurisdictions", {
          params: { path: { project_id: this.project.projectId } },
          // The period a refusal stands is kept as read (the page does not edit it).
          body: { rules: parseRules(this.draft), rest: this.rest, refusalStandsSeconds: this.rules?.refusalStandsSeconds },
        }));
        this.show(saved);
        notify("Jurisdiction rules saved.");
      } catch (error) {
        throw byLine(error);
      }
    });
  }

  private async saveConsentMode(e: SubmitEvent) {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    this.consentModeError = null;
    try {
      this.consentMode = await ok(api.PUT("/admin/v1/projects/{project_id}/consent-mode", {
        params: { path: { project_id: this.project.projectId } },
        body: {
          enabled: data.has("enabled"),
          waitForUpdate: Number(data.get("waitForUpdate")),
          urlPassthrough: data.has("urlPassthrough"),
          adsDataRedaction: data.has("adsDataRedaction"),
        },
      }));
      notify("Consent Mode settings saved.");
    } catch (error) {
      this.consentModeError = error;
    }
  }

  protected override render() {
    if (this.loadError) return problemView(this.loadError, "The jurisdiction settings could not be loaded");
    if (!this.rules || !this.consentMode) return loadingView("jurisdiction settings");
    const cm = this.consentMode;
    return html`<form class="card" @submit=${this.saveRules} novalidate aria-labelledby="jurisdictions-title">
        <h3 id="jurisdictions-title">Jurisdictions</h3>
        <p class="hint">
          Which regime the widget applies where, decided at the edge from the visitor's country and region: opt-in
          (nothing that needs consent runs first), opt-out ("Do not sell or share"; GPC is recorded as that opt-out) or
          a notice. The most specific area wins: US-CA, then a country, then EEA or UK.
          ${this.rules.preset ? html`Now: the <strong>${this.presets.find((p) => p.name === this.rules!.preset)?.title}</strong> preset.` : nothing}
        </p>
        ${problemView(this.formError, "The rules were not saved")}
        <div class="field">
          <label for="jurisdiction-preset">Start from a preset</label>
          <select id="jurisdiction-preset" @change=${(e: Event) => this.applyPreset((e.target as HTMLSelectElement).value)}>
            <option value="">Choose…</option>
            ${this.presets.map((p) => html`<option value=${p.name} title=${p.description}>${p.title}</option>`)}
          </select>
        </div>
        <div class="field">
          <label for="jurisdiction-rules">Rules, one per line: area and regime</label>
          <span class="hint" id="jurisdiction-rules-hint">Areas: EEA, UK, a country (CH) or a region (US-CA); regimes: opt-in, opt-out, notice.</span>
          <textarea
            id="jurisdiction-rules"
            rows="8"
            spellcheck="false"
            aria-describedby="jurisdiction-rules-hint"
            .value=${this.draft}
            @input=${(e: Event) => (this.draft = (e.target as HTMLTextAreaElement).value)}
          ></textarea>
        </div>
        <div class="field">
          <label for="jurisdiction-rest">Everywhere else</label>
          <select id="jurisdiction-rest" @change=${(e: Event) => (this.rest = (e.target as HTMLSelectElement).value as Regime)}>
            ${regimes.map((r) => html`<option value=${r} ?selected=${this.rest === r}>${r}</option>`)}
          </select>
        </div>
        <div class="actions"><button class="button primary" type="submit" ?disabled=${this.busy}>Save rules</button></div>
      </form>
      <form class="card" @submit=${this.saveConsentMode} novalidate aria-labelledby="consent-mode-title">
        <h3 id="consent-mode-title">Google Consent Mode v2</h3>
        <p class="hint">For sites with Google tags: the widget sets region-scoped defaults from the rules above and an update on every decision. Which types a purpose grants is set on the purpose.</p>
        ${problemView(this.consentModeError, "The Consent Mode settings were not saved")}
        <label class="choice"><input type="checkbox" name="enabled" ?checked=${cm.enabled} /> Send Consent Mode to Google tags</label>
        <div class="field">
          <label for="consent-mode-wait">Wait for update (milliseconds)</label>
          <input id="consent-mode-wait" name="waitForUpdate" type="number" min="0" max="10000" step="50" .value=${String(cm.waitForUpdate)} />
        </div>
        <label class="choice"><input type="checkbox" name="urlPassthrough" ?checked=${cm.urlPassthrough} /> URL passthrough</label>
        <label class="choice"><input type="checkbox" name="adsDataRedaction" ?checked=${cm.adsDataRedaction} /> Redact ads data while ad storage is denied</label>
        <div class="actions"><button class="button primary" type="submit">Save Consent Mode</button></div>
      </form>`;
  }
}
