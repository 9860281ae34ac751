import { html, nothing } from "lit";
import { customElement, property, state } from "lit/decorators.js";
import { api, ok } from "../api";
import { projectHref } from "../router";
import { requestFamilies, type Overview, type PrivacyRequest, type Project, type RequestFamily, type RequestStatus } from "../types";
import { confirmDialog, dataTable, pageHead, rowActions } from "../parts";
import { ActionElement, closeDialog, formatDate, formatDateTime, loadingView, notify, problemView, several } from "../ui";

type FamilyInfo = {
  title: string;
  one: string;
  article: string;
  key: keyof Overview["requests"];
  /** What completing one means, said before it is done. */
  completion: string;
  /** Whether a completed one is closed for good; a completed objection can still be withdrawn by the subject. */
  completionFinal: boolean;
};

const familyInfo: Record<RequestFamily, FamilyInfo> = {
  erasures: {
    title: "Erasure", one: "erasure request", article: "Art. 17", key: "erasure", completionFinal: true,
    completion: "Confirm that the subject's data in scope has been erased everywhere it is kept, including by processors.",
  },
  accesses: {
    title: "Access", one: "access request", article: "Art. 15", key: "access", completionFinal: true,
    completion: "Confirm that the subject has been given a copy of their data.",
  },
  objections: {
    title: "Objection", one: "objection", article: "Art. 21", key: "objection", completionFinal: false,
    completion: "Completing the objection denies the purposes it names in the subject's permission state.",
  },
};

const statusLabels: Record<RequestStatus, string> = {
  received: "Received",
  in_progress: "In progress",
  completed: "Completed",
  rejected: "Rejected",
  withdrawn: "Withdrawn",
};
const statusColours: Record<RequestStatus, string> = {
  received: "blue",
  in_progress: "amber",
  completed: "green",
  rejected: "red",
  withdrawn: "",
};

type Step = { to: RequestStatus; label: string; confirm?: string; primary?: boolean };

/** The moves the API allows (worker/requests/families.ts), as buttons. Withdrawal is the subject's act, recorded by DELETE. */
function nextSteps(family: RequestFamily, status: RequestStatus): Step[] {
  const { completion, completionFinal } = familyInfo[family];
  const complete: Step = { to: "completed", label: "Complete", confirm: completion, primary: true };
  const reject: Step = {
    to: "rejected",
    label: "Reject",
    confirm: "Tell the subject why, and that they may complain to a supervisory authority (Art. 12(4)).",
  };
  const withdraw: Step = { to: "withdrawn", label: "Record withdrawal", confirm: "Record that the subject withdrew the request." };
  switch (status) {
    case "received":
      return [{ to: "in_progress", label: "Start work", primary: true }, complete, reject, withdraw];
    case "in_progress":
      return [complete, reject, withdraw];
    case "completed":
      return completionFinal ? [] : [withdraw];
    default:
      return [];
  }
}

/** GDPR Art. 12(3): answer within one month of receipt (extendable by two months, with notice, for complex requests). */
export function deadlineOf(requested: string): Date {
  const start = new Date(requested);
  const due = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
  const lastDay = new Date(Date.UTC(due.getUTCFullYear(), due.getUTCMonth() + 1, 0)).getUTCDate();
  due.setUTCDate(Math.min(start.getUTCDate(), lastDay));
  due.setUTCHours(start.getUTCHours(), start.getUTCMinutes(), start.getUTCSeconds());
  return due;
}

/** A request filed on the privacy center says how the person proved who they are, and when. */
function verifiedNote(r: { meta?: Record<string, unknown> }) {
  const verification = (r.meta?.context as { verification?: { method?: string; verifiedAt?: string } } | undefined)?.verification;
  if (!verification?.verifiedAt) return nothing;
  return html`<br /><span class="small" data-verified>Identity verified by ${verification.method === "sms" ? "SMS" : "email"} at ${formatDateTime(verification.verifiedAt)}</span>`;
}

