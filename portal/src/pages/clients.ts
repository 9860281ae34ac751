import { html, nothing } from "lit";
import { customElement, property, state } from "lit/decorators.js";
import { adminProject, api } from "../api";
import { clientTypes, type Client, type ClientType, type ClientWithSecret, type Project } from "../types";
import { closeDialog, copyToClipboard, formatDate, LightElement, loadingView, notify, problemView, showDialog } from "../ui";

const typeLabels: Record<ClientType, { title: string; about: string }> = {
  web: { title: "Web", about: "Websites. Browsers get visitor tokens only from the allowed origins." },
  ios: { title: "iOS", about: "iPhone and iPad apps." },
  android: { title: "Android", about: "Android apps." },
  backend: { title: "Backend", about: "Servers: full access to the project's privacy API." },
};

const originsOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((o) => o.trim().replace(/\/$/, ""))
    .filter(Boolean);

@customElement("ap-clients")
export class ClientsPage extends LightElement {
  @property({ attribute: false }) project!: Project;
  @state() private clients: Client[] | null = null;
  @state() private error: unknown = null;
  @state() private formError: unknown = null;
  @state() private newType: ClientType = "backend";
  @state() private editing: Client | null = null;
  @state() private target: Client | null = null;
  @state() private secret: ClientWithSecret | null = null;
  @state() private secretKind: "created" | "regenerated" = "created";
  @state() private busy = false;

  override connectedCallback() {
    super.connectedCallback();
    void this.load();
  }

  private async load() {
    try {
      this.clients = (await api<{ items: Client[] }>("GET", adminProject(this.project.projectId, "/clients"))).items;
    } catch (error) {
      this.error = error;
    }
  }

  private async run(action: () => Promise<void>) {
    this.busy = true;
    this.formError = null;
    try {
      await action();
    } catch (error) {
      this.formError = error;
    } finally {
      this.busy = false;
    }
  }

  private showSecret(client: ClientWithSecret, kind: "created" | "regenerated") {
    this.secret = client;
    this.secretKind = kind;
    void this.updateComplete.then(() => showDialog(this, "client-secret"));
  }

  private create(e: SubmitEvent) {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    return this.run(async () => {
      const body = {
        name: String(data.get("name") ?? "").trim(),
        type: this.newType,
        ...(this.newType === "web" ? { allowedOrigins: originsOf(String(data.get("allowedOrigins") ?? "")) } : {}),
      };
      const client = await api<ClientWithSecret>("POST", adminProject(this.project.projectId, "/clients"), body);
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
      const body = {
        name: String(data.get("name") ?? "").trim(),
        ...(client.type === "web" ? { allowedOrigins: originsOf(String(data.get("allowedOrigins") ?? "")) } : {}),
      };
      await api("PUT", adminProject(this.project.projectId, `/clients/${client.clientId}`), body);
      closeDialog(this, "edit-client");
      notify(`Client “${body.name}” saved.`);
      await this.load();
    });
  }

  private regenerate() {
    const client = this.target!;
    return this.run(async () => {
      const updated = await api<ClientWithSecret>("POST", adminProject(this.project.projectId, `/clients/${client.clientId}/secret`));
      closeDialog(this, "regenerate-secret");
      this.showSecret(updated, "regenerated");
    });
  }

  private confirmDelete() {
    const client = this.target!;
    return this.run(async () => {
      await api("DELETE", adminProject(this.project.projectId, `/clients/${client.clientId}`));
      closeDialog(this, "delete-client");
      notify(`Client “${client.name}” deleted.`);
      await this.load();
    });
  }

  private open(id: string, client: Client | null) {
    this.formError = null;
    if (id === "edit-client") this.editing = client;
    else this.target = client;
    void this.updateComplete.then(() => showDialog(this, id));
  }

