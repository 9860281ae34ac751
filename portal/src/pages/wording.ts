import { html, nothing } from "lit";
import { customElement, property, state } from "lit/decorators.js";
import { lookup } from "../../../shared/i18n/negotiate";
import type { JsonAnswer, Schemas } from "../../../shared/api/operations";
import { api, ApiProblem, ok } from "../api";
import { dataTable, pageHead } from "../parts";
import type { DataGroup, Party, Project, Purpose, Translation } from "../types";
import { ActionElement, loadingView, notify, problemView } from "../ui";
import "./widget-preview";

type Strings = Record<string, string>;
/** One language as GET …/ui-strings/{language} answers. */
type Language = Schemas["UiStringsLanguage"];
type Listing = JsonAnswer<"/privacy/v2/projects/{project_id}/configurations/ui-strings", "GET">;

/** A text serves a language when one's BCP 47 lookup reaches the other (as the bootstrap picks texts). */
const serves = (texts: Translation[] | undefined, language: string) =>
  !!texts?.some((t) => lookup([t.language], [language]) || lookup([language], [t.language]));

/**
 * The widget's words for this project: pick a language, change any string (English beside it), see it in the
 * preview frame as you type; add a language the widget does not ship by writing every string. Above it, which of
 * the project's texts each of its languages still lacks.
 */
@customElement("ap-wording")
export class WordingPage extends ActionElement {
  @property({ attribute: false }) project!: Project;
  @state() private listing: Listing | null = null;
  @state() private english: Strings = {};
  @state() private purposes: Purpose[] = [];
  @state() private dataGroups: DataGroup[] = [];
  @state() private parties: Party[] = [];
  @state() private loadError: unknown = null;
  @state() private current: Language | null = null;
  @state() private draft: Strings = {};
  @state() private layer: "banner" | "preferences" = "banner";
  @state() private newTag = "";

  override connectedCallback() {
    super.connectedCallback();
    void this.load();
  }

  private get params() {
    return { project_id: this.project.projectId };
  }

  private language(language: string) {
    return { params: { path: { ...this.params, language } } };
  }

  private async load() {
    try {
      const [listing, english, purposes, dataGroups, parties] = await Promise.all([
        ok(api.GET("/privacy/v2/projects/{project_id}/configurations/ui-strings", { params: { path: this.params } })),
        ok(api.GET("/privacy/v2/projects/{project_id}/configurations/ui-strings/{language}", this.language("en"))),
        ok(api.GET("/privacy/v2/projects/{project_id}/configurations/purposes", { params: { path: this.params } })),
        ok(api.GET("/privacy/v2/projects/{project_id}/configurations/data-groups", { params: { path: this.params } })),
        ok(api.GET("/privacy/v2/projects/{project_id}/configurations/parties", { params: { path: this.params } })),
      ]);
      Object.assign(this, { listing, english: english.defaults, purposes: purposes.items, dataGroups: dataGroups.items, parties: parties.items });
      if (!this.current) await this.select(lookup([this.project.defaultLanguage], listing.shippedLanguages) ?? "en");
    } catch (error) {
      this.loadError = error;
    }
  }

  /** Opens a language; one neither shipped nor added yet starts empty (every string needed). */
  private async select(language: string) {
    this.formError = null;
    try {
      this.current = await ok(api.GET("/privacy/v2/projects/{project_id}/configurations/ui-strings/{language}", this.language(language)));
    } catch (error) {
      if (!(error instanceof ApiProblem && error.status === 404)) throw error;
      this.current = { language, shipped: false, overrides: {}, strings: { ...this.english }, defaults: {}, updated: null };
    }
    this.draft = { ...this.current.overrides };
  }

  /** The words as the widget will show them once saved. */
  private get effective(): Strings {
    const given = Object.fromEntries(Object.entries(this.draft).filter(([, text]) => text.trim()));
    return { ...this.english, ...this.current?.defaults, ...given };
  }

  private async save(e: SubmitEvent) {
    e.preventDefault();
    const language = this.current!.language;
    const strings = Object.fromEntries(Object.entries(this.draft).filter(([key, text]) => text.trim() && text !== this.current!.defaults[key]));
    const saved = await this.run(async () => {
      this.current = await ok(api.PUT("/privacy/v2/projects/{project_id}/configurations/ui-strings/{language}", { ...this.language(language), body: { strings } }));
      this.draft = { ...this.current.overrides };
    });
    if (saved) {
      notify(`Wording in ${language} saved.`);
      await this.load();
    }
  }

  private async reset() {
    const language = this.current!.language;
    const done = await this.run(() => ok(api.DELETE("/privacy/v2/projects/{project_id}/configurations/ui-strings/{language}", this.language(language))));
    if (done) {
      notify(`Wording in ${language} removed.`);
      this.current = null;
      await this.load();
    }
  }

  /** Every language the project declares: its default, its texts', and its own wording's. */
  private get declared(): string[] {
    const all = new Set([this.project.defaultLanguage]);
    const add = (texts?: Translation[]) => texts?.forEach((t) => all.add(t.language));
    this.purposes.forEach((p) => add(p.description));
    this.dataGroups.forEach((g) => add(g.description));
    this.parties.forEach((p) => add(p.details.description));
    this.listing?.items.forEach((item) => all.add(item.language));
    return [...all].sort();
  }

