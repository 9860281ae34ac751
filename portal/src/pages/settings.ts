import { html } from "lit";
import { customElement, property, state } from "lit/decorators.js";
import { api, ok } from "../api";
import { base, navigate } from "../router";
import type { Project } from "../types";
import { formDialog, pageHead } from "../parts";
import { closeDialog, formatDateTime, formValues, LightElement, notify, problemView, showDialog } from "../ui";
import { projectBody, projectFields } from "./projects";
import "./jurisdiction-settings";
import "./privacy-center-settings";

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
      const project = await ok(api.PUT("/admin/v1/projects/{project_id}", {
        params: { path: { project_id: this.project.projectId } },
        body: projectBody(formValues(e.target as HTMLFormElement)),
      }));
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
      await ok(api.DELETE("/admin/v1/projects/{project_id}", { params: { path: { project_id: this.project.projectId } } }));
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
    return html`${pageHead("Settings", `The privacy metadata shown to data subjects in consent dialogs. Last changed ${formatDateTime(p.updated)}.`)}
      <form class="card" @submit=${this.save} novalidate>
        ${problemView(this.saveError, "The changes were not saved")} ${projectFields(p, "settings")}
        <div class="actions">
          <button class="button primary" type="submit" ?disabled=${this.busy}>Save changes</button>
        </div>
      </form>
      <ap-jurisdiction-settings .project=${p}></ap-jurisdiction-settings>
      <ap-privacy-center-settings .project=${p}></ap-privacy-center-settings>
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
      ${formDialog(this, "delete-project", {
        title: `Delete “${p.name}”?`,
        error: this.deleteError,
        errorHeading: "The project was not deleted",
        onSubmit: (e) => this.confirmDelete(e),
        action: { label: "Delete permanently", danger: true, disabled: this.busy || this.confirmation !== p.name },
        body: html`<div class="notice warning">
            <p>All of the project's data subjects, their consents and requests are erased permanently.</p>
          </div>
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
          </div>`,
      })}`;
  }
}