  protected override render() {
    return html`<div class="page-head">
        <div>
          <h2>Clients</h2>
          <p>Applications that call the API with the client-credentials grant. One client per application type is recommended.</p>
        </div>
        <button type="button" class="button primary" @click=${() => this.open("new-client", null)}>New client</button>
      </div>
      ${problemView(this.error, "The clients could not be loaded")} ${this.clients === null && !this.error ? loadingView("clients") : nothing}
      ${this.clients ? clientTypes.map((type) => this.renderType(type, this.clients!.filter((c) => c.type === type))) : nothing}
      ${this.renderNewDialog()} ${this.renderEditDialog()} ${this.renderRegenerateDialog()} ${this.renderDeleteDialog()} ${this.renderSecretDialog()}`;
  }

  private renderType(type: ClientType, clients: Client[]) {
    const label = typeLabels[type];
    return html`<section class="card" aria-labelledby="type-${type}">
      <header>
        <div>
          <h3 id="type-${type}">${label.title} <span class="badge">${clients.length}</span></h3>
          <p class="muted small" style="margin:0">${label.about}</p>
        </div>
      </header>
      ${clients.length === 0
        ? html`<p class="muted small">No ${label.title} clients.</p>`
        : html`<table class="stack">
            <caption class="visually-hidden">${label.title} clients</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Client id</th>
                ${type === "web" ? html`<th scope="col">Allowed origins</th>` : nothing}
                <th scope="col">Created</th>
                <th scope="col" class="end">Actions</th>
              </tr>
            </thead>
            <tbody>
              ${clients.map(
                (c) => html`<tr>
                  <td data-label="Name"><strong>${c.name}</strong></td>
                  <td data-label="Client id">
                    <code>${c.clientId}</code>
                    <button type="button" class="button small" aria-label="Copy client id of ${c.name}" @click=${() => copyToClipboard(c.clientId, "Client id")}>
                      Copy
                    </button>
                  </td>
                  ${type === "web"
                    ? html`<td data-label="Allowed origins">
                        ${c.allowedOrigins.length
                          ? c.allowedOrigins.map((o) => html`<code>${o}</code><br />`)
                          : html`<span class="badge amber">None: browsers are refused</span>`}
                      </td>`
                    : nothing}
                  <td data-label="Created">${formatDate(c.created)}</td>
                  <td data-label="Actions" class="end">
                    <div class="actions">
                      <button type="button" class="button small" aria-label="Edit ${c.name}" @click=${() => this.open("edit-client", c)}>Edit</button>
                      <button type="button" class="button small" aria-label="Regenerate secret of ${c.name}" @click=${() => this.open("regenerate-secret", c)}>
                        Regenerate secret
                      </button>
                      <button type="button" class="button small quiet-danger" aria-label="Delete ${c.name}" @click=${() => this.open("delete-client", c)}>
                        Delete
                      </button>
                    </div>
                  </td>
                </tr>`,
              )}
            </tbody>
          </table>`}
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
    return html`<dialog id="new-client" aria-labelledby="new-client-title">
      <form @submit=${this.create} novalidate>
        <h2 id="new-client-title">New client</h2>
        ${problemView(this.formError, "The client was not created")}
        <div class="field">
          <label for="client-name">Name</label>
          <input id="client-name" name="name" type="text" required autocomplete="off" autofocus />
        </div>
        <fieldset>
          <legend>Type</legend>
          ${clientTypes.map(
            (t) => html`<label class="choice">
              <input type="radio" name="type" value=${t} .checked=${this.newType === t} @change=${() => (this.newType = t)} />
              <span><strong>${typeLabels[t].title}</strong><br /><span class="hint">${typeLabels[t].about}</span></span>
            </label>`,
          )}
        </fieldset>
        ${this.newType === "web" ? this.originsField("new-client-origins", []) : nothing}
        <div class="actions end">
          <button type="button" class="button" @click=${() => closeDialog(this, "new-client")}>Cancel</button>
          <button type="submit" class="button primary" ?disabled=${this.busy}>Create client</button>
        </div>
      </form>
    </dialog>`;
  }

  private renderEditDialog() {
    const c = this.editing;
    return html`<dialog id="edit-client" aria-labelledby="edit-client-title">
      ${c
        ? html`<form @submit=${this.save} novalidate>
            <h2 id="edit-client-title">Edit ${c.name}</h2>
            ${problemView(this.formError, "The client was not saved")}
            <div class="field">
              <label for="edit-client-name">Name</label>
              <input id="edit-client-name" name="name" type="text" required autocomplete="off" .value=${c.name} />
            </div>
            ${c.type === "web" ? this.originsField("edit-client-origins", c.allowedOrigins) : nothing}
            <div class="actions end">
              <button type="button" class="button" @click=${() => closeDialog(this, "edit-client")}>Cancel</button>
              <button type="submit" class="button primary" ?disabled=${this.busy}>Save</button>
            </div>
          </form>`
        : nothing}
    </dialog>`;
  }

  private renderRegenerateDialog() {
    const c = this.target;
    return html`<dialog id="regenerate-secret" aria-labelledby="regenerate-title">
      <div class="dialog-body">
        <h2 id="regenerate-title">Regenerate the secret of ${c?.name}?</h2>
        <div class="notice warning">
          <strong>The current secret stops working at once.</strong>
          <p>
            Applications using it can no longer get access tokens, and tokens they already hold are refused within a minute.
            Put the new secret into every application that uses this client right away.
          </p>
        </div>
        ${problemView(this.formError, "The secret was not regenerated")}
        <div class="actions end">
          <button type="button" class="button" autofocus @click=${() => closeDialog(this, "regenerate-secret")}>Cancel</button>
          <button type="button" class="button danger" ?disabled=${this.busy} @click=${this.regenerate}>Regenerate secret</button>
        </div>
      </div>
    </dialog>`;
  }

  private renderDeleteDialog() {
    const c = this.target;
    return html`<dialog id="delete-client" aria-labelledby="delete-client-title">
      <div class="dialog-body">
        <h2 id="delete-client-title">Delete ${c?.name}?</h2>
        <p>Applications using this client can no longer get tokens, and tokens they hold are refused within a minute.</p>
        ${problemView(this.formError, "The client was not deleted")}
        <div class="actions end">
          <button type="button" class="button" autofocus @click=${() => closeDialog(this, "delete-client")}>Cancel</button>
          <button type="button" class="button danger" ?disabled=${this.busy} @click=${this.confirmDelete}>Delete client</button>
        </div>
      </div>
    </dialog>`;
  }

  private renderSecretDialog() {
    const s = this.secret;
    return html`<dialog
      id="client-secret"
      aria-labelledby="secret-title"
      @close=${() => {
        // The secret leaves memory with the dialog: it is never shown again.
        this.secret = null;
      }}
    >
      ${s
        ? html`<div class="dialog-body">
            <h2 id="secret-title">${this.secretKind === "created" ? `Client “${s.name}” created` : `New secret for “${s.name}”`}</h2>
            <div class="notice warning">
              <strong>Copy the secret now. It is shown only once.</strong>
              <p>Assent keeps only a hash of it. If it is lost, regenerate it, which stops the old one.</p>
            </div>
            <dl class="facts">
              <dt>Client id</dt>
              <dd><code id="new-client-id">${s.clientId}</code></dd>
            </dl>
            <div class="field" style="margin-top:1rem">
              <label for="client-secret-value">Client secret</label>
              <div class="secret-box">
                <input id="client-secret-value" type="text" readonly .value=${s.clientSecret} @focus=${(e: Event) => (e.target as HTMLInputElement).select()} />
                <button type="button" class="button" @click=${() => copyToClipboard(s.clientSecret, "Secret")}>Copy</button>
              </div>
            </div>
            <p class="small muted">
              Get a token with <code>POST /oauth/token</code>, <code>grant_type=client_credentials</code>, this client id and secret.
            </p>
            <div class="actions end">
              <button type="button" class="button primary" @click=${() => closeDialog(this, "client-secret")}>I have stored the secret</button>
            </div>
          </div>`
        : nothing}
    </dialog>`;
  }
}
