import { html, nothing } from "lit";
import { customElement, state } from "lit/decorators.js";
import type { Schemas } from "../../../shared/api/operations";
import { api, ok } from "../api";
import { navigate, projectHref } from "../router";
import type { Project } from "../types";
import { dataTable, formDialog, pageHead, textField } from "../parts";
import { ActionElement, closeDialog, compact, formatDate, formValues, loadingView, notify, problemView } from "../ui";
import "./sso-settings";

/**
 * The fields of a project's privacy metadata, as the admin API takes them (also used by the settings page). The form
 * marks the required ones; the API checks the rest.
 */
export function projectBody(v: Record<string, string | undefined>): Schemas["ProjectInput"] {
  const controller = compact({
    name: v["controller.name"],
    email: v["controller.email"],
    address: v["controller.address"],
    nationalId: v["controller.nationalId"],
    phone: v["controller.phone"],
  });
  return compact({
    name: v.name,
    controller: Object.keys(controller).length ? controller : undefined,
    policies: compact({ privacy: v["policies.privacy"], terms: v["policies.terms"], cookie: v["policies.cookie"] }),
    jurisdiction: v.jurisdiction,
    defaultLanguage: v.defaultLanguage,
  }) as Schemas["ProjectInput"];
}

/** The form fields of a project's metadata, prefilled from `p` when editing. */
export function projectFields(p: Partial<Project> = {}, idPrefix = "project") {
  const id = (name: string) => `${idPrefix}-${name.replace(".", "-")}`;
  const text = (name: string, label: string, value: string | undefined | null, type = "text", hint = "") =>
    textField(id(name), name, label, value, { type, hint, required: name === "name" || name === "controller.name" });
  return html`${text("name", "Project name", p.name)}
    <fieldset>
      <legend>Data controller</legend>
      <p class="hint">Shown to data subjects as who decides why and how their data is processed (GDPR Art. 4(7)).</p>
      <div class="form-grid">
        ${text("controller.name", "Legal name", p.controller?.name)} ${text("controller.email", "Privacy e-mail", p.controller?.email, "email")}
        ${text("controller.address", "Address", p.controller?.address)} ${text("controller.nationalId", "Organisation number", p.controller?.nationalId)}
        ${text("controller.phone", "Phone", p.controller?.phone, "text")}
      </div>
    </fieldset>
    <fieldset>
      <legend>Policies</legend>
      <div class="form-grid">
        ${text("policies.privacy", "Privacy policy URL", p.policies?.privacy, "url")} ${text("policies.terms", "Terms URL", p.policies?.terms, "url")}
        ${text("policies.cookie", "Cookie policy URL", p.policies?.cookie, "url")}
      </div>
    </fieldset>
    <div class="form-grid">
      ${text("jurisdiction", "Jurisdiction", p.jurisdiction, "text", "Country or region whose law applies, such as SE.")}
      ${text("defaultLanguage", "Default language", p.defaultLanguage ?? "en", "text", "Language tag of texts shown when a subject's language is missing.")}
    </div>`;
}

@customElement("ap-projects")
export class ProjectsPage extends ActionElement {
  @state() private projects: Project[] | null = null;
  @state() private error: unknown = null;

  override connectedCallback() {
    super.connectedCallback();
    void this.load();
  }

  private async load() {
    try {
      this.projects = (await ok(api.GET("/admin/v1/projects"))).items;
    } catch (error) {
      this.error = error;
    }
  }

  private create(e: SubmitEvent) {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    return this.run(async () => {
      const project = await ok(api.POST("/admin/v1/projects", { body: projectBody(formValues(form)) }));
      closeDialog(this, "new-project");
      form.reset();
      notify(`Project “${project.name}” created.`);
      navigate(projectHref(project.projectId, "clients"));
    });
  }

  protected override render() {
    return html`${pageHead(
        "Projects",
        "Each project is one integrating service: its API clients, consent configuration and data subjects.",
        html`<button type="button" class="button primary" @click=${() => this.openDialog("new-project")}>New project</button>`,
        { h1: true },
      )}
      ${problemView(this.error, "The projects could not be loaded")} ${this.projects === null && !this.error ? loadingView("projects") : nothing}
      ${this.projects?.length === 0
        ? html`<div class="card empty"><strong>No projects yet</strong>Create one to register API clients and configure purposes.</div>`
        : nothing}
      ${this.projects?.length
        ? html`<div class="card">
            ${dataTable(
              "All projects",
              ["Name", "Controller", "Jurisdiction", "Created"],
              this.projects.map(
                (p) => html`<tr>
                  <td data-label="Name">
                    <a href=${projectHref(p.projectId)}><strong>${p.name}</strong></a><br /><code class="muted small">${p.projectId}</code>
                  </td>
                  <td data-label="Controller">${p.controller?.name ?? html`<span class="muted">Not set</span>`}</td>
                  <td data-label="Jurisdiction">${p.jurisdiction ?? html`<span class="muted">Not set</span>`}</td>
                  <td data-label="Created">${formatDate(p.created)}</td>
                </tr>`,
              ),
            )}
          </div>`
        : nothing}
      <ap-sso-settings></ap-sso-settings>
      ${formDialog(this, "new-project", {
        title: "New project",
        error: this.formError,
        errorHeading: "The project was not created",
        onSubmit: (e) => this.create(e),
        action: { label: "Create project", disabled: this.busy },
        body: projectFields({}, "new-project"),
      })}`;
  }
}
