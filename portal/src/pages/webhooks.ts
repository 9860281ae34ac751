import { html, nothing } from "lit";
import { customElement, property, state } from "lit/decorators.js";
import type { Schemas } from "../../../shared/api/operations";
import { api } from "../api";
import type { Project } from "../types";
import { actionsCell, actionsColumn, confirmDialog, dataTable, formDialog, pageHead, rowActions, secretDialog, textField } from "../parts";
import { ActionElement, closeDialog, formatDateTime, loadingView, notify, problemView } from "../ui";

type Webhook = Schemas["Webhook"];
type Delivery = Schemas["Delivery"];
type ShownSecret = { url: string; secret: string; rotated: boolean; previousSecretExpires: string | null };

const eventGroups: { title: string; types: string[] }[] = [
  { title: "Consent", types: ["permission.created", "permission.updated", "permission.withdrawn", "permission_state.changed"] },
  { title: "Objections", types: ["objection.created", "objection.updated", "objection.withdrawn"] },
  { title: "Erasure", types: ["erasure.created", "erasure.updated", "erasure.withdrawn"] },
  { title: "Access", types: ["access.created", "access.updated", "access.withdrawn"] },
  { title: "Identities", types: ["identity.deleted"] },
  { title: "SMS", types: ["sms.status_changed"] },
];
const deliveryColours = { pending: "blue", succeeded: "green", failed: "amber", dead: "red" };
/** Grace periods offered on rotation; the API's default (24 hours) is preselected. */
const gracePeriods = [
  { seconds: 3600, label: "1 hour" },
  { seconds: 86_400, label: "24 hours" },
  { seconds: 7 * 86_400, label: "7 days" },
  { seconds: 0, label: "No time: it stops signing at once" },
];
/** How often an open delivery log is re-read while a delivery in it has not had its first attempt yet. */
const pendingRefreshMs = 2000;

/** The endpoint's last answer as the operator needs it: status and latency, or why there was none. */
function lastAnswer(d: Delivery) {
  if (d.lastStatusCode !== null) return d.lastLatencyMs !== null ? `${d.lastStatusCode} in ${d.lastLatencyMs} ms` : String(d.lastStatusCode);
  return d.lastError ?? "—";
}

@customElement("ap-webhooks")
export class WebhooksPage extends ActionElement {
  @property({ attribute: false }) project!: Project;
  @state() private webhooks: Webhook[] | null = null;
  @state() private available = true;
  @state() private error: unknown = null;
  @state() private secret: ShownSecret | null = null;
  @state() private target: Webhook | null = null;
  @state() private deliveries: Record<string, Delivery[] | undefined> = {};
  /** Errors of a webhook's own actions (its log, redelivery), shown in its card rather than at the top of the page. */
  @state() private cardErrors: Record<string, unknown> = {};
  private openLogs = new Set<string>();
  private refreshTimers = new Map<string, ReturnType<typeof setTimeout>>();

  /** The path parameters of one webhook's routes. */
  private of(w: Webhook) {
    return { project_id: this.project.projectId, webhook_id: w.webhookId };
  }

  override connectedCallback() {
    super.connectedCallback();
    void this.load();
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    for (const timer of this.refreshTimers.values()) clearTimeout(timer);
    this.refreshTimers.clear();
    this.openLogs.clear();
  }

