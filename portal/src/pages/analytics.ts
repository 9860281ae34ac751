import { html, nothing, svg } from "lit";
import { customElement, property, state } from "lit/decorators.js";
import { api, ok } from "../api";
import { dataTable, pageHead } from "../parts";
import type { AnalyticsReport, AnalyticsSettings, Project } from "../types";
import { ActionElement, formatDate, loadingView, notify, problemView } from "../ui";

type Rate = AnalyticsReport["funnel"]["acceptAll"];
type Counts = AnalyticsReport["funnel"]["counts"];
type Breakdown = AnalyticsReport["breakdowns"]["page"];

const colours = ["#2f45c5", "#b54708", "#067647", "#7a2e9c", "#a1155a"];
const grid = "#d4d9e0";
const text = "#4f5b6b";

/** How each interaction is named on the page, in the funnel's order. */
const interactionLabels: [keyof Counts, string][] = [
  ["banner_shown", "Banner shown"],
  ["accept_all", "Accept all"],
  ["reject_all", "Reject all"],
  ["customised", "Own choice"],
  ["dismissed", "Closed without deciding"],
  ["preferences_reopened", "Preferences reopened"],
  ["withdrawn", "Withdrawn"],
];
const breakdownLabels: [keyof AnalyticsReport["breakdowns"], string][] = [
  ["regime", "Regime"],
  ["language", "Language"],
  ["device", "Device"],
  ["variant", "Banner variant"],
  ["page", "Page"],
];

/** A count as shown: suppressed counts say so (the API gives null for 1 to 9). */
const count = (n: number | null) => (n === null ? html`<span title="Fewer than 10: not shown">&lt; 10</span>` : n.toLocaleString("en"));
const percent = (rate: Rate) => (rate ? `${(rate.rate * 100).toFixed(1)} %` : "–");
const interval = (rate: Rate) => (rate ? `${(rate.low * 100).toFixed(1)}–${(rate.high * 100).toFixed(1)} %` : "–");

@customElement("ap-analytics")
export class AnalyticsPage extends ActionElement {
  @property({ attribute: false }) project!: Project;
  @state() private report: AnalyticsReport | null = null;
  @state() private settings: AnalyticsSettings | null = null;
  @state() private error: unknown = null;
  @state() private days = 30;

  protected override willUpdate(changed: Map<string, unknown>) {
    if (changed.has("project") || changed.has("days")) void this.load();
  }

