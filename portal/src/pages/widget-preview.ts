import { html, nothing } from "lit";
import { customElement, property, state } from "lit/decorators.js";
import type { DataGroup, Party, Project, Purpose } from "../types";
import { LightElement } from "../ui";

/**
 * The consent widget as subjects will see it, with the configuration on this page. The widget runs in a
 * same-origin frame (/portal/preview) that answers its API calls from the document posted here, so
 * previewing records nothing.
 */
@customElement("ap-widget-preview")
export class WidgetPreview extends LightElement {
  @property({ attribute: false }) project!: Project;
  @property({ attribute: false }) purposes: Purpose[] = [];
  @property({ attribute: false }) dataGroups: DataGroup[] = [];
  @property({ attribute: false }) parties: Party[] = [];
  /** The widget's words as being edited, and the language they are in (the Wording page); else a picker. */
  @property({ attribute: false }) strings?: Record<string, string>;
  @property() fixedLanguage = "";
  @property() layer: "banner" | "preferences" = "preferences";
  @state() private available: boolean | null = null;
  @state() private language = "";
  private frameReady = false;

  override connectedCallback() {
    super.connectedCallback();
    window.addEventListener("message", this.onMessage);
    void fetch("/widget/assent.js", { method: "HEAD", cache: "no-store" })
      .then((res) => (this.available = res.ok))
      .catch(() => (this.available = false));
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    window.removeEventListener("message", this.onMessage);
  }

  private onMessage = (event: MessageEvent) => {
    if (event.origin !== location.origin || event.data?.type !== "assent-preview-ready") return;
    this.frameReady = true;
    this.post();
  };

  protected override updated(changed: Map<string, unknown>) {
    const watched = ["purposes", "dataGroups", "parties", "language", "strings", "fixedLanguage", "layer"];
    if (this.frameReady && watched.some((name) => changed.has(name))) {
      this.post();
    }
  }

  private get languages(): string[] {
    const all = new Set<string>([this.project.defaultLanguage]);
    for (const p of this.purposes) for (const t of p.description) all.add(t.language);
    return [...all];
  }

  /** The document `GET /privacy/v1/configurations` would answer with this configuration. */
  private configuration() {
    const party = (id: string) => this.parties.find((p) => p.partyId === id);
    const parties = (ids: string[]) => ids.map(party).filter((p): p is Party => !!p).map((p) => ({ ...p, projectId: this.project.projectId }));
    const p = this.project;
    return {
      projectId: p.projectId,
      project: { name: p.name, controller: p.controller, policies: p.policies, jurisdiction: p.jurisdiction, defaultLanguage: p.defaultLanguage },
      purposes: this.purposes.map((purpose) => ({
        purposeId: purpose.purposeId,
        referenceId: purpose.referenceId,
        version: purpose.version,
        legalGround: purpose.legalGround,
        name: purpose.name,
        description: purpose.description,
        dataGroups: purpose.dataGroups
          .map((id) => this.dataGroups.find((d) => d.dataGroupId === id))
          .filter((d): d is DataGroup => !!d)
          .map(({ dataGroupId, referenceId, name, description }) => ({ dataGroupId, referenceId, name, description })),
        controllers: parties(purpose.controllers),
        processors: parties(purpose.processors),
        recipients: parties(purpose.recipients),
      })),
    };
  }

  private post() {
    const frame = this.querySelector<HTMLIFrameElement>("#widget-preview-frame");
    frame?.contentWindow?.postMessage(
      {
        type: "assent-preview",
        configuration: this.configuration(),
        language: this.fixedLanguage || this.language || this.project.defaultLanguage,
        strings: this.strings,
        layer: this.layer,
      },
      location.origin,
    );
  }

  protected override render() {
    return html`<section class="card" aria-labelledby="preview-title">
      <header>
        <div>
          <h3 id="preview-title">Consent widget preview</h3>
          <p class="muted small" style="margin:0">The dialog subjects see, with the configuration above. Nothing is recorded here.</p>
        </div>
        ${this.available && !this.fixedLanguage
          ? html`<div class="field" style="margin:0;flex-direction:row;align-items:center;gap:.5rem">
              <label for="preview-language">Language</label>
              <select id="preview-language" style="width:auto" @change=${(e: Event) => (this.language = (e.target as HTMLSelectElement).value)}>
                ${this.languages.map((l) => html`<option value=${l} ?selected=${l === (this.language || this.project.defaultLanguage)}>${l}</option>`)}
              </select>
            </div>`
          : nothing}
      </header>
      ${this.available === null
        ? html`<p class="muted small">Checking for the widget…</p>`
        : this.available
          ? html`<iframe id="widget-preview-frame" class="preview-frame" src="/portal/preview" title="Consent widget preview" loading="lazy"></iframe>`
          : html`<p class="notice info">The consent widget is not built on this server (<code>npm run build:widget</code>), so there is no preview.</p>`}
    </section>`;
  }
}