  private async load() {
    try {
      this.webhooks = (await api("GET", "/privacy/v2/projects/{project_id}/webhooks", { params: { project_id: this.project.projectId } })).webhooks;
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
        ? await api("GET", "/privacy/v2/projects/{project_id}/webhooks/{webhook_id}", { params: this.of(listed) }).catch(() => listed)
        : listed;
    this.openDialog(id);
  }

  private create(e: SubmitEvent) {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const data = new FormData(form);
    return this.run(async () => {
      const description = String(data.get("description") ?? "").trim();
      const created = await api("POST", "/privacy/v2/projects/{project_id}/webhooks", {
        params: { project_id: this.project.projectId },
        body: {
          url: String(data.get("url") ?? "").trim(),
          // The checkboxes offer only the API's event types.
          events: data.getAll("events").map(String) as Webhook["events"],
          ...(description ? { description } : {}),
        },
      });
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
    const gracePeriodSeconds = Number(new FormData(e.target as HTMLFormElement).get("gracePeriodSeconds"));
    return this.run(async () => {
      const rotated = await api("POST", "/privacy/v2/projects/{project_id}/webhooks/{webhook_id}/secret", { params: this.of(w), body: { gracePeriodSeconds } });
      closeDialog(this, "rotate-webhook-secret");
      await this.load();
      this.showSecret({ url: w.url, secret: rotated.secret, rotated: true, previousSecretExpires: rotated.previousSecretExpires });
    });
  }

  private confirmDelete() {
    const w = this.target!;
    return this.run(async () => {
      await api("DELETE", "/privacy/v2/projects/{project_id}/webhooks/{webhook_id}", { params: this.of(w) });
      closeDialog(this, "delete-webhook");
      notify("Webhook deleted.");
      this.openLogs.delete(w.webhookId);
      await this.load();
    });
  }

  private toggleLog(w: Webhook, open: boolean) {
    if (!open) {
      this.openLogs.delete(w.webhookId);
      return;
    }
    this.openLogs.add(w.webhookId);
    void this.loadDeliveries(w);
  }

  private async loadDeliveries(w: Webhook) {
    clearTimeout(this.refreshTimers.get(w.webhookId));
    this.refreshTimers.delete(w.webhookId);
    try {
      const page = await api("GET", "/privacy/v2/projects/{project_id}/webhooks/{webhook_id}/deliveries", { params: this.of(w), query: { limit: 10 } });
      this.deliveries = { ...this.deliveries, [w.webhookId]: page.deliveries };
      this.cardErrors = { ...this.cardErrors, [w.webhookId]: null };
      // First attempts follow within seconds; re-read until they are in, so the log never shows a stale "pending".
      if (this.openLogs.has(w.webhookId) && page.deliveries.some((d) => d.status === "pending")) {
        this.refreshTimers.set(w.webhookId, setTimeout(() => void this.loadDeliveries(w), pendingRefreshMs));
      }
    } catch (error) {
      this.cardErrors = { ...this.cardErrors, [w.webhookId]: error };
    }
  }

  private async redeliver(w: Webhook, d: Delivery) {
    try {
      await api("POST", "/privacy/v2/projects/{project_id}/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver", { params: { ...this.of(w), delivery_id: d.deliveryId } });
      notify(`${d.eventType} queued for delivery again.`);
      await this.loadDeliveries(w);
    } catch (error) {
      this.cardErrors = { ...this.cardErrors, [w.webhookId]: error };
    }
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
    const deliveries = this.deliveries[w.webhookId];
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
      ${problemView(this.cardErrors[w.webhookId])}
      <details @toggle=${(e: Event) => this.toggleLog(w, (e.target as HTMLDetailsElement).open)}>
        <summary>Delivery log</summary>
        ${!deliveries
          ? loadingView("deliveries")
          : html`<div class="actions">
                <span class="small muted">The ten newest deliveries.</span>
                ${rowActions({ label: "Refresh", name: `Refresh the delivery log of ${w.url}`, onClick: () => this.loadDeliveries(w) })}
              </div>
              ${deliveries.length === 0 ? html`<p class="muted small">No deliveries yet.</p>` : this.renderDeliveries(w, deliveries)}`}
      </details>
    </section>`;
  }

  private renderDeliveries(w: Webhook, deliveries: Delivery[]) {
    return dataTable(
      html`Recent deliveries to ${w.url}`,
      ["Event", "Status", "Attempts", "Last answer", "Created", actionsColumn],
      deliveries.map(
        (d) => html`<tr data-delivery-id=${d.deliveryId}>
          <td data-label="Event">
            <code>${d.eventType}</code>${d.redeliveryOf ? html`<br /><span class="small muted">Redelivery</span>` : nothing}
          </td>
          <td data-label="Status">
            <span class="badge ${deliveryColours[d.status]}">${d.status}</span>
            ${d.status === "failed" && d.nextAttempt ? html`<br /><span class="small muted">Retry at ${formatDateTime(d.nextAttempt)}</span>` : nothing}
          </td>
          <td data-label="Attempts">${d.attempts}</td>
          <td data-label="Last answer">${lastAnswer(d)}</td>
          <td data-label="Created">${formatDateTime(d.created)}</td>
          ${actionsCell({
            label: "Redeliver",
            name: `Redeliver ${d.eventType} of ${formatDateTime(d.created)} (${d.deliveryId})`,
            onClick: () => this.redeliver(w, d),
          })}
        </tr>`,
      ),
    );
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
    const w = this.target;
    return formDialog(
      this,
      "rotate-webhook-secret",
      w && {
        title: html`Rotate the signing secret of <code>${w.url}</code>?`,
        error: this.formError,
        errorHeading: "The secret was not rotated",
        onSubmit: (e) => this.rotate(e),
        action: { label: "Rotate secret", disabled: this.busy },
        body: html`<p>
            A new secret is shown once. During the grace period both secrets sign every delivery (two <code>v1,</code>
            signatures), so your endpoint can switch to the new secret at any moment in that window.
          </p>
          <div class="field">
            <label for="rotate-grace">Previous secret keeps signing for</label>
            <select id="rotate-grace" name="gracePeriodSeconds">
              ${gracePeriods.map((g) => html`<option value=${g.seconds} ?selected=${g.seconds === 86_400}>${g.label}</option>`)}
            </select>
          </div>`,
      },
    );
  }

  private renderSecret() {
    const s = this.secret;
    return secretDialog(
      this,
      "webhook-secret",
      s && {
        title: s.rotated ? "New signing secret" : "Webhook created",
        note: html`Verify each delivery's <code>webhook-signature</code> with it (Standard Webhooks).
        ${s.rotated
          ? s.previousSecretExpires
            ? `The previous secret keeps signing until ${formatDateTime(s.previousSecretExpires)}; after that only this one does.`
            : "The previous secret no longer signs."
          : nothing}`,
        facts: [["Endpoint", html`<code>${s.url}</code>`]],
        label: "Signing secret",
        secret: s.secret,
      },
      () => (this.secret = null),
    );
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
