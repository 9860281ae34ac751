// The scanner page: the latest scan of the project's site (violations first, then what is new since the previous
// scan, the proposal and every item by purpose), the history, the schedule, and a button that starts a scan. The
// report's sections are ./report.ts; creating the proposed purposes is ./purposes.ts.
import { html, nothing } from "lit";
import { customElement, property, state } from "lit/decorators.js";
import { api, ApiProblem, ok } from "../../api";
import { dataTable, formDialog, pageHead } from "../../parts";
import { scanSchedules, type Party, type Project, type Purpose, type Scan, type ScanSchedule, type ScanWithReport } from "../../types";
import { ActionElement, closeDialog, copyToClipboard, formatDateTime, loadingView, notify, problemView, several } from "../../ui";
import { latestReport } from "./latest";
import { createProposedPurposes, isCreated, proposalFields } from "./purposes";
import { diffView, gatingView, groupedView, pageErrorsView, violationsView } from "./report";

const scheduleLabels: Record<ScanSchedule, string> = { off: "Off", daily: "Daily", weekly: "Weekly", monthly: "Monthly" };

@customElement("ap-scanner")
export class ScannerPage extends ActionElement {
  @property({ attribute: false }) project!: Project;
  @state() private scans: Scan[] | null = null;
  @state() private latest: ScanWithReport | null = null;
  @state() private schedule: ScanSchedule | null = null;
  @state() private origins: string[] = [];
  @state() private parties: Party[] = [];
  @state() private purposes: Purpose[] = [];
  @state() private error: unknown = null;
  /** The CLI command to run instead, once the service said it cannot scan by itself. */
  @state() private command: string | null = null;

  private get path() {
    return { params: { path: { project_id: this.project.projectId } } };
  }

  override connectedCallback() {
    super.connectedCallback();
    void this.load();
  }

  private async load() {
    try {
      const [list, settings, clients, parties, purposes] = await Promise.all([
        ok(api.GET("/privacy/v2/projects/{project_id}/scans", this.path)),
        ok(api.GET("/privacy/v2/projects/{project_id}/scan-schedule", this.path)),
        ok(api.GET("/admin/v1/projects/{project_id}/clients", this.path)),
        ok(api.GET("/privacy/v2/projects/{project_id}/configurations/parties", this.path)),
        ok(api.GET("/privacy/v2/projects/{project_id}/configurations/purposes", this.path)),
      ]);
      this.latest = await latestReport(this.project.projectId, list.items);
      this.scans = list.items;
      this.schedule = settings.schedule;
      this.origins = [...new Set(clients.items.filter((c) => c.type === "web").flatMap((c) => c.allowedOrigins))];
      this.parties = parties.items;
      this.purposes = purposes.items;
    } catch (error) {
      this.error = error;
    }
  }

  private startScan(e: SubmitEvent) {
    e.preventDefault();
    const origin = String(new FormData(e.target as HTMLFormElement).get("origin") ?? "");
    return this.run(async () => {
      try {
        await ok(api.POST("/privacy/v2/projects/{project_id}/scans", { ...this.path, body: { origin } }));
        notify(`Scan of ${origin} queued; it runs within a minute.`);
        this.command = null;
      } catch (error) {
        if (!(error instanceof ApiProblem && error.code === "browser_unavailable")) throw error;
        this.command = String(error.members.command ?? "");
      }
      closeDialog(this, "run-scan");
      await this.load();
    });
  }

  private saveSchedule(e: SubmitEvent) {
    e.preventDefault();
    const schedule = String(new FormData(e.target as HTMLFormElement).get("schedule")) as ScanSchedule;
    return this.run(async () => {
      this.schedule = (await ok(api.PUT("/privacy/v2/projects/{project_id}/scan-schedule", { ...this.path, body: { schedule } }))).schedule;
      notify(`Scans: ${scheduleLabels[this.schedule].toLowerCase()}.`);
    });
  }

  private createPurposes(e: SubmitEvent) {
    e.preventDefault();
    const controller = String(new FormData(e.target as HTMLFormElement).get("controller") ?? "");
    return this.run(async () => {
      const created = await createProposedPurposes(this.project, this.latest!.report!.proposal.purposes, this.purposes, controller);
      closeDialog(this, "create-purposes");
      notify(created.length ? `Created ${created.join(", ")}.` : "Every proposed purpose already exists.");
      await this.load();
    });
  }

  protected override render() {
    return html`${pageHead(
        "Scanner",
        "What your site sets and loads before and after consent, by purpose, and what changed since the last scan.",
        html`<button type="button" class="button primary" @click=${() => this.openDialog("run-scan")}>Run a scan</button>`,
      )}
      ${this.command ? this.commandView(this.command) : nothing} ${problemView(this.error, "The scans could not be loaded")}
      ${this.scans === null && !this.error ? loadingView("scans") : nothing} ${this.scans ? this.renderLatest() : nothing}
      ${this.scans?.length ? this.renderHistory(this.scans) : nothing} ${this.schedule ? this.renderSchedule(this.schedule) : nothing}
      ${this.renderRunDialog()} ${this.renderPurposesDialog()}`;
  }

