import { html, nothing, svg } from "lit";
import { customElement, property, state } from "lit/decorators.js";
import { api, ok } from "../api";
import { dataTable, pageHead } from "../parts";
import { projectHref } from "../router";
import type { Overview, Project } from "../types";
import { formatDate, LightElement, loadingView, problemView } from "../ui";

type Point = { day: string; given: number; denied: number; created: number };

const colours = { given: "#2f45c5", denied: "#d98a1f", identities: "#067647", grid: "#d4d9e0", text: "#4f5b6b" };

@customElement("ap-overview")
export class OverviewPage extends LightElement {
  @property({ attribute: false }) project!: Project;
  @state() private overview: Overview | null = null;
  @state() private error: unknown = null;
  @state() private purposeId = "all";
  @state() private days = 30;

  protected override willUpdate(changed: Map<string, unknown>) {
    if (changed.has("project") || changed.has("days")) void this.load();
  }

  private async load() {
    try {
      this.overview = await ok(api.GET("/admin/v1/projects/{project_id}/overview", {
        params: { path: { project_id: this.project.projectId }, query: { days: this.days } },
        }));
      this.error = null;
    } catch (error) {
      this.error = error;
    }
  }

  private series(o: Overview): Point[] {
    const chosen = this.purposeId === "all" ? o.purposes : o.purposes.filter((p) => p.purposeId === this.purposeId);
    return o.identities.daily.map((d, i) => ({
      day: d.day,
      created: d.created,
      given: chosen.reduce((n, p) => n + (p.daily[i]?.given ?? 0), 0),
      denied: chosen.reduce((n, p) => n + (p.daily[i]?.denied ?? 0), 0),
    }));
  }

  protected override render() {
    if (this.error) return problemView(this.error, "The overview could not be loaded");
    const o = this.overview;
    if (!o) return loadingView("the overview");
    const open = (family: keyof Overview["requests"]) => (o.requests[family].received ?? 0) + (o.requests[family].in_progress ?? 0);
    const given = o.purposes.reduce((n, p) => n + p.current.given, 0);
    const denied = o.purposes.reduce((n, p) => n + p.current.denied, 0);
    const points = this.series(o);
    const chosenName = this.purposeId === "all" ? "all purposes" : (o.purposes.find((p) => p.purposeId === this.purposeId)?.name ?? "");
    return html`${pageHead("Overview", "Data subjects, their consent decisions and open privacy requests.")}
      <div class="stats">
        <div class="stat"><p class="label">Identities</p><p class="value">${o.identities.total}</p><p class="sub">data subjects</p></div>
        <div class="stat"><p class="label">Consents in force</p><p class="value">${given}</p><p class="sub">approved, current versions</p></div>
        <div class="stat"><p class="label">Refusals in force</p><p class="value">${denied}</p><p class="sub">denied or objected</p></div>
        <div class="stat">
          <p class="label">Open requests</p>
          <p class="value">${open("erasure") + open("access") + open("objection")}</p>
          <p class="sub">
            <a href=${projectHref(this.project.projectId, "requests", "erasures")}>${open("erasure")} erasure</a>,
            <a href=${projectHref(this.project.projectId, "requests", "accesses")}>${open("access")} access</a>,
            <a href=${projectHref(this.project.projectId, "requests", "objections")}>${open("objection")} objection</a>
          </p>
        </div>
      </div>
      <section class="card chart" aria-labelledby="chart-title">
        <header>
          <h3 id="chart-title">Consent decisions per day</h3>
          <div class="actions">
            <label for="chart-purpose" class="visually-hidden">Purpose</label>
            <select id="chart-purpose" style="width:auto" @change=${(e: Event) => (this.purposeId = (e.target as HTMLSelectElement).value)}>
              <option value="all">All purposes</option>
              ${o.purposes.map((p) => html`<option value=${p.purposeId} ?selected=${p.purposeId === this.purposeId}>${p.name} (v${p.version})</option>`)}
            </select>
            <label for="chart-days" class="visually-hidden">Period</label>
            <select id="chart-days" style="width:auto" @change=${(e: Event) => (this.days = Number((e.target as HTMLSelectElement).value))}>
              ${[7, 30, 90].map((d) => html`<option value=${d} ?selected=${d === this.days}>Last ${d} days</option>`)}
            </select>
          </div>
        </header>
        <div class="legend" aria-hidden="true">
          <span class="given">Given</span><span class="denied">Denied</span><span class="identities">New identities</span>
        </div>
        ${this.chart(points, chosenName)}
        <details>
          <summary>Show the numbers as a table</summary>
          <div class="table-wrap">
            <table>
              <caption class="visually-hidden">Consent decisions for ${chosenName} and new identities per day</caption>
              <thead>
                <tr>
                  <th scope="col">Day</th>
                  <th scope="col" class="end">Given</th>
                  <th scope="col" class="end">Denied</th>
                  <th scope="col" class="end">New identities</th>
                </tr>
              </thead>
              <tbody>
                ${[...points].reverse().map(
                  (p) => html`<tr>
                    <th scope="row">${formatDate(p.day)}</th>
                    <td class="end">${p.given}</td>
                    <td class="end">${p.denied}</td>
                    <td class="end">${p.created}</td>
                  </tr>`,
                )}
              </tbody>
            </table>
          </div>
        </details>
      </section>
      <section class="card" aria-labelledby="per-purpose-title">
        <h3 id="per-purpose-title">Per purpose</h3>
        ${o.purposes.length === 0
          ? html`<p class="muted small">
              No purposes yet. <a href=${projectHref(this.project.projectId, "configuration")}>Configure purposes</a> to start collecting consent.
            </p>`
          : dataTable(
              "Current consent per purpose",
              [
                "Purpose",
                "Version",
                { label: "Given", end: true },
                { label: "Denied", end: true },
                { label: `Given ${this.days} d`, end: true },
                { label: `Denied ${this.days} d`, end: true },
              ],
              o.purposes.map((p) => {
                const sum = (k: "given" | "denied") => p.daily.reduce((n, d) => n + d[k], 0);
                return html`<tr>
                  <td data-label="Purpose"><strong>${p.name}</strong> <code class="muted small">${p.referenceId}</code></td>
                  <td data-label="Version"><span class="badge blue">v${p.version}</span></td>
                  <td data-label="Given" class="end">${p.current.given}</td>
                  <td data-label="Denied" class="end">${p.current.denied}</td>
                  <td data-label="Given ${this.days} d" class="end">${sum("given")}</td>
                  <td data-label="Denied ${this.days} d" class="end">${sum("denied")}</td>
                </tr>`;
              }),
            )}
      </section>`;
  }

