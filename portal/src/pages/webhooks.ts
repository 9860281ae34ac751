import { html, nothing } from "lit";
import { customElement, property, state } from "lit/decorators.js";
import { api, privacy } from "../api";
import type { Project } from "../types";
import { closeDialog, copyToClipboard, formatDateTime, LightElement, loadingView, notify, problemView, showDialog } from "../ui";

type Webhook = {
  webhookId: string;
  url: string;
  events: string[];
  description: string | null;
  previousSecretExpires: string | null;
  created: string;
  updated: string;
};
type Delivery = {
  deliveryId: string;
  eventType: string;
  status: "pending" | "succeeded" | "failed" | "dead";
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttempt: string | null;
  created: string;
};

const eventGroups: { title: string; types: string[] }[] = [
  { title: "Consent", types: ["permission.created", "permission.updated", "permission.withdrawn", "permission_state.changed"] },
  { title: "Objections", types: ["objection.created", "objection.updated", "objection.withdrawn"] },
  { title: "Erasure", types: ["erasure.created", "erasure.updated", "erasure.withdrawn"] },
  { title: "Access", types: ["access.created", "access.updated", "access.withdrawn"] },
  { title: "Identities", types: ["identity.deleted"] },
];
const deliveryColours = { pending: "blue", succeeded: "green", failed: "amber", dead: "red" };

@customElement("ap-webhooks")
export class WebhooksPage extends LightElement {
  @property({ attribute: false }) project!: Project;
  @state() private webhooks: Webhook[] | null = null;
  @state() private available = true;
  @state() private error: unknown = null;
  @state() private formError: unknown = null;
  @state() private secret: { url: string; secret: string } | null = null;
  @state() private removing: Webhook | null = null;
  @state() private deliveries: Record<string, Delivery[] | undefined> = {};
  @state() private busy = false;

  private get base() {
    return privacy(this.project.projectId, "/webhooks");
  }

  override connectedCallback() {
    super.connectedCallback();
    void this.load();
  }

  private async load() {
    try {
      this.webhooks = (await api<{ webhooks: Webhook[] }>("GET", this.base)).webhooks;
    } catch (error) {
      // A server without the events capability answers 404 for the whole route.
      if ((error as { code?: string }).code === "not_found" && !this.webhooks) this.available = false;
      else this.error = error;
    }
  }

  private async create(e: SubmitEvent) {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const data = new FormData(form);
    this.busy = true;
    this.formError = null;
    try {
      const description = String(data.get("description") ?? "").trim();
      const created = await api<Webhook & { secret: string }>("POST", this.base, {
        url: String(data.get("url") ?? "").trim(),
        events: data.getAll("events").map(String),
        ...(description ? { description } : {}),
      });
      closeDialog(this, "new-webhook");
      form.reset();
      await this.load();
      this.showSecret(created.url, created.secret);
    } catch (error) {
      this.formError = error;
    } finally {
      this.busy = false;
    }
  }

  private showSecret(url: string, secret: string) {
    this.secret = { url, secret };
    void this.updateComplete.then(() => showDialog(this, "webhook-secret"));
  }

  private async rotate(w: Webhook) {
    try {
      const rotated = await api<{ secret: string }>("POST", `${this.base}/${w.webhookId}/secret`, {});
      await this.load();
      this.showSecret(w.url, rotated.secret);
    } catch (error) {
      this.error = error;
    }
  }

  private async confirmDelete() {
    const w = this.removing!;
    this.busy = true;
    this.formError = null;
    try {
      await api("DELETE", `${this.base}/${w.webhookId}`);
      closeDialog(this, "delete-webhook");
      notify("Webhook deleted.");
      await this.load();
    } catch (error) {
      this.formError = error;
    } finally {
      this.busy = false;
    }
  }

  private async loadDeliveries(w: Webhook) {
    try {
      const page = await api<{ deliveries: Delivery[] }>("GET", `${this.base}/${w.webhookId}/deliveries?limit=10`);
      this.deliveries = { ...this.deliveries, [w.webhookId]: page.deliveries };
    } catch (error) {
      this.error = error;
    }
  }

  private async redeliver(w: Webhook, d: Delivery) {
    try {
      await api("POST", `${this.base}/${w.webhookId}/deliveries/${d.deliveryId}/redeliver`);
      notify(`${d.eventType} queued for delivery again.`);
      await this.loadDeliveries(w);
    } catch (error) {
      this.error = error;
    }
  }

  protected override render() {
    if (!this.available) {
      return html`<h2>Webhooks</h2>
        <p class="notice info">This server does not offer webhooks. Poll the request lists with <code>updatedSince</code> instead.</p>`;
    }
    return html`<div class="page-head">
        <div>
          <h2>Webhooks</h2>
          <p>Signed notifications of consents and privacy requests, retried with backoff until your endpoint answers 2xx.</p>
        </div>
        <button
          type="button"
          class="button primary"
          @click=${() => {
            this.formError = null;
            showDialog(this, "new-webhook");
          }}
        >
          New webhook
        </button>
      </div>
      ${problemView(this.error)} ${this.webhooks === null && !this.error ? loadingView("webhooks") : nothing}
      ${this.webhooks?.length === 0 ? html`<div class="card empty"><strong>No webhooks</strong>Subscribe an https endpoint to events.</div>` : nothing}
      ${this.webhooks?.map((w) => this.renderWebhook(w))} ${this.renderNew()} ${this.renderSecret()} ${this.renderDelete()}`;
  }

