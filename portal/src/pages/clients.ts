import { html, nothing } from "lit";
import { customElement, property, state } from "lit/decorators.js";
import { api, ok } from "../api";
import { clientTypes, type Client, type ClientType, type ClientWithSecret, type Project } from "../types";
import { actionsCell, actionsColumn, confirmDialog, dataTable, formDialog, pageHead, secretDialog, textField } from "../parts";
import { ActionElement, closeDialog, copyToClipboard, formatDate, loadingView, notify, problemView } from "../ui";

/** Each type's heading, what it is for, and whether it has allowed origins (the sites whose browsers may get tokens). */
const typeInfo: Record<ClientType, { title: string; about: string; origins: boolean }> = {
  web: { title: "Web", about: "Websites. Browsers get visitor tokens only from the allowed origins.", origins: true },
  ios: { title: "iOS", about: "iPhone and iPad apps.", origins: false },
  android: { title: "Android", about: "Android apps.", origins: false },
  backend: { title: "Backend", about: "Servers: full access to the project's privacy API.", origins: false },
};

const originsOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((o) => o.trim().replace(/\/$/, ""))
    .filter(Boolean);

/** The allowed origins of the form's body, for a type that has them. */
const originsIn = (type: ClientType, data: FormData) =>
  typeInfo[type].origins ? { allowedOrigins: originsOf(String(data.get("allowedOrigins") ?? "")) } : {};

@customElement("ap-clients")
export class ClientsPage extends ActionElement {
  @property({ attribute: false }) project!: Project;
  @state() private clients: Client[] | null = null;
  @state() private error: unknown = null;
  @state() private newType: ClientType = "backend";
  @state() private editing: Client | null = null;
  @state() private target: Client | null = null;
  @state() private secret: ClientWithSecret | null = null;
  @state() private secretKind: "created" | "regenerated" = "created";

  override connectedCallback() {
    super.connectedCallback();
    void this.load();
  }

  private async load() {
    try {
      this.clients = (await ok(api.GET("/admin/v1/projects/{project_id}/clients", { params: { path: { project_id: this.project.projectId } } }))).items;
    } catch (error) {
      this.error = error;
    }
  }

  private showSecret(client: ClientWithSecret, kind: "created" | "regenerated") {
    this.secret = client;
    this.secretKind = kind;
    this.openDialog("client-secret");
  }

  private create(e: SubmitEvent) {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    return this.run(async () => {
      const body = {
        name: String(data.get("name") ?? "").trim(),
        type: this.newType,
        ...originsIn(this.newType, data),
      };
      const client = await ok(api.POST("/admin/v1/projects/{project_id}/clients", { params: { path: { project_id: this.project.projectId } }, body }));
      closeDialog(this, "new-client");
      (e.target as HTMLFormElement).reset();
      await this.load();
      this.showSecret(client, "created");
    });
  }

  private save(e: SubmitEvent) {
    e.preventDefault();
    const client = this.editing!;
    const data = new FormData(e.target as HTMLFormElement);
    return this.run(async () => {
      // The checkboxes offer only the client's available scopes.
      const chosen = data.getAll("scopes").map(String) as Client["scopes"];
      const body = {
        name: String(data.get("name") ?? "").trim(),
        ...originsIn(client.type, data),
        // All of the type's scopes is the default (null), so the client follows future defaults.
        scopes: chosen.length === client.availableScopes.length ? null : chosen,
      };
      await ok(api.PUT("/admin/v1/projects/{project_id}/clients/{clientId}", { params: { path: { project_id: this.project.projectId, clientId: client.clientId } }, body }));
      closeDialog(this, "edit-client");
      notify(`Client “${body.name}” saved.`);
      await this.load();
    });
  }

  private regenerate() {
    const client = this.target!;
    return this.run(async () => {
      const updated = await ok(api.POST("/admin/v1/projects/{project_id}/clients/{clientId}/secret", {
        params: { path: { project_id: this.project.projectId, clientId: client.clientId } },
      }));
      closeDialog(this, "regenerate-secret");
      this.showSecret(updated, "regenerated");
    });
  }

