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

/** The settings page's section for the privacy center: which aliases people may verify, and how long records stay. */
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
    const body: Settings = { channels: chosen, retentionDays: Number(form.get("retention")), theme: this.settings!.theme };
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
      <div class="actions"><button class="button primary" type="submit" ?disabled=${this.busy}>Save privacy center</button></div>
    </form>`;
  }
}
