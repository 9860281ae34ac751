// The webhooks page: the project's webhooks, one card each, with creation, secret rotation and deletion. Each card's
// delivery log is ./delivery-log.ts; the secret's dialogs are ./secrets.ts.
import { html, nothing } from "lit";
import { customElement, property, state } from "lit/decorators.js";
import type { Schemas } from "../../../../shared/api/operations";
import { api, ok } from "../../api";
import type { Project } from "../../types";
import { confirmDialog, formDialog, pageHead, rowActions, textField } from "../../parts";
import { ActionElement, closeDialog, formatDateTime, loadingView, notify, problemView } from "../../ui";
import { DeliveryLog } from "./delivery-log";
import { gracePeriodOf, rotateDialog, shownSecretDialog, type ShownSecret } from "./secrets";

type Webhook = Schemas["Webhook"];

const eventGroups: { title: string; types: string[] }[] = [
  { title: "Consent", types: ["permission.created", "permission.updated", "permission.withdrawn", "permission_state.changed"] },
  { title: "Objections", types: ["objection.created", "objection.updated", "objection.withdrawn"] },
  { title: "Erasure", types: ["erasure.created", "erasure.updated", "erasure.withdrawn"] },
  { title: "Access", types: ["access.created", "access.updated", "access.withdrawn"] },
  { title: "Identities", types: ["identity.deleted"] },
  { title: "SMS", types: ["sms.status_changed"] },
  { title: "Scanner", types: ["scan.completed"] },
];

@customElement("ap-webhooks")
export class WebhooksPage extends ActionElement {
  @property({ attribute: false }) project!: Project;
  @state() private webhooks: Webhook[] | null = null;
  @state() private available = true;
  @state() private error: unknown = null;
  @state() private secret: ShownSecret | null = null;
  @state() private target: Webhook | null = null;
  private deliveryLog = new DeliveryLog(this, (w) => this.of(w));

  /** The path parameters of one webhook's routes. */
  private of(w: Webhook) {
    return { project_id: this.project.projectId, webhook_id: w.webhookId };
  }

  override connectedCallback() {
    super.connectedCallback();
    void this.load();
  }

  private async load() {
    try {
      this.webhooks = (await ok(api.GET("/privacy/v2/projects/{project_id}/webhooks", { params: { path: { project_id: this.project.projectId } } }))).webhooks;
    } catch (error) {
      // A server without the events capability answers 404 for the whole route.
      if ((error as { code?: string }).code === "not_found" && !this.webhooks) this.available = false;
      else this.error = error;
    }
  }

  private async open(id: string, listed: Webhook | null) {
    // A deletion starts from the webhook as it is now: the portal sends this read's ETag with the DELETE.
    this.target =
      listed && id === "delete-webhook"
        ? await ok(api.GET("/privacy/v2/projects/{project_id}/webhooks/{webhook_id}", { params: { path: this.of(listed) } })).catch(() => listed)
        : listed;
    this.openDialog(id);
  }

  private create(e: SubmitEvent) {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const data = new FormData(form);
    return this.run(async () => {
      const description = String(data.get("description") ?? "").trim();
      const created = await ok(api.POST("/privacy/v2/projects/{project_id}/webhooks", {
        params: { path: { project_id: this.project.projectId } },
        body: {
          url: String(data.get("url") ?? "").trim(),
          // The checkboxes offer only the API's event types.
          events: data.getAll("events").map(String) as Webhook["events"],
          ...(description ? { description } : {}),
        },
      }));
      closeDialog(this, "new-webhook");
      form.reset();
      await this.load();
      this.showSecret({ url: created.url, secret: created.secret, rotated: false, previousSecretExpires: null });
    });
  }

  private showSecret(shown: ShownSecret) {
    this.secret = shown;
    this.openDialog("webhook-secret");
  }

  private rotate(e: SubmitEvent) {
    e.preventDefault();
    const w = this.target!;
    const gracePeriodSeconds = gracePeriodOf(e.target as HTMLFormElement);
    return this.run(async () => {
      const rotated = await ok(api.POST("/privacy/v2/projects/{project_id}/webhooks/{webhook_id}/secret", { params: { path: this.of(w) }, body: { gracePeriodSeconds } }));
      closeDialog(this, "rotate-webhook-secret");
      await this.load();
      this.showSecret({ url: w.url, secret: rotated.secret, rotated: true, previousSecretExpires: rotated.previousSecretExpires });
    });
  }

