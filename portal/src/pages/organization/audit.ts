// The organization's audit trail (GET /admin/v1/audit): who did what to which object, when and from where, newest
// first, filtered by member, object and time, and downloaded as CSV or JSON lines with the same filters.
import { html, nothing } from "lit";
import { customElement, state } from "lit/decorators.js";
import type { Schemas } from "../../../../shared/api/operations";
import { api, ok } from "../../api";
import { dataTable, pageHead, textField } from "../../parts";
import { formatDateTime, formValues, LightElement, loadingView, problemView } from "../../ui";
import { roleLabels } from "./members";

type AuditEntry = Schemas["AuditEntry"];
type Filter = { member?: string; object?: string; from?: string; to?: string };

const pageSize = 100;

/** A date-time field's local value as the API's UTC timestamp. */
const instant = (value: string | undefined) => (value ? new Date(value).toISOString() : undefined);

@customElement("ap-audit")
export class AuditPage extends LightElement {
  @state() private entries: AuditEntry[] | null = null;
  @state() private members: Schemas["Member"][] = [];
  @state() private error: unknown = null;
  @state() private filter: Filter = {};
  @state() private more = false;

  override connectedCallback() {
    super.connectedCallback();
    void this.load();
    // Names for the member column; a role that may not read members still sees their ids.
    ok(api.GET("/admin/v1/members")).then(
      (page) => (this.members = page.items),
      () => undefined,
    );
  }

  private async load(before?: number) {
    this.error = null;
    try {
      // JSON, as the client asks for (the CSV and JSON-lines answers are the download links').
      const { items } = (await ok(api.GET("/admin/v1/audit", { params: { query: { ...this.filter, before, limit: pageSize } } }))) as { items: AuditEntry[] };
      this.entries = before === undefined ? items : [...(this.entries ?? []), ...items];
      this.more = items.length === pageSize;
    } catch (error) {
      this.error = error;
    }
  }

  private apply(e: SubmitEvent) {
    e.preventDefault();
    const v = formValues(e.target as HTMLFormElement);
    this.filter = { member: v.member || undefined, object: v.object || undefined, from: instant(v.from), to: instant(v.to) };
    this.entries = null;
    void this.load();
  }

  /** The download link of the current filter, in `format`. */
  private download(format: "csv" | "jsonl") {
    const query = new URLSearchParams({ format, limit: "1000" });
    for (const [name, value] of Object.entries(this.filter)) if (value) query.set(name, value);
    return `/admin/v1/audit?${query}`;
  }

  private who(entry: AuditEntry) {
    if (entry.memberId === null) return html`<strong>Admin token</strong><br /><span class="muted small">break-glass</span>`;
    const member = this.members.find((m) => m.id === entry.memberId);
    return html`${member?.email ?? html`<code class="small">${entry.memberId}</code>`}<br /><span class="muted small">${roleLabels[entry.role]}, ${entry.credential}</span>`;
  }

  protected override render() {
    return html`${pageHead(
        "Audit trail",
        "Every change an operator made, every read of personal data and every refusal, newest first. Each entry names the hash of the one before, so a changed or missing entry shows.",
        html`<div class="actions">
          <a class="button" href=${this.download("csv")} download>Download CSV</a>
          <a class="button" href=${this.download("jsonl")} download>Download JSON lines</a>
        </div>`,
        { h1: true },
      )}
      <form class="card filters" @submit=${this.apply}>
        <div class="form-grid">
          <div class="field">
            <label for="audit-member">Member</label>
            <select id="audit-member" name="member">
              <option value="">Everyone</option>
              ${this.members.map((m) => html`<option value=${m.id} ?selected=${m.id === this.filter.member}>${m.email}</option>`)}
            </select>
          </div>
          ${textField("audit-object", "object", "Object", this.filter.object, { hint: "A path, or its start: /admin/v1/projects/prj_… is everything about that project." })}
          ${textField("audit-from", "from", "From", "", { type: "datetime-local" })} ${textField("audit-to", "to", "To", "", { type: "datetime-local" })}
        </div>
        <div class="actions"><button type="submit" class="button primary">Filter</button></div>
      </form>
      ${problemView(this.error, "The audit trail could not be loaded")} ${this.entries === null && !this.error ? loadingView("the audit trail") : nothing}
      ${this.entries?.length === 0 ? html`<div class="card empty"><strong>No entries</strong>Nothing matches this filter.</div>` : nothing}
      ${this.entries?.length
        ? html`<div class="card">
            ${dataTable(
              "Audit entries",
              ["When", "Who", "What", "Object", "Answer", "From"],
              this.entries.map(
                (e) => html`<tr>
                  <td data-label="When">${formatDateTime(e.at)}</td>
                  <td data-label="Who">${this.who(e)}</td>
                  <td data-label="What"><code class="small">${e.operationId}</code></td>
                  <td data-label="Object"><code class="small">${e.method} ${e.object}</code></td>
                  <td data-label="Answer">${e.status}</td>
                  <td data-label="From">${e.address}</td>
                </tr>`,
              ),
            )}
            ${this.more
              ? html`<div class="actions"><button type="button" class="button" @click=${() => this.load(this.entries?.at(-1)?.seq)}>Older entries</button></div>`
              : nothing}
          </div>`
        : nothing}`;
  }
}
