import { html } from "lit";
import { customElement, property, state } from "lit/decorators.js";
import { adminProject, api } from "../api";
import { base, navigate } from "../router";
import type { Project } from "../types";
import { closeDialog, formatDateTime, formValues, LightElement, notify, problemView, showDialog } from "../ui";
import { projectBody, projectFields } from "./projects";

@customElement("ap-settings")
export class SettingsPage extends LightElement {
  @property({ attribute: false }) project!: Project;
  @state() private saveError: unknown = null;
  @state() private deleteError: unknown = null;
  @state() private confirmation = "";
  @state() private busy = false;

  private async save(e: SubmitEvent) {
    e.preventDefault();
    this.busy = true;
    this.saveError = null;
    try {
      const project = await api<Project>("PUT", adminProject(this.project.projectId), projectBody(formValues(e.target as HTMLFormElement)));
      this.dispatchEvent(new CustomEvent("project-changed", { detail: project, bubbles: true }));
      notify("Privacy metadata saved.");
    } catch (error) {
      this.saveError = error;
    } finally {
      this.busy = false;
    }
  }

  private async confirmDelete(e: SubmitEvent) {
    e.preventDefault();
    if (this.confirmation !== this.project.name) return;
    this.busy = true;
    this.deleteError = null;
    try {
      await api("DELETE", adminProject(this.project.projectId));
      closeDialog(this, "delete-project");
      notify(`Project “${this.project.name}” deleted.`);
      navigate(`${base}/`);
    } catch (error) {
      this.deleteError = error;
    } finally {
      this.busy = false;
    }
  }

  protected override render() {
    const p = this.project;
    return html`<div class="page-head">
        <div>
          <h2>Settings</h2>
          <p>The privacy metadata shown to data subjects in consent dialogs. Last changed ${formatDateTime(p.updated)}.</p>
        </div>
      </div>
      <form class="card" @submit=${this.save} novalidate>
        ${problemView(this.saveError, "The changes were not saved")} ${projectFields(p, "settings")}
        <div class="actions">
          <button class="button primary" type="submit" ?disabled=${this.busy}>Save changes</button>
        </div>
      </form>
      <section class="card danger-zone" aria-labelledby="danger-title">
        <h3 id="danger-title">Delete this project</h3>
        <p>
          Deletes the project with all its clients, identities, consents, privacy requests, configuration and webhooks.
          Applications using its clients stop working at once. This cannot be undone.
        </p>
        <button
          type="button"
          class="button danger"
          @click=${() => {
            this.confirmation = "";
            this.deleteError = null;
            showDialog(this, "delete-project");
          }}
        >
          Delete project…
        </button>
      </section>
      <dialog id="delete-project" aria-labelledby="delete-title">
        <form @submit=${this.confirmDelete}>
          <h2 id="delete-title">Delete “${p.name}”?</h2>
          <div class="notice warning">
            <p>All of the project's data subjects, their consents and requests are erased permanently.</p>
          </div>
          ${problemView(this.deleteError, "The project was not deleted")}
          <div class="field">
            <label for="delete-confirmation">Type the project name, <strong>${p.name}</strong>, to confirm</label>
            <input
              id="delete-confirmation"
              type="text"
              autocomplete="off"
              spellcheck="false"
              autofocus
              .value=${this.confirmation}
              @input=${(e: Event) => (this.confirmation = (e.target as HTMLInputElement).value)}
            />
          </div>
          <div class="actions end">
            <button type="button" class="button" @click=${() => closeDialog(this, "delete-project")}>Cancel</button>
            <button type="submit" class="button danger" ?disabled=${this.busy || this.confirmation !== p.name}>Delete permanently</button>
          </div>
        </form>
      </dialog>`;
  }
}
