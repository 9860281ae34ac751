// The configuration page: what data subjects are asked to agree to. One flow for every kind of record
// (./kind.ts); what differs between purposes, data groups and parties lives in their own modules.
import { html, nothing } from "lit";
import { customElement, property, state } from "lit/decorators.js";
import { actionsColumn, confirmDialog, dataTable, editAndDelete, formDialog, pageHead } from "../../parts";
import type { Project, Translation } from "../../types";
import { ActionElement, closeDialog, loadingView, notify, problemView } from "../../ui";
import "../widget-preview";
import { dataGroups } from "./data-groups";
import type { ConfigurationView, Editor, Kind, Lists } from "./kind";
import { parties } from "./parties";
import { purposes } from "./purposes";

type Editing = Editor & { title: string };
type Removing = { name: string; consequence: string; remove: () => Promise<unknown> };

@customElement("ap-configuration")
export class ConfigurationPage extends ActionElement {
  @property({ attribute: false }) project!: Project;
  @state() private lists: Lists | null = null;
  @state() private error: unknown = null;
  @state() private editing: Editing | null = null;
  @state() private removing: Removing | null = null;

  override connectedCallback() {
    super.connectedCallback();
    void this.load();
  }

  private async load() {
    const projectId = this.project.projectId;
    try {
      const [purposeList, dataGroupList, partyList] = await Promise.all([purposes.list(projectId), dataGroups.list(projectId), parties.list(projectId)]);
      this.lists = { purposes: purposeList, dataGroups: dataGroupList, parties: partyList };
      this.error = null;
    } catch (error) {
      this.error = error;
    }
  }

  private view(lists: Lists): ConfigurationView {
    return { ...lists, project: this.project, update: () => this.requestUpdate() };
  }

  /**
   * The record as it is now, read when its editor or its deletion opens: the portal keeps the ETag of this read and
   * sends it with the save or delete, so a change someone else made in between is refused instead of overwritten.
   * Undefined when it cannot be read (gone, offline): the save or delete itself then says so.
   */
  private current<T>(kind: Kind<T>, item: T): Promise<T | undefined> {
    return kind.read(this.project.projectId, kind.id(item)).catch(() => undefined);
  }

  private async edit<T>(kind: Kind<T>, listed: T | null) {
    const item = listed && ((await this.current(kind, listed)) ?? listed);
    const texts = item && kind.description(item);
    const initialTexts: Translation[] = texts?.length ? texts.map((t) => ({ ...t })) : [{ language: this.project.defaultLanguage, text: "" }];
    this.editing = { title: item ? `Edit ${kind.noun} “${kind.name(item)}”` : `New ${kind.noun}`, ...kind.editor(item, initialTexts) };
    this.openDialog("config-editor");
  }

  private async submit(e: SubmitEvent) {
    e.preventDefault();
    const editing = this.editing!;
    const form = e.target as HTMLFormElement;
    const view = this.view(this.lists!);
    const saved = await this.run(async () => {
      notify(await editing.save(form, view));
      closeDialog(this, "config-editor");
      await this.load();
    });
    // The problem is shown above the fields: bring it into view.
    if (!saved) this.querySelector("#config-editor")?.scrollTo({ top: 0 });
  }

  private async askRemove<T>(kind: Kind<T>, item: T) {
    await this.current(kind, item);
    const projectId = this.project.projectId;
    this.removing = { name: kind.name(item), consequence: kind.consequence, remove: () => kind.remove(projectId, kind.id(item)) };
    this.openDialog("config-remove");
  }

  private confirmDelete() {
    const r = this.removing!;
    return this.run(async () => {
      await r.remove();
      closeDialog(this, "config-remove");
      notify(`“${r.name}” deleted.`);
      await this.load();
    });
  }

  protected override render() {
    if (this.error) return problemView(this.error, "The configuration could not be loaded");
    if (!this.lists) return loadingView("the configuration");
    const view = this.view(this.lists);
    return html`${pageHead("Configuration", "What data subjects are asked to agree to: purposes of processing, the data they use, and who receives it.")}
      ${this.renderSection(purposes, view.purposes, view)} ${this.renderSection(dataGroups, view.dataGroups, view)}
      ${this.renderSection(parties, view.parties, view)}
      <ap-widget-preview .project=${this.project} .purposes=${view.purposes} .dataGroups=${view.dataGroups} .parties=${view.parties}></ap-widget-preview>
      ${this.renderEditor(view)} ${this.renderRemove()}`;
  }

  private renderSection<T>(kind: Kind<T>, items: T[], view: ConfigurationView) {
    const { title, headingId, primary, needs, empty, columns, row } = kind.table;
    const blocked = needs && !needs.met(view);
    return html`<section class="card" aria-labelledby=${headingId}>
      <header>
        <h3 id=${headingId}>${title} <span class="badge">${items.length}</span></h3>
        <button
          type="button"
          class="button ${primary ? "primary " : ""}small"
          ?disabled=${blocked}
          aria-describedby=${blocked ? needs.noticeId : nothing}
          @click=${() => this.edit(kind, null)}
        >
          New ${kind.noun}
        </button>
      </header>
      ${blocked ? html`<p class="notice info" id=${needs.noticeId}>${needs.notice}</p>` : nothing}
      ${items.length === 0
        ? html`<p class="muted small">${empty}</p>`
        : dataTable(
            title,
            [...columns, actionsColumn],
            items.map((item) =>
              row(
                item,
                view,
                editAndDelete(
                  `${kind.noun} ${kind.name(item)}`,
                  () => this.edit(kind, item),
                  () => this.askRemove(kind, item),
                ),
              ),
            ),
          )}
    </section>`;
  }

  private renderEditor(view: ConfigurationView) {
    const e = this.editing;
    return formDialog(
      this,
      "config-editor",
      e && {
        title: e.title,
        error: this.formError,
        errorHeading: "Not saved",
        onSubmit: (event) => this.submit(event),
        action: { label: "Save", disabled: this.busy },
        body: e.fields(view),
      },
      () => (this.editing = null),
    );
  }

  private renderRemove() {
    const r = this.removing;
    return confirmDialog(
      this,
      "config-remove",
      r && {
        title: `Delete “${r.name}”?`,
        body: html`<p>${r.consequence}</p>`,
        error: this.formError,
        errorHeading: "Not deleted",
        action: { label: "Delete", danger: true, disabled: this.busy, onClick: () => this.confirmDelete() },
      },
      () => (this.removing = null),
    );
  }
}