function deadlineView(r: PrivacyRequest) {
  if (r.status !== "received" && r.status !== "in_progress") return html`<span class="muted">Closed ${formatDate(r.updated)}</span>`;
  const due = deadlineOf(r.requested);
  const days = Math.ceil((due.getTime() - Date.now()) / 86_400_000);
  const badge =
    days < 0
      ? html`<span class="badge red">Overdue by ${-days} day${days === -1 ? "" : "s"}</span>`
      : days === 0
        ? html`<span class="badge red">Due today</span>`
        : html`<span class="badge ${days <= 7 ? "amber" : "blue"}">${several(days, "day")} left</span>`;
  return html`${badge}<br /><span class="small muted">Due ${formatDate(due.toISOString())}</span>`;
}

const filters = [
  { id: "open", label: "Open" },
  { id: "received", label: "Received" },
  { id: "in_progress", label: "In progress" },
  { id: "completed", label: "Completed" },
  { id: "rejected", label: "Rejected" },
  { id: "withdrawn", label: "Withdrawn" },
  { id: "all", label: "All" },
] as const;

@customElement("ap-requests")
export class RequestsPage extends ActionElement {
  @property({ attribute: false }) project!: Project;
  @property() family: string = "erasures";
  @state() private filter: (typeof filters)[number]["id"] = "open";
  @state() private items: PrivacyRequest[] | null = null;
  @state() private cursor: string | null = null;
  @state() private counts: Overview["requests"] | null = null;
  @state() private error: unknown = null;
  @state() private pending: { request: PrivacyRequest; step: Step } | null = null;

  private get familyId(): RequestFamily {
    return (requestFamilies as readonly string[]).includes(this.family) ? (this.family as RequestFamily) : "erasures";
  }

  protected override willUpdate(changed: Map<string, unknown>) {
    if (changed.has("family") || changed.has("project")) void this.load();
  }

  /** `refresh` keeps the rows on screen while the same list is read again (after a status change). */
  private async load(more = false, refresh = false) {
    this.error = null;
    if (!more && !refresh) this.items = null;
    const params = { project_id: this.project.projectId };
    const page = (status?: RequestStatus, cursor?: string | null) =>
      ok(api.GET(`/privacy/v2/projects/{project_id}/${this.familyId}` as const, { params: { path: params, query: { limit: 100, status, cursor: cursor ?? undefined } } }));
    try {
      void ok(api.GET("/admin/v1/projects/{project_id}/overview", { params: { path: { project_id: params.project_id }, query: { days: 1 } } })).then(
        (o) => (this.counts = o.requests),
      );
      if (this.filter === "open") {
        const [received, inProgress] = await Promise.all([page("received"), page("in_progress")]);
        this.items = [...received.items, ...inProgress.items].sort((a, b) => a.requested.localeCompare(b.requested));
        this.cursor = null;
      } else {
        const next = await page(this.filter === "all" ? undefined : this.filter, more ? this.cursor : null);
        this.items = more ? [...(this.items ?? []), ...next.items] : next.items;
        this.cursor = next.nextCursor;
      }
    } catch (error) {
      this.error = error;
    }
  }

  private apply(request: PrivacyRequest, step: Step) {
    const path = `/privacy/v2/projects/{project_id}/${this.familyId}/{request_id}` as const;
    const params = { project_id: this.project.projectId, request_id: request.requestId };
    return this.run(async () => {
      if (step.to === "withdrawn") await ok(api.DELETE(path, { params: { path: params } }));
      else await ok(api.PUT(path, { params: { path: params }, body: { status: step.to } }));
      closeDialog(this, "confirm-step");
      this.pending = null;
      notify(`The ${familyInfo[this.familyId].one} is now ${statusLabels[step.to].toLowerCase()}.`);
      await this.load(false, true);
    });
  }

  private choose(request: PrivacyRequest, step: Step) {
    this.formError = null;
    if (!step.confirm) return this.apply(request, step);
    this.pending = { request, step };
    this.openDialog("confirm-step");
  }