  private commandView(command: string) {
    return html`<div class="notice info" role="status">
      <strong>This server cannot scan sites itself</strong>
      <p>It has no Browser Rendering. Run the scan from a machine with Chromium; the report is stored here:</p>
      <div class="secret-box">
        <input type="text" readonly aria-label="Scan command" .value=${command} />
        <button type="button" class="button" @click=${() => copyToClipboard(command, "Command")}>Copy</button>
      </div>
    </div>`;
  }

  private renderLatest() {
    const scan = this.latest;
    if (!scan?.report || !scan.diff || !scan.counts) {
      return html`<div class="card empty"><strong>No scan yet</strong>Run a scan, or upload one with <code>npm run scan -- https://your.site --project ${this.project.projectId}</code>.</div>`;
    }
    const { report, counts } = scan;
    const proposals = report.proposal.purposes;
    const missing = proposals.filter((p) => !isCreated(p, this.purposes));
    return html`<h3>Latest scan: <code>${scan.origin}</code></h3>
      <p class="muted">
        ${formatDateTime(scan.completed ?? scan.created)} · ${several(counts.pages, "page")} · ${several(counts.cookies, "cookie")} ·
        ${several(counts.storage, "storage key")} · ${several(counts.thirdPartyHosts, "third-party host")} ·
        ${several(counts.violations, "violation")} (${counts.newViolations} new)
      </p>
      ${pageErrorsView(report)} ${violationsView(report)} ${diffView(scan.diff)}
      <section class="card" aria-labelledby="scan-proposal-title">
        <h3 id="scan-proposal-title">Proposed purposes</h3>
        ${proposals.length === 0
          ? html`<p class="muted">Nothing non-essential was found: no purpose to ask consent for.</p>`
          : html`<p>${proposals.map((p) => p.name).join(", ")}: one consent purpose per kind of tracking found, with its Consent Mode types.</p>
              <button type="button" class="button primary" ?disabled=${missing.length === 0} @click=${() => this.openDialog("create-purposes")}>
                ${missing.length === 0 ? "Every proposed purpose exists" : "Create proposed purposes"}
              </button>`}
      </section>
      ${groupedView(report)} ${gatingView(report)}`;
  }

  private renderHistory(scans: Scan[]) {
    return html`<section class="card" aria-labelledby="scan-history-title">
      <h3 id="scan-history-title">History</h3>
      ${dataTable(
        "Scans",
        ["Started", "Site", "How", "Status", { label: "Violations", end: true }, { label: "New items", end: true }],
        scans.map(
          (s) => html`<tr>
            <td data-label="Started">${formatDateTime(s.created)}</td>
            <td data-label="Site"><code>${s.origin}</code></td>
            <td data-label="How">${s.trigger === "api" ? "Uploaded" : s.trigger === "schedule" ? "Scheduled" : "Portal"}</td>
            <td data-label="Status">${s.status}${s.problem ? html` <span class="muted small">${s.problem.detail}</span>` : nothing}</td>
            <td data-label="Violations" class="end">${s.counts?.violations ?? "–"}</td>
            <td data-label="New items" class="end">${s.counts?.newItems ?? "–"}</td>
          </tr>`,
        ),
      )}
    </section>`;
  }

  private renderSchedule(schedule: ScanSchedule) {
    return html`<form class="card" aria-labelledby="scan-schedule-title" @submit=${this.saveSchedule}>
      <h3 id="scan-schedule-title">Schedule</h3>
      <div class="field">
        <label for="scan-schedule">Scan the registered sites</label>
        <span class="hint" id="scan-schedule-hint">On servers with Browser Rendering; each origin your web clients allow.</span>
        <select id="scan-schedule" name="schedule" aria-describedby="scan-schedule-hint">
          ${scanSchedules.map((s) => html`<option value=${s} ?selected=${s === schedule}>${scheduleLabels[s]}</option>`)}
        </select>
      </div>
      <div class="actions"><button class="button" type="submit" ?disabled=${this.busy}>Save schedule</button></div>
    </form>`;
  }

  private renderRunDialog() {
    return formDialog(this, "run-scan", {
      title: "Run a scan",
      error: this.formError,
      errorHeading: "The scan was not started",
      onSubmit: (e) => this.startScan(e),
      action: { label: "Start scan", disabled: this.busy || this.origins.length === 0 },
      body: this.origins.length
        ? html`<div class="field">
            <label for="scan-origin">Site</label>
            <span class="hint" id="scan-origin-hint">The origins your web clients allow; up to 20 pages each.</span>
            <select id="scan-origin" name="origin" aria-describedby="scan-origin-hint">
              ${this.origins.map((o) => html`<option value=${o}>${o}</option>`)}
            </select>
          </div>`
        : html`<p>No site is registered yet: add its origin to a web client's allowed origins on the Clients page.</p>`,
    });
  }

  private renderPurposesDialog() {
    const report = this.latest?.report;
    return formDialog(
      this,
      "create-purposes",
      report
        ? {
            title: "Create the proposed purposes",
            error: this.formError,
            errorHeading: "The purposes were not all created",
            onSubmit: (e) => this.createPurposes(e),
            action: { label: "Create purposes", disabled: this.busy },
            body: proposalFields(this.project, report.proposal.purposes, this.purposes, this.parties),
          }
        : null,
    );
  }
}