  private renderWebhook(w: Webhook) {
    const deliveries = this.deliveries[w.webhookId];
    return html`<section class="card" aria-label="Webhook ${w.url}">
      <header>
        <div>
          <h3><code>${w.url}</code></h3>
          ${w.description ? html`<p class="muted small" style="margin:0">${w.description}</p>` : nothing}
        </div>
        <div class="actions">
          <button type="button" class="button small" @click=${() => this.rotate(w)}>Rotate secret</button>
          <button
            type="button"
            class="button small quiet-danger"
            @click=${() => {
              this.removing = w;
              this.formError = null;
              void this.updateComplete.then(() => showDialog(this, "delete-webhook"));
            }}
          >
            Delete
          </button>
        </div>
      </header>
      <p class="small">${w.events.map((e) => html`<span class="badge">${e}</span> `)}</p>
      ${w.previousSecretExpires && Date.parse(w.previousSecretExpires) > Date.now()
        ? html`<p class="small muted">The previous secret also signs until ${formatDateTime(w.previousSecretExpires)}.</p>`
        : nothing}
      <details @toggle=${(e: Event) => (e.target as HTMLDetailsElement).open && !deliveries && this.loadDeliveries(w)}>
        <summary>Recent deliveries</summary>
        ${!deliveries
          ? loadingView("deliveries")
          : deliveries.length === 0
            ? html`<p class="muted small">No deliveries yet.</p>`
            : html`<table class="stack">
                <caption class="visually-hidden">Recent deliveries to ${w.url}</caption>
                <thead>
                  <tr>
                    <th scope="col">Event</th>
                    <th scope="col">Status</th>
                    <th scope="col">Attempts</th>
                    <th scope="col">Last answer</th>
                    <th scope="col">Created</th>
                    <th scope="col" class="end">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  ${deliveries.map(
                    (d) => html`<tr>
                      <td data-label="Event"><code>${d.eventType}</code></td>
                      <td data-label="Status"><span class="badge ${deliveryColours[d.status]}">${d.status}</span></td>
                      <td data-label="Attempts">${d.attempts}</td>
                      <td data-label="Last answer" class="small">${d.lastStatusCode ?? d.lastError ?? "—"}</td>
                      <td data-label="Created">${formatDateTime(d.created)}</td>
                      <td data-label="Actions" class="end">
                        <button type="button" class="button small" aria-label="Redeliver ${d.eventType}" @click=${() => this.redeliver(w, d)}>Redeliver</button>
                      </td>
                    </tr>`,
                  )}
                </tbody>
              </table>`}
      </details>
    </section>`;
  }

  private renderNew() {
    return html`<dialog id="new-webhook" aria-labelledby="new-webhook-title">
      <form @submit=${this.create} novalidate>
        <h2 id="new-webhook-title">New webhook</h2>
        ${problemView(this.formError, "The webhook was not created")}
        <div class="field">
          <label for="webhook-url">Endpoint URL</label>
          <input id="webhook-url" name="url" type="url" placeholder="https://" required autocomplete="off" autofocus />
        </div>
        <div class="field">
          <label for="webhook-description">Description (optional)</label>
          <input id="webhook-description" name="description" type="text" autocomplete="off" />
        </div>
        ${eventGroups.map(
          (g) => html`<fieldset>
            <legend>${g.title}</legend>
            <div class="checks">
              ${g.types.map((t) => html`<label class="choice"><input type="checkbox" name="events" value=${t} /> <code>${t}</code></label>`)}
            </div>
          </fieldset>`,
        )}
        <div class="actions end">
          <button type="button" class="button" @click=${() => closeDialog(this, "new-webhook")}>Cancel</button>
          <button type="submit" class="button primary" ?disabled=${this.busy}>Create webhook</button>
        </div>
      </form>
    </dialog>`;
  }

  private renderSecret() {
    const s = this.secret;
    return html`<dialog id="webhook-secret" aria-labelledby="webhook-secret-title" @close=${() => (this.secret = null)}>
      ${s
        ? html`<div class="dialog-body">
            <h2 id="webhook-secret-title">Signing secret</h2>
            <div class="notice warning">
              <strong>Copy the secret now. It is shown only once.</strong>
              <p>Verify each delivery's <code>webhook-signature</code> with it (Standard Webhooks).</p>
            </div>
            <div class="field">
              <label for="webhook-secret-value">Secret for ${s.url}</label>
              <div class="secret-box">
                <input id="webhook-secret-value" type="text" readonly .value=${s.secret} />
                <button type="button" class="button" @click=${() => copyToClipboard(s.secret, "Secret")}>Copy</button>
              </div>
            </div>
            <div class="actions end">
              <button type="button" class="button primary" @click=${() => closeDialog(this, "webhook-secret")}>I have stored the secret</button>
            </div>
          </div>`
        : nothing}
    </dialog>`;
  }

  private renderDelete() {
    const w = this.removing;
    return html`<dialog id="delete-webhook" aria-labelledby="delete-webhook-title" @close=${() => (this.removing = null)}>
      ${w
        ? html`<div class="dialog-body">
            <h2 id="delete-webhook-title">Delete the webhook to ${w.url}?</h2>
            <p>Its delivery log goes with it; events are no longer sent there.</p>
            ${problemView(this.formError, "Not deleted")}
            <div class="actions end">
              <button type="button" class="button" autofocus @click=${() => closeDialog(this, "delete-webhook")}>Cancel</button>
              <button type="button" class="button danger" ?disabled=${this.busy} @click=${this.confirmDelete}>Delete webhook</button>
            </div>
          </div>`
        : nothing}
    </dialog>`;
  }
}