  protected override render() {
    const info = familyInfo[this.familyId];
    return html`${pageHead("Requests", "Data-subject requests. GDPR Art. 12(3): answer without undue delay and at the latest one month after receipt.")}
      <nav aria-label="Request types" class="tabs">
        ${requestFamilies.map((f) => {
          const open = this.counts ? (this.counts[familyInfo[f].key].received ?? 0) + (this.counts[familyInfo[f].key].in_progress ?? 0) : null;
          return html`<a
            class="button"
            href=${projectHref(this.project.projectId, "requests", f)}
            aria-current=${f === this.familyId ? "page" : nothing}
          >
            ${familyInfo[f].title} <span class="small muted">(${familyInfo[f].article})</span>
            ${open !== null ? html`<span class="badge ${open ? "blue" : ""}">${open} open</span>` : nothing}
          </a>`;
        })}
      </nav>
      <section class="card" aria-labelledby="queue-title">
        <header>
          <h3 id="queue-title">${info.title} requests</h3>
          <div class="field" style="margin:0;flex-direction:row;align-items:center;gap:.5rem">
            <label for="status-filter">Show</label>
            <select
              id="status-filter"
              style="width:auto"
              .value=${this.filter}
              @change=${(e: Event) => {
                this.filter = (e.target as HTMLSelectElement).value as typeof this.filter;
                void this.load();
              }}
            >
              ${filters.map((f) => html`<option value=${f.id} ?selected=${f.id === this.filter}>${f.label}</option>`)}
            </select>
          </div>
        </header>
        ${problemView(this.error, "The requests could not be loaded")} ${problemView(this.pending ? null : this.formError, "The status was not changed")}
        ${this.items === null && !this.error ? loadingView("requests") : nothing}
        ${this.items?.length === 0
          ? html`<div class="empty"><strong>Nothing here</strong>No ${this.filter === "all" ? "" : `${filters.find((f) => f.id === this.filter)?.label.toLowerCase()} `}${info.one}s.</div>`
          : nothing}
        ${this.items?.length ? this.renderTable() : nothing}
        ${this.cursor
          ? html`<div class="actions"><button type="button" class="button" @click=${() => this.load(true)}>Load more</button></div>`
          : nothing}
      </section>
      ${this.renderConfirm()}`;
  }

  private renderTable() {
    return dataTable(
      `${familyInfo[this.familyId].title} requests`,
      ["Request", "Subject", "Received", "Status", "Deadline", { label: "Next steps", end: true }],
      this.items!.map((r) => {
        const steps = nextSteps(this.familyId, r.status);
        const scope = r.request as { purposes?: unknown[]; dataGroups?: unknown[] } | null | undefined;
        return html`<tr data-request-id=${r.requestId}>
          <td data-label="Request">
            <code>${r.requestId}</code><br />
            <span class="small muted"
              >${scope?.purposes?.length || scope?.dataGroups?.length
                ? `${scope.purposes?.length ?? 0} purposes, ${scope.dataGroups?.length ?? 0} data groups`
                : "All of the subject's data"}</span
            >${verifiedNote(r)}
          </td>
          <td data-label="Subject"><a href=${projectHref(this.project.projectId, "identities", r.identityId)}><code>${r.identityId}</code></a></td>
          <td data-label="Received">${formatDateTime(r.requested)}</td>
          <td data-label="Status"><span class="badge ${statusColours[r.status]}">${statusLabels[r.status]}</span></td>
          <td data-label="Deadline">${deadlineView(r)}</td>
          <td data-label="Next steps" class="end">
            ${steps.length
              ? rowActions(
                  ...steps.map((s) => ({
                    label: s.label,
                    name: `${s.label}: ${r.requestId}`,
                    onClick: () => this.choose(r, s),
                    primary: s.primary,
                    disabled: this.busy,
                  })),
                )
              : html`<span class="muted small">None</span>`}
          </td>
        </tr>`;
      }),
    );
  }

  private renderConfirm() {
    const p = this.pending;
    return confirmDialog(
      this,
      "confirm-step",
      p && {
        title: `${p.step.label}: ${familyInfo[this.familyId].one} ${p.request.requestId}?`,
        body: html`<p>${p.step.confirm}</p>
          ${p.step.to === "rejected" || (p.step.to === "completed" && familyInfo[this.familyId].completionFinal)
            ? html`<p class="notice info">This is final: a ${statusLabels[p.step.to].toLowerCase()} request cannot be reopened.</p>`
            : nothing}`,
        error: this.formError,
        errorHeading: "The status was not changed",
        action: {
          label: p.step.label,
          danger: p.step.to === "rejected" || p.step.to === "withdrawn",
          disabled: this.busy,
          onClick: () => this.apply(p.request, p.step),
        },
      },
      () => (this.pending = null),
    );
  }
}
