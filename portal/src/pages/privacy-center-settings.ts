import { html } from "lit";
import { customElement, property, state } from "lit/decorators.js";
import type { Schemas } from "../../../shared/api/operations";
import { api, ok } from "../api";
import type { Project } from "../types";
import { ActionElement, loadingView, notify, problemView } from "../ui";

type Settings = Schemas["PrivacyCenterSettings"];
const channels = [
  { id: "email", label: "Email", defaultType: "urn:svc:email" },
  { id: "sms", label: "SMS", defaultType: "urn:svc:phone" },
] as const;

/**
 * The theme's fields: the custom properties the privacy center's styles read (privacy-center/src/styles.ts), with
 * their defaults there as examples. An empty field leaves the property unset; the API checks each value.
 */
const themeFields = [
  { property: "--assent-accent", label: "Accent colour", about: "buttons, links and focus rings", example: "#2f45c5" },
  { property: "--assent-on-accent", label: "Text on the accent colour", about: "button labels", example: "#fff" },
  { property: "--assent-text", label: "Text colour", about: "body text", example: "#1c1e26" },
  { property: "--assent-muted", label: "Secondary text colour", about: "dates and notes", example: "#5a5f73" },
  { property: "--assent-surface", label: "Card background", about: "the sections' background", example: "#fff" },
  { property: "--assent-radius", label: "Corner radius", about: "the sections' corners", example: "10px" },
  { property: "--assent-font", label: "Font", about: "a CSS font list", example: "system-ui, sans-serif" },
] as const;

/** The theme the form holds: its fields' values over the properties set otherwise (through the API), which it keeps. */
function themeOf(form: FormData, saved: Settings["theme"]): Settings["theme"] {
  const theme: Settings["theme"] = Object.fromEntries(Object.entries(saved).filter(([property]) => !themeFields.some((f) => f.property === property)));
  for (const { property } of themeFields) {
    const value = String(form.get(property) ?? "").trim();
    if (value) theme[property] = value;
  }
  return theme;
}

/** The settings page's section for the privacy center: which aliases people may verify, how long records stay, the theme. */
@customElement("ap-privacy-center-settings")
export class PrivacyCenterSettings extends ActionElement {
  @property({ attribute: false }) project!: Project;
  @state() private settings: Settings | null = null;
  @state() private loadError: unknown = null;

  override connectedCallback() {
    super.connectedCallback();
    void ok(api.GET("/admin/v1/projects/{project_id}/privacy-center", { params: { path: { project_id: this.project.projectId } } })).then(
      (settings) => (this.settings = settings),
      (error) => (this.loadError = error),
    );
  }

  private async save(e: SubmitEvent) {
    e.preventDefault();
    const form = new FormData(e.target as HTMLFormElement);
    const chosen = Object.fromEntries(
      channels.filter((c) => form.get(`${c.id}-on`)).map((c) => [c.id, { aliasType: String(form.get(`${c.id}-type`) || c.defaultType) }]),
    );
    const body: Settings = { channels: chosen, retentionDays: Number(form.get("retention")), theme: themeOf(form, this.settings!.theme) };
    if (await this.run(async () => {
      this.settings = await ok(api.PUT("/admin/v1/projects/{project_id}/privacy-center", { params: { path: { project_id: this.project.projectId } }, body }));
    })) notify("Privacy center settings saved.");
  }

  protected override render() {
    if (this.loadError) return problemView(this.loadError, "The privacy center settings could not be loaded");
    if (!this.settings) return loadingView("privacy center settings");
    const s = this.settings;
    const page = `${location.origin}/privacy-center/${this.project.projectId}`;
    return html`<form class="card" @submit=${this.save} novalidate aria-labelledby="privacy-center-title">
      <h3 id="privacy-center-title">Privacy center</h3>
      <p>
        Data subjects verify an email address or phone number with a one-time code, then see their data and file access,
        erasure and objection requests themselves: <a href=${page}>${page}</a>.
      </p>
      ${problemView(this.formError, "The privacy center settings were not saved")}
      ${channels.map(
        (c) => html`<fieldset class="field">
          <legend>${c.label}</legend>
          <label class="choice"><input type="checkbox" name="${c.id}-on" ?checked=${Boolean(s.channels[c.id])} /> People may verify by ${c.label}</label>
          <label for="${c.id}-type">Alias type looked up</label>
          <input id="${c.id}-type" name="${c.id}-type" type="text" .value=${s.channels[c.id]?.aliasType ?? c.defaultType} />
        </fieldset>`,
      )}
      <div class="field">
        <label for="retention">Keep verification records for (days)</label>
        <input id="retention" name="retention" type="number" min="1" max="3650" required .value=${String(s.retentionDays)} />
      </div>
      <fieldset class="field">
        <legend>Theme</legend>
        <p class="hint">CSS values the page and the <code>&lt;assent-privacy-center&gt;</code> element apply; empty fields keep the defaults.</p>
        ${themeFields.map(
          (f) => html`<div class="field">
            <label for="theme${f.property}">${f.label}</label>
            <span class="hint" id="${f.property}-hint">${f.about}: <code>${f.property}</code>, such as ${f.example}</span>
            <input id="theme${f.property}" name=${f.property} type="text" autocomplete="off" spellcheck="false" aria-describedby="${f.property}-hint" .value=${s.theme[f.property] ?? ""} />
          </div>`,
        )}
      </fieldset>
      <div class="actions"><button class="button primary" type="submit" ?disabled=${this.busy}>Save privacy center</button></div>
    </form>`;
  }
}