  private range() {
    const to = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.parse(to) - (this.days - 1) * 86_400_000).toISOString().slice(0, 10);
    return { from, to };
  }

  private async load() {
    const path = { project_id: this.project.projectId };
    try {
      [this.report, this.settings] = await Promise.all([
        ok(api.GET("/admin/v1/projects/{project_id}/analytics", { params: { path, query: this.range() } })),
        ok(api.GET("/admin/v1/projects/{project_id}/analytics/settings", { params: { path } })),
      ]);
      this.error = null;
    } catch (error) {
      this.error = error;
    }
  }

  protected override render() {
    if (this.error) return problemView(this.error, "The analytics could not be loaded");
    const r = this.report;
    if (!r) return loadingView("the analytics");
    const { from, to } = this.range();
    const csv = `/admin/v1/projects/${encodeURIComponent(this.project.projectId)}/analytics/export.csv?from=${from}&to=${to}`;
    return html`${pageHead(
        "Analytics",
        "How visitors answer the banner: counts of interactions, never of people. Counts under 10 are not shown (docs/analytics.md).",
        html`<div class="actions">
          <label for="analytics-days" class="visually-hidden">Period</label>
          <select id="analytics-days" style="width:auto" @change=${(e: Event) => (this.days = Number((e.target as HTMLSelectElement).value))}>
            ${[7, 30, 90].map((d) => html`<option value=${d} ?selected=${d === this.days}>Last ${d} days</option>`)}
          </select>
          <a class="button" href=${csv} download>Download CSV</a>
        </div>`,
      )}
      ${this.settings ? this.renderSwitch(this.settings) : nothing}
      <section class="card" aria-labelledby="funnel-title">
        <h3 id="funnel-title">Decision funnel</h3>
        <div class="chart-with-table">
          ${this.funnelChart(r.funnel.counts)}
          ${dataTable(
            "Decision funnel",
            ["Interaction", { label: "Count", end: true }, { label: "Of banners shown", end: true }],
            interactionLabels.map(([key, label]) => {
              const share = { accept_all: r.funnel.acceptAll, reject_all: r.funnel.rejectAll, customised: r.funnel.customised }[key as string];
              return html`<tr>
                <th scope="row" data-label="Interaction">${label}</th>
                <td data-label="Count" class="end">${count(r.funnel.counts[key])}</td>
                <td data-label="Of banners shown" class="end">${share === undefined ? "" : percent(share)}</td>
              </tr>`;
            }),
          )}
        </div>
      </section>
      <section class="card" aria-labelledby="opt-in-title">
        <h3 id="opt-in-title">Opt-in rate per purpose</h3>
        ${r.purposes.length === 0 ? html`<p class="muted small">No purposes yet.</p>` : this.optInChart(r)}
        ${dataTable(
          "Opt-in rate per purpose over the period",
          ["Purpose", { label: "Granted", end: true }, { label: "Refused", end: true }, { label: "Opt-in rate", end: true }, { label: "95% interval", end: true }, "Text versions"],
          r.purposes.map(
            (p) => html`<tr>
              <th scope="row" data-label="Purpose">${p.name}</th>
              <td data-label="Granted" class="end">${count(p.total.granted)}</td>
              <td data-label="Refused" class="end">${count(p.total.refused)}</td>
              <td data-label="Opt-in rate" class="end">${percent(p.total.optIn)}</td>
              <td data-label="95% interval" class="end">${interval(p.total.optIn)}</td>
              <td data-label="Text versions">${p.versions.map((v) => `v${v.version} since ${formatDate(v.since)}`).join(", ")}</td>
            </tr>`,
          ),
        )}
      </section>
      ${breakdownLabels.map(([key, label]) => this.breakdown(key, label, r.breakdowns[key]))}`;
  }

  private saveSwitch(e: SubmitEvent) {
    e.preventDefault();
    const enabled = new FormData(e.target as HTMLFormElement).get("enabled") === "on";
    return this.run(async () => {
      this.settings = await ok(
        api.PUT("/admin/v1/projects/{project_id}/analytics/settings", { params: { path: { project_id: this.project.projectId } }, body: { enabled } }),
      );
      notify(enabled ? "Counting is on." : "Counting is off.");
    });
  }

  /** The project's counting switch (docs/analytics.md#turning-counting-off), as the Blocking page's. */
  private renderSwitch(settings: AnalyticsSettings) {
    return html`<form class="card" aria-labelledby="counting-title" @submit=${this.saveSwitch}>
      <h3 id="counting-title">Counting</h3>
      <p class="hint">
        The widget counts the banner's interactions on the project's pages, with no identifier and no cookie. Turn it off where your
        regulator asks consent even for that; the counts so far stay.
      </p>
      <label class="choice"><input type="checkbox" name="enabled" ?checked=${settings.enabled} /> Count the banner's interactions</label>
      ${problemView(this.formError, "The switch was not saved")}
      <div class="actions"><button class="button" type="submit" ?disabled=${this.busy}>Save counting</button></div>
    </form>`;
  }

  private breakdown(key: string, label: string, rows: Breakdown) {
    return html`<section class="card" aria-labelledby="by-${key}-title">
      <h3 id="by-${key}-title">By ${label.toLowerCase()}</h3>
      ${rows.length === 0
        ? html`<p class="muted small">Nothing counted yet.</p>`
        : dataTable(
            `Banner outcomes by ${label.toLowerCase()}`,
            [label, { label: "Banners shown", end: true }, { label: "Accept all", end: true }, { label: "Reject all", end: true }, { label: "Own choice", end: true }],
            rows.map(
              (b) => html`<tr>
                <th scope="row" data-label=${label}>${b.value || "none"}</th>
                <td data-label="Banners shown" class="end">${count(b.counts.banner_shown)}</td>
                <td data-label="Accept all" class="end">${percent(b.acceptAll)}</td>
                <td data-label="Reject all" class="end">${percent(b.rejectAll)}</td>
                <td data-label="Own choice" class="end">${percent(b.customised)}</td>
              </tr>`,
            ),
          )}
    </section>`;
  }

  /** Horizontal bars of the funnel; the table beside it has the same numbers. */
  private funnelChart(counts: Counts) {
    const width = 420;
    const rowHeight = 26;
    const max = Math.max(1, ...interactionLabels.map(([key]) => counts[key] ?? 0));
    const label = `Bar chart of the decision funnel: ${interactionLabels.map(([key, name]) => `${name} ${counts[key] ?? "under 10"}`).join(", ")}.`;
    return html`<svg viewBox="0 0 ${width} ${rowHeight * interactionLabels.length}" role="img" aria-label=${label} style="max-width:${width}px">
      ${interactionLabels.map(([key, name], i) => {
        const value = counts[key] ?? 0;
        return svg`<text x="0" y=${i * rowHeight + 17} font-size="12" fill=${text}>${name}</text>
          <rect x="170" y=${i * rowHeight + 5} width=${(value / max) * (width - 180)} height="16" fill=${colours[0]}></rect>`;
      })}
    </svg>`;
  }

  /** Each purpose's daily opt-in rate as a line, a new version of its text marked by a dashed line. */
  private optInChart(r: AnalyticsReport) {
    const width = 760;
    const height = 220;
    const pad = { left: 40, right: 12, top: 12, bottom: 28 };
    const days = r.daily.map((d) => d.day);
    const step = (width - pad.left - pad.right) / Math.max(1, days.length - 1);
    const x = (i: number) => pad.left + step * i;
    const y = (rate: number) => height - pad.bottom - rate * (height - pad.top - pad.bottom);
    const label =
      `Line chart of the daily opt-in rate of ${r.purposes.length} purposes; ` +
      r.purposes.map((p) => `${p.name}: ${percent(p.total.optIn)} over the period`).join("; ") +
      ". The table below has the numbers.";
    return html`<div class="legend" aria-hidden="true">
        ${r.purposes.map((p, i) => html`<span style="color:${colours[i % colours.length]}">${p.name}</span>`)}
      </div>
      <svg viewBox="0 0 ${width} ${height}" role="img" aria-label=${label}>
        ${[0, 0.5, 1].map(
          (t) => svg`<line x1=${pad.left} x2=${width - pad.right} y1=${y(t)} y2=${y(t)} stroke=${grid}></line>
            <text x=${pad.left - 6} y=${y(t) + 4} text-anchor="end" font-size="11" fill=${text}>${t * 100}%</text>`,
        )}
        ${r.purposes.map((p, i) => {
          const points = p.daily.flatMap((d, j) => (d.optIn ? [`${x(j)},${y(d.optIn.rate)}`] : [])).join(" ");
          const marks = p.versions.slice(1).map((v) => days.indexOf(v.since)).filter((j) => j >= 0);
          return svg`<polyline points=${points} fill="none" stroke=${colours[i % colours.length]} stroke-width="2"></polyline>
            ${marks.map((j) => svg`<line x1=${x(j)} x2=${x(j)} y1=${pad.top} y2=${height - pad.bottom} stroke=${colours[i % colours.length]} stroke-dasharray="4 3"></line>`)}`;
        })}
        ${days.map((d, j) =>
          j % Math.ceil(days.length / 8) === 0
            ? svg`<text x=${x(j)} y=${height - 8} text-anchor="middle" font-size="11" fill=${text}>${d.slice(5)}</text>`
            : nothing,
        )}
      </svg>`;
  }
}