  private coverage() {
    const missing = (names: string[]) => (names.length ? names.join(", ") : html`<span class="muted">none</span>`);
    return html`<section class="card" aria-labelledby="coverage-title">
      <h3 id="coverage-title">Translation coverage</h3>
      <p class="hint">For each language the project uses, what has no text in it (visitors then read the default language's, or English).</p>
      ${dataTable(
        "What lacks a text, per language",
        ["Language", "Purposes", "Data groups", "Parties"],
        this.declared.map(
          (language) => html`<tr>
            <td data-label="Language"><code>${language}</code></td>
            <td data-label="Purposes">${missing(this.purposes.filter((p) => !serves(p.description, language)).map((p) => p.name))}</td>
            <td data-label="Data groups">${missing(this.dataGroups.filter((g) => !serves(g.description, language)).map((g) => g.name))}</td>
            <td data-label="Parties">${missing(this.parties.filter((p) => !serves(p.details.description, language)).map((p) => p.details.name))}</td>
          </tr>`,
        ),
      )}
    </section>`;
  }

  private picker() {
    const listing = this.listing!;
    const added = listing.items.filter((item) => !item.shipped).map((item) => item.language);
    const overridden = new Set(listing.items.map((item) => item.language));
    const option = (tag: string) =>
      html`<option value=${tag} ?selected=${tag === this.current?.language}>${tag}${overridden.has(tag) ? " (own wording)" : ""}</option>`;
    return html`<div class="card">
      <div class="field">
        <label for="wording-language">Language</label>
        <select id="wording-language" @change=${(e: Event) => void this.select((e.target as HTMLSelectElement).value)}>
          <optgroup label="Shipped with the widget">${listing.shippedLanguages.map(option)}</optgroup>
          ${added.length ? html`<optgroup label="Added by this project">${added.map(option)}</optgroup>` : nothing}
        </select>
      </div>
      <form
        class="field"
        @submit=${(e: SubmitEvent) => {
          e.preventDefault();
          if (this.newTag.trim()) void this.select(this.newTag.trim());
        }}
      >
        <label for="wording-new">Add a language the widget does not ship (BCP 47 tag, such as kl or de-CH)</label>
        <div style="display:flex;gap:.5rem">
          <input id="wording-new" .value=${this.newTag} @input=${(e: Event) => (this.newTag = (e.target as HTMLInputElement).value)} autocomplete="off" />
          <button class="button" type="submit">Add</button>
        </div>
      </form>
    </div>`;
  }

  private editor(language: Language) {
    const keys = Object.keys(this.english);
    return html`<form class="card" @submit=${this.save} novalidate aria-labelledby="wording-editor-title">
      <h3 id="wording-editor-title">Words in <code>${language.language}</code></h3>
      <p class="hint">
        ${language.shipped
          ? "Leave a field empty to keep the widget's own words (shown greyed). Keep {c} where English has it: it stands for the controller's name."
          : "The widget does not ship this language: write every string. Keep {c} where English has it."}
      </p>
      ${problemView(this.formError, "The wording was not saved")}
      ${dataTable(
        "The widget's strings",
        ["String", "English", `In ${language.language}`],
        keys.map(
          (key) => html`<tr>
            <td data-label="String"><code>${key}</code></td>
            <td data-label="English" class="muted" lang="en">${this.english[key]}</td>
            <td data-label=${`In ${language.language}`}>
              <textarea
                aria-label=${`${key} in ${language.language}`}
                lang=${language.language}
                rows="2"
                maxlength="500"
                placeholder=${language.defaults[key] ?? ""}
                .value=${this.draft[key] ?? ""}
                @input=${(e: Event) => (this.draft = { ...this.draft, [key]: (e.target as HTMLTextAreaElement).value })}
              ></textarea>
            </td>
          </tr>`,
        ),
      )}
      <div class="actions">
        <button class="button primary" type="submit" ?disabled=${this.busy}>Save wording</button>
        ${language.updated ? html`<button class="button danger" type="button" ?disabled=${this.busy} @click=${this.reset}>Remove this wording</button>` : nothing}
      </div>
    </form>`;
  }

  protected override render() {
    const about = "The consent widget's own words (title, buttons, notices, the GDPR's role and legal-ground terms) in every language, as this project shows them.";
    if (this.loadError) return html`${pageHead("Wording", about)}${problemView(this.loadError, "The wording could not be loaded")}`;
    if (!this.listing || !this.current) return html`${pageHead("Wording", about)}${loadingView("the wording")}`;
    return html`${pageHead("Wording", about)} ${this.coverage()} ${this.picker()}
      <div class="wording-layout">
        ${this.editor(this.current)}
        <div class="preview-column">
          <fieldset class="field" style="flex-direction:row;gap:1rem">
            <legend>Preview</legend>
            <label class="choice"><input type="radio" name="layer" ?checked=${this.layer === "banner"} @change=${() => (this.layer = "banner")} /> First layer</label>
            <label class="choice"><input type="radio" name="layer" ?checked=${this.layer === "preferences"} @change=${() => (this.layer = "preferences")} /> Preferences</label>
          </fieldset>
          <ap-widget-preview
            .project=${this.project}
            .purposes=${this.purposes}
            .dataGroups=${this.dataGroups}
            .parties=${this.parties}
            .strings=${this.effective}
            .fixedLanguage=${this.current.language}
            .layer=${this.layer}
          ></ap-widget-preview>
        </div>
      </div>`;
  }
}
