// Each webhook's delivery log: read when its card's log is opened, re-read while a first attempt is pending, and
// redelivery of one entry. A Lit controller of the webhooks page, so the log keeps its own state and timers.
import { html, nothing, type ReactiveController, type ReactiveControllerHost } from "lit";
import type { Schemas } from "../../../../shared/api/operations";
import { api, ok } from "../../api";
import { actionsCell, actionsColumn, dataTable, rowActions } from "../../parts";
import { formatDateTime, loadingView, notify, problemView } from "../../ui";

type Webhook = Schemas["Webhook"];
type Delivery = Schemas["Delivery"];

const deliveryColours = { pending: "blue", succeeded: "green", failed: "amber", dead: "red" };
/** How often an open delivery log is re-read while a delivery in it has not had its first attempt yet. */
const pendingRefreshMs = 2000;

/** The endpoint's last answer as the operator needs it: status and latency, or why there was none. */
function lastAnswer(d: Delivery) {
  if (d.lastStatusCode !== null) return d.lastLatencyMs !== null ? `${d.lastStatusCode} in ${d.lastLatencyMs} ms` : String(d.lastStatusCode);
  return d.lastError ?? "—";
}

export class DeliveryLog implements ReactiveController {
  private deliveries: Record<string, Delivery[] | undefined> = {};
  /** Errors of a webhook's own actions (its log, redelivery), shown in its card rather than at the top of the page. */
  private errors: Record<string, unknown> = {};
  private openLogs = new Set<string>();
  private refreshTimers = new Map<string, ReturnType<typeof setTimeout>>();

  /** `of` gives the path parameters of one webhook's routes. */
  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly of: (w: Webhook) => { project_id: string; webhook_id: string },
  ) {
    host.addController(this);
  }

  hostDisconnected() {
    for (const timer of this.refreshTimers.values()) clearTimeout(timer);
    this.refreshTimers.clear();
    this.openLogs.clear();
  }

  /** The webhook is gone: its log is no longer re-read. */
  forget(w: Webhook) {
    this.openLogs.delete(w.webhookId);
  }

  private failed(w: Webhook, error: unknown) {
    this.errors = { ...this.errors, [w.webhookId]: error };
    this.host.requestUpdate();
  }

  private toggle(w: Webhook, open: boolean) {
    if (!open) {
      this.openLogs.delete(w.webhookId);
      return;
    }
    this.openLogs.add(w.webhookId);
    void this.load(w);
  }

  private async load(w: Webhook) {
    clearTimeout(this.refreshTimers.get(w.webhookId));
    this.refreshTimers.delete(w.webhookId);
    try {
      const page = await ok(api.GET("/privacy/v2/projects/{project_id}/webhooks/{webhook_id}/deliveries", { params: { path: this.of(w), query: { limit: 10 } } }));
      this.deliveries = { ...this.deliveries, [w.webhookId]: page.deliveries };
      this.errors = { ...this.errors, [w.webhookId]: null };
      this.host.requestUpdate();
      // First attempts follow within seconds; re-read until they are in, so the log never shows a stale "pending".
      if (this.openLogs.has(w.webhookId) && page.deliveries.some((d) => d.status === "pending")) {
        this.refreshTimers.set(w.webhookId, setTimeout(() => void this.load(w), pendingRefreshMs));
      }
    } catch (error) {
      this.failed(w, error);
    }
  }

  private async redeliver(w: Webhook, d: Delivery) {
    try {
      await ok(api.POST("/privacy/v2/projects/{project_id}/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver", { params: { path: { ...this.of(w), delivery_id: d.deliveryId } } }));
      notify(`${d.eventType} queued for delivery again.`);
      await this.load(w);
    } catch (error) {
      this.failed(w, error);
    }
  }

  /** The problem of the webhook's last log action, if any, and its log, folded until opened. */
  render(w: Webhook) {
    const deliveries = this.deliveries[w.webhookId];
    return html`${problemView(this.errors[w.webhookId])}
      <details @toggle=${(e: Event) => this.toggle(w, (e.target as HTMLDetailsElement).open)}>
        <summary>Delivery log</summary>
        ${!deliveries
          ? loadingView("deliveries")
          : html`<div class="actions">
                <span class="small muted">The ten newest deliveries.</span>
                ${rowActions({ label: "Refresh", name: `Refresh the delivery log of ${w.url}`, onClick: () => this.load(w) })}
              </div>
              ${deliveries.length === 0 ? html`<p class="muted small">No deliveries yet.</p>` : this.renderDeliveries(w, deliveries)}`}
      </details>`;
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
}