  private confirmDelete() {
    const client = this.target!;
    return this.run(async () => {
      await ok(api.DELETE("/admin/v1/projects/{project_id}/clients/{clientId}", { params: { path: { project_id: this.project.projectId, clientId: client.clientId } } }));
      closeDialog(this, "delete-client");
      notify(`Client “${client.name}” deleted.`);
      await this.load();
    });
  }

  private async open(id: string, listed: Client | null) {
    // Editing and deleting start from the client as it is now: the portal sends this read's ETag with the change.
    const client =
      listed && (id === "edit-client" || id === "delete-client")
        ? await ok(api.GET("/admin/v1/projects/{project_id}/clients/{clientId}", { params: { path: { project_id: this.project.projectId, clientId: listed.clientId } } })).catch(
            () => listed,
          )
        : listed;
    if (id === "edit-client") this.editing = client;
    else this.target = client;
    this.openDialog(id);
  }

  protected override render() {
    return html`${pageHead(
        "Clients",
        "Applications that call the API with the client-credentials grant. One client per application type is recommended.",
        html`<button type="button" class="button primary" @click=${() => this.open("new-client", null)}>New client</button>`,
      )}
      ${problemView(this.error, "The clients could not be loaded")} ${this.clients === null && !this.error ? loadingView("clients") : nothing}
      ${this.clients ? clientTypes.map((type) => this.renderType(type, this.clients!.filter((c) => c.type === type))) : nothing}
      ${this.renderNewDialog()} ${this.renderEditDialog()} ${this.renderRegenerateDialog()} ${this.renderDeleteDialog()} ${this.renderSecretDialog()}`;
  }

  private renderType(type: ClientType, clients: Client[]) {
    const label = typeInfo[type];
    const hasOrigins = label.origins;
    return html`<section class="card" aria-labelledby="type-${type}">
      <header>
        <div>
          <h3 id="type-${type}">${label.title} <span class="badge">${clients.length}</span></h3>
          <p class="muted small" style="margin:0">${label.about}</p>
        </div>
      </header>
      ${clients.length === 0
        ? html`<p class="muted small">No ${label.title} clients.</p>`
        : dataTable(
            `${label.title} clients`,
            ["Name", "Client id", ...(hasOrigins ? ["Allowed origins"] : []), "Created", actionsColumn],
            clients.map(
              (c) => html`<tr>
                <td data-label="Name"><strong>${c.name}</strong></td>
                <td data-label="Client id">
                  <code>${c.clientId}</code>
                  <button type="button" class="button small" aria-label="Copy client id of ${c.name}" @click=${() => copyToClipboard(c.clientId, "Client id")}>
                    Copy
                  </button>
                </td>
                ${hasOrigins
                  ? html`<td data-label="Allowed origins">
                      ${c.allowedOrigins.length
                        ? c.allowedOrigins.map((o) => html`<code>${o}</code><br />`)
                        : html`<span class="badge amber">None: browsers are refused</span>`}
                    </td>`
                  : nothing}
                <td data-label="Created">
                  ${formatDate(c.created)}
                  ${c.explicitScopes ? html`<br /><span class="badge">Narrowed: ${c.scopes.length} of ${c.availableScopes.length} scopes</span>` : nothing}
                </td>
                ${actionsCell(
                  { label: "Edit", name: `Edit ${c.name}`, onClick: () => this.open("edit-client", c) },
                  { label: "Regenerate secret", name: `Regenerate secret of ${c.name}`, onClick: () => this.open("regenerate-secret", c) },
                  { label: "Delete", name: `Delete ${c.name}`, onClick: () => this.open("delete-client", c), danger: true },
                )}
              </tr>`,
            ),
          )}
    </section>`;
  }