  private confirmDelete() {
    const w = this.target!;
    return this.run(async () => {
      await ok(api.DELETE("/privacy/v2/projects/{project_id}/webhooks/{webhook_id}", { params: { path: this.of(w) } }));
      closeDialog(this, "delete-webhook");
      notify("Webhook deleted.");
      this.deliveryLog.forget(w);
      await this.load();
    });
  }

  protected override render() {
    if (!this.available) {
      return html`<h2>Webhooks</h2>
        <p class="notice info">This server does not offer webhooks. Poll the request lists with <code>updatedSince</code> instead.</p>`;
    }
    return html`${pageHead(
        "Webhooks",
        "Signed notifications of consents and privacy requests, retried with backoff until your endpoint answers 2xx.",
        html`<button type="button" class="button primary" @click=${() => this.open("new-webhook", null)}>New webhook</button>`,
      )}
      ${problemView(this.error, "The webhooks could not be loaded")}
      ${this.webhooks === null && !this.error ? loadingView("webhooks") : nothing}
      ${this.webhooks?.length === 0
        ? html`<div class="card empty"><strong>No webhooks</strong>Subscribe an https endpoint to events.</div>`
        : nothing}
      ${this.webhooks?.map((w) => this.renderWebhook(w))} ${this.renderNew()} ${this.renderRotate()} ${this.renderSecret()}
      ${this.renderDelete()}`;
  }

  private renderWebhook(w: Webhook) {
    return html`<section class="card" aria-label="Webhook ${w.url}">
      <header>
        <div>
          <h3><code>${w.url}</code></h3>
          ${w.description ? html`<p class="muted small" style="margin:0">${w.description}</p>` : nothing}
        </div>
        ${rowActions(
          { label: "Rotate secret", name: `Rotate secret of ${w.url}`, onClick: () => this.open("rotate-webhook-secret", w) },
          { label: "Delete", name: `Delete webhook ${w.url}`, onClick: () => this.open("delete-webhook", w), danger: true },
        )}
      </header>
      <ul class="badges" aria-label="Events">
        ${w.events.map((e) => html`<li class="badge">${e}</li>`)}
      </ul>
      ${w.previousSecretExpires && Date.parse(w.previousSecretExpires) > Date.now()
        ? html`<p class="small muted">The previous secret also signs until ${formatDateTime(w.previousSecretExpires)}.</p>`
        : nothing}
      ${this.deliveryLog.render(w)}
    </section>`;
  }

  private renderNew() {
    return formDialog(this, "new-webhook", {
      title: "New webhook",
      error: this.formError,
      errorHeading: "The webhook was not created",
      onSubmit: (e) => this.create(e),
      action: { label: "Create webhook", disabled: this.busy },
      body: html`${textField("webhook-url", "url", "Endpoint URL", "", {
          type: "url",
          placeholder: "https://",
          required: true,
          autofocus: true,
          hint: html`https on a public host. A server started with <code>npm start</code> also accepts http to this machine.`,
        })}
        ${textField("webhook-description", "description", "Description (optional)", "")}
        ${eventGroups.map(
          (g) => html`<fieldset>
            <legend>${g.title}</legend>
            <div class="checks">
              ${g.types.map((t) => html`<label class="choice"><input type="checkbox" name="events" value=${t} /> <code>${t}</code></label>`)}
            </div>
          </fieldset>`,
        )}`,
    });
  }

  private renderRotate() {
    return rotateDialog(this, "rotate-webhook-secret", this.target, {
      error: this.formError,
      busy: this.busy,
      onSubmit: (e) => this.rotate(e),
    });
  }

  private renderSecret() {
    return shownSecretDialog(this, "webhook-secret", this.secret, () => (this.secret = null));
  }

  private renderDelete() {
    const w = this.target;
    return confirmDialog(
      this,
      "delete-webhook",
      w && {
        title: html`Delete the webhook to <code>${w.url}</code>?`,
        body: html`<p>Its delivery log goes with it; events are no longer sent there, and deliveries still retrying are dropped.</p>`,
        error: this.formError,
        errorHeading: "The webhook was not deleted",
        action: { label: "Delete webhook", danger: true, disabled: this.busy, onClick: () => this.confirmDelete() },
      },
    );
  }
}
