import { html, nothing } from "lit";
import { customElement, property, state } from "lit/decorators.js";
import type { Schemas } from "../../../shared/api/operations";
import { api, ok } from "../api";
import { dataTable, pageHead, rowActions } from "../parts";
import type { Project } from "../types";
import { formatDateTime, LightElement, loadingView, problemView, several } from "../ui";

// The operator's view of SMS: the routes with their health (shared by all projects; secrets are never sent), and
// this project's messages, each with its trail (docs/hub.md).

type SmsRoute = Schemas["SmsRoute"];
type SmsMessage = Schemas["SmsMessageWithTrail"];
type SmsStatus = SmsMessage["status"];

const statusColours: Record<SmsStatus, string> = {
  pending: "blue",
  retrying: "amber",
  accepted: "blue",
  delivered: "green",
  undelivered: "red",
  failed: "red",
  expired: "red",
  outbox_only: "",
};

const badge = (status: SmsStatus) => html`<span class="badge ${statusColours[status]}">${status}</span>`;

@customElement("ap-sms")
export class SmsPage extends LightElement {
  @property({ attribute: false }) project!: Project;
  @state() private routes: SmsRoute[] | null = null;
  @state() private messages: SmsMessage[] | null = null;
  @state() private error: unknown = null;

  override connectedCallback() {
    super.connectedCallback();
    void this.load();
  }

  private async load() {
    this.error = null;
    try {
      const [routes, messages] = await Promise.all([
        ok(api.GET("/admin/v1/sms/routes")),
        ok(api.GET("/admin/v1/messages", { params: { query: { projectId: this.project.projectId, limit: 50 } } })),
      ]);
      this.routes = routes.items;
      this.messages = messages.items;
    } catch (error) {
      this.error = error;
    }
  }

  protected override render() {
    return html`${pageHead(
        "SMS",
        "The SMS routes of this server and their health, and this project's messages with the trail of each.",
        rowActions({ label: "Refresh", name: "Refresh the SMS routes and messages", onClick: () => void this.load() }),
      )}
      ${problemView(this.error, "SMS could not be loaded")}
      ${this.routes === null && !this.error ? loadingView("SMS routes") : nothing} ${this.routes ? this.renderRoutes(this.routes) : nothing}
      ${this.messages ? this.renderMessages(this.messages) : nothing}`;
  }

  private renderRoutes(routes: SmsRoute[]) {
    return html`<h3>Routes</h3>
      ${dataTable(
        "SMS routes",
        ["Route", "Provider", "Credentials", "Fallback", "Validity", "Last success", "Last error", { label: "Waiting", end: true }],
        routes.map(
          (r) => html`<tr data-route=${r.name}>
            <td data-label="Route"><code>${r.name}</code></td>
            <td data-label="Provider">${r.adapter}${r.baseUrl ? html`<br /><span class="small muted">${r.baseUrl}</span>` : nothing}</td>
            <td data-label="Credentials">
              ${r.configured ? html`<span class="badge green">set</span>` : html`<span class="badge red">missing</span>`}
              ${r.problem ? html`<br /><span class="small muted">${r.problem}</span>` : nothing}
            </td>
            <td data-label="Fallback">${r.fallback ? html`<code>${r.fallback}</code> after ${r.failoverAfter} failures` : "—"}</td>
            <td data-label="Validity">${r.validityHours} h</td>
            <td data-label="Last success">${r.lastSuccess ? formatDateTime(r.lastSuccess) : "—"}</td>
            <td data-label="Last error">
              ${r.lastError ? html`${r.lastError}<br /><span class="small muted">${formatDateTime(r.lastErrorAt!)}</span>` : "—"}
            </td>
            <td data-label="Waiting" class="end">${r.waiting}</td>
          </tr>`,
        ),
      )}`;
  }

  private renderMessages(messages: SmsMessage[]) {
    if (messages.length === 0) {
      return html`<h3>Messages</h3>
        <div class="card empty"><strong>No messages</strong>This project's backend clients have not sent SMS yet.</div>`;
    }
    return html`<h3>Messages</h3>
      <p class="small muted">The fifty newest.</p>
      ${dataTable(
        "SMS messages of this project",
        ["To", "Status", "Route", "Text", "Written", "Trail"],
        messages.map(
          (m) => html`<tr data-message-id=${m.id}>
            <td data-label="To">${m.receiver}<br /><span class="small muted">from ${m.sender}</span></td>
            <td data-label="Status">${badge(m.status)}${m.errorCode ? html`<br /><span class="small muted">code ${m.errorCode}</span>` : nothing}</td>
            <td data-label="Route"><code>${m.provider}</code></td>
            <td data-label="Text">
              ${m.textPurged ? html`<span class="muted">Removed ${formatDateTime(m.textPurged)} (retention)</span>` : m.message}
              <br /><span class="small muted">${several(m.segments, "part")}</span>
            </td>
            <td data-label="Written">${formatDateTime(m.created)}</td>
            <td data-label="Trail">
              <details>
                <summary>${several(m.trail.length, "step")}</summary>
                <ol class="small">
                  ${m.trail.map(
                    (t) => html`<li>
                      ${formatDateTime(t.at)} ${badge(t.status)} via <code>${t.route}</code>${t.errorCode ? ` (code ${t.errorCode})` : ""}
                      ${t.detail ? html`<br /><span class="muted">${t.detail}</span>` : nothing}
                    </li>`,
                  )}
                </ol>
              </details>
            </td>
          </tr>`,
        ),
      )}`;
  }
}