  private originsField(id: string, value: string[]) {
    return html`<div class="field">
      <label for=${id}>Allowed origins</label>
      <span class="hint" id="${id}-hint">One per line, such as https://www.example.com (scheme, host and port; no path).</span>
      <textarea id=${id} name="allowedOrigins" rows="3" aria-describedby="${id}-hint" .value=${value.join("\n")}></textarea>
    </div>`;
  }

  private renderNewDialog() {
    return formDialog(this, "new-client", {
      title: "New client",
      error: this.formError,
      errorHeading: "The client was not created",
      onSubmit: (e) => this.create(e),
      action: { label: "Create client", disabled: this.busy },
      body: html`${textField("client-name", "name", "Name", "", { required: true, autofocus: true })}
        <fieldset>
          <legend>Type</legend>
          ${clientTypes.map(
            (t) => html`<label class="choice">
              <input type="radio" name="type" value=${t} .checked=${this.newType === t} @change=${() => (this.newType = t)} />
              <span><strong>${typeInfo[t].title}</strong><br /><span class="hint">${typeInfo[t].about}</span></span>
            </label>`,
          )}
        </fieldset>
        ${typeInfo[this.newType].origins ? this.originsField("new-client-origins", []) : nothing}`,
    });
  }

  private renderEditDialog() {
    const c = this.editing;
    return formDialog(
      this,
      "edit-client",
      c && {
        title: `Edit ${c.name}`,
        error: this.formError,
        errorHeading: "The client was not saved",
        onSubmit: (e) => this.save(e),
        action: { label: "Save", disabled: this.busy },
        body: html`${textField("edit-client-name", "name", "Name", c.name, { required: true })}
        ${typeInfo[c.type].origins ? this.originsField("edit-client-origins", c.allowedOrigins) : nothing}
        <fieldset>
          <legend>Scopes</legend>
          <span class="hint"
            >What this client's tokens may do. Uncheck to narrow; ${c.kind === "public"
              ? "a public client's secret ships in pages and apps, so it never holds more than these."
              : "a backend client keeps its secret on a server."}</span
          >
          ${c.availableScopes.map(
            (scope) => html`<label class="choice">
              <input type="checkbox" name="scopes" value=${scope} .checked=${c.scopes.includes(scope)} />
              <span><code>${scope}</code></span>
            </label>`,
          )}
        </fieldset>`,
      },
    );
  }

  private renderRegenerateDialog() {
    const c = this.target;
    return confirmDialog(
      this,
      "regenerate-secret",
      c && {
        title: `Regenerate the secret of ${c.name}?`,
        body: html`<div class="notice warning">
          <strong>The current secret stops working at once.</strong>
          <p>
            Applications using it can no longer get access tokens, and tokens they already hold are refused within a minute.
            Put the new secret into every application that uses this client right away.
          </p>
        </div>`,
        error: this.formError,
        errorHeading: "The secret was not regenerated",
        action: { label: "Regenerate secret", danger: true, disabled: this.busy, onClick: () => this.regenerate() },
      },
    );
  }

  private renderDeleteDialog() {
    const c = this.target;
    return confirmDialog(
      this,
      "delete-client",
      c && {
        title: `Delete ${c.name}?`,
        body: html`<p>Applications using this client can no longer get tokens, and tokens they hold are refused within a minute.</p>`,
        error: this.formError,
        errorHeading: "The client was not deleted",
        action: { label: "Delete client", danger: true, disabled: this.busy, onClick: () => this.confirmDelete() },
      },
    );
  }

  private renderSecretDialog() {
    const s = this.secret;
    return secretDialog(
      this,
      "client-secret",
      s && {
        title: this.secretKind === "created" ? `Client “${s.name}” created` : `New secret for “${s.name}”`,
        note: "Assent keeps only a hash of it. If it is lost, regenerate it, which stops the old one.",
        facts: [["Client id", html`<code id="new-client-id">${s.clientId}</code>`]],
        label: "Client secret",
        secret: s.clientSecret,
        footnote: html`Get a token with <code>POST /oauth/token</code>, <code>grant_type=client_credentials</code>, this client id and secret.`,
      },
      () => (this.secret = null),
    );
  }
}