  /** Stacked bars (given, denied) per day with new identities as a line; the table above carries the same numbers. */
  private chart(points: Point[], name: string) {
    const width = 760;
    const height = 240;
    const pad = { left: 36, right: 12, top: 12, bottom: 28 };
    const max = Math.max(4, ...points.map((p) => Math.max(p.given + p.denied, p.created)));
    const step = (width - pad.left - pad.right) / points.length;
    const y = (v: number) => height - pad.bottom - (v / max) * (height - pad.top - pad.bottom);
    const ticks = [0, Math.round(max / 2), max];
    const totalGiven = points.reduce((n, p) => n + p.given, 0);
    const totalDenied = points.reduce((n, p) => n + p.denied, 0);
    const totalCreated = points.reduce((n, p) => n + p.created, 0);
    const label =
      `Chart of the last ${points.length} days for ${name}: ${totalGiven} consents given, ${totalDenied} denied, ` +
      `${totalCreated} new identities. The table below has the numbers per day.`;
    const line = points.map((p, i) => `${pad.left + step * i + step / 2},${y(p.created)}`).join(" ");
    const labelEvery = Math.ceil(points.length / 8);
    return html`<svg viewBox="0 0 ${width} ${height}" role="img" aria-label=${label}>
      ${ticks.map(
        (t) => svg`<line x1=${pad.left} x2=${width - pad.right} y1=${y(t)} y2=${y(t)} stroke=${colours.grid} stroke-width="1"></line>
          <text x=${pad.left - 6} y=${y(t) + 4} text-anchor="end" font-size="11" fill=${colours.text}>${t}</text>`,
      )}
      ${points.map((p, i) => {
        const x = pad.left + step * i + step * 0.15;
        const w = step * 0.7;
        return svg`<rect x=${x} y=${y(p.given)} width=${w} height=${y(0) - y(p.given)} fill=${colours.given}></rect>
          <rect x=${x} y=${y(p.given + p.denied)} width=${w} height=${y(p.given) - y(p.given + p.denied)} fill=${colours.denied}></rect>
          ${i % labelEvery === 0
            ? svg`<text x=${x + w / 2} y=${height - 8} text-anchor="middle" font-size="11" fill=${colours.text}>${p.day.slice(5)}</text>`
            : nothing}`;
      })}
      <polyline points=${line} fill="none" stroke=${colours.identities} stroke-width="2"></polyline>
    </svg>`;
  }
}
