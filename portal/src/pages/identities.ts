import { html, nothing } from "lit";
import { customElement, property, state } from "lit/decorators.js";
import type { JsonAnswer, Schemas } from "../../../shared/api/operations";
import { api, ApiProblem, ok } from "../api";
import { dataTable, pageHead } from "../parts";
import { navigate, projectHref } from "../router";
import type { Project } from "../types";
import { formatDateTime, LightElement, loadingView, problemView } from "../ui";

/** The export in Assent's own format (asked without `format`, so not the ISO/IEC TS 27560 one). */
type IdentityData = Exclude<JsonAnswer<"/privacy/v2/projects/{project_id}/identities/{identityId}/data", "GET">, Schemas["Iso27560Export"]>;

const titleOf = (key: string) =>
  key.replace(/([A-Z])/g, " $1").replace(/^./, (c) => c.toUpperCase());

/** Columns worth a glance in a list of records; the full record is in the JSON below. */
const glanceKeys = ["requestId", "purposeId", "referenceId", "version", "status", "permissionStatus", "requestType", "requested", "updated"];

const statusColours: Record<string, string> = {
  approved: "green",
  completed: "green",
  denied: "red",
  rejected: "red",
  received: "blue",
  in_progress: "amber",
};

/** A value as an operator reads it: instants in local time, statuses as badges, ids as code. */
function cell(key: string, value: unknown) {
  if (value === undefined || value === null) return "";
  const text = String(value);
  if ((key === "requested" || key === "updated") && !Number.isNaN(Date.parse(text))) return formatDateTime(text);
  if (key === "status" || key === "permissionStatus") return html`<span class="badge ${statusColours[text] ?? ""}">${text.replace("_", " ")}</span>`;
  if (key.endsWith("Id")) return html`<code>${text}</code>`;
  return text;
}

@customElement("ap-identities")
export class IdentitiesPage extends LightElement {
  @property({ attribute: false }) project!: Project;
  @property() identityId = "";
  @state() private data: IdentityData | null = null;
  @state() private error: unknown = null;
  @state() private lookupError: unknown = null;
  @state() private by: "id" | "alias" = "id";

  protected override willUpdate(changed: Map<string, unknown>) {
    if (changed.has("identityId")) {
      this.data = null;
      this.error = null;
      if (this.identityId) void this.load();
    }
  }

  private async load() {
    try {
      this.data = (await ok(api.GET("/privacy/v2/projects/{project_id}/identities/{identityId}/data", {
        params: { path: { project_id: this.project.projectId, identityId: this.identityId } },
      }))) as IdentityData;
    } catch (error) {
      this.error = error;
    }
  }

  private async lookup(e: SubmitEvent) {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    this.lookupError = null;
    try {
      let identityId: string;
      if (this.by === "id") {
        identityId = String(data.get("identityId") ?? "").trim();
        if (!identityId) throw new Error("Enter an identity id.");
      } else {
        const type = String(data.get("aliasType") ?? "").trim();
        const identifier = String(data.get("aliasIdentifier") ?? "").trim();
        const key = type ? `${type}:${identifier}` : identifier;
        const found = await ok(api.GET("/privacy/v2/projects/{project_id}/identities/aliases/{alias}", {
          params: { path: { project_id: this.project.projectId, alias: key } },
        }));
        identityId = found.identityId;
      }
      navigate(projectHref(this.project.projectId, "identities", identityId));
    } catch (error) {
      this.lookupError = error instanceof ApiProblem && error.status === 404 ? new Error("No identity matches that alias or reference.") : error;
    }
  }

  private download() {
    const blob = new Blob([JSON.stringify(this.data, null, 2)], { type: "application/json" });
    const url = URL.createObjectURL(blob);
    const link = document.createElement("a");
    link.href = url;
    link.download = `${this.identityId}.json`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  protected override render() {
    return html`${pageHead("Identities", "Everything held about one data subject, for access requests (Art. 15) and portability (Art. 20).")}
      <form class="card" @submit=${this.lookup} novalidate aria-labelledby="lookup-title">
        <h3 id="lookup-title">Find a data subject</h3>
        ${problemView(this.lookupError, "Not found")}
        <fieldset>
          <legend>Look up by</legend>
          <label class="choice"><input type="radio" name="by" value="id" .checked=${this.by === "id"} @change=${() => (this.by = "id")} /> Identity id</label>
          <label class="choice"
            ><input type="radio" name="by" value="alias" .checked=${this.by === "alias"} @change=${() => (this.by = "alias")} /> Alias or your
            reference id</label
          >
        </fieldset>
        ${this.by === "id"
          ? html`<div class="field">
              <label for="lookup-id">Identity id</label>
              <input id="lookup-id" name="identityId" type="text" placeholder="idn_…" autocomplete="off" spellcheck="false" .value=${this.identityId} />
            </div>`
          : html`<div class="form-grid">
              <div class="field">
                <label for="lookup-alias-type">Alias type</label>
                <span class="hint" id="lookup-alias-type-hint">Such as urn:svc:email. Leave empty to match your reference id.</span>
                <input id="lookup-alias-type" name="aliasType" type="text" autocomplete="off" spellcheck="false" aria-describedby="lookup-alias-type-hint" />
              </div>
              <div class="field">
                <label for="lookup-alias-identifier">Identifier</label>
                <input id="lookup-alias-identifier" name="aliasIdentifier" type="text" autocomplete="off" spellcheck="false" />
              </div>
            </div>`}
        <button type="submit" class="button primary">Show data</button>
      </form>
      ${this.identityId ? this.renderData() : nothing}`;
  }

  private renderData() {
    if (this.error) {
      return this.error instanceof ApiProblem && this.error.status === 404
        ? html`<p class="notice info" role="alert">No identity <code>${this.identityId}</code> in this project. It may have been erased.</p>`
        : problemView(this.error, "The data could not be loaded");
    }
    if (!this.data) return loadingView("the subject's data");
    const { identity, ...rest } = this.data;
    return html`<section class="card" aria-labelledby="identity-title">
        <header>
          <h3 id="identity-title">Data subject <code>${identity.identityId}</code></h3>
          <button type="button" class="button primary" @click=${this.download}>Download JSON</button>
        </header>
        <dl class="facts">
          <dt>Reference id</dt>
          <dd>${identity.referenceId ?? html`<span class="muted">None</span>`}</dd>
          <dt>Aliases</dt>
          <dd>${identity.aliases.length ? identity.aliases.map((a) => html`<code>${a.type}:${a.identifier}</code><br />`) : html`<span class="muted">None</span>`}</dd>
          <dt>Created</dt>
          <dd>${formatDateTime(identity.created)}</dd>
          <dt>Updated</dt>
          <dd>${formatDateTime(identity.updated)}</dd>
        </dl>
      </section>
      ${Object.entries(rest).map(([key, value]) => this.renderPart(key, value))}
      <section class="card" aria-labelledby="raw-title">
        <h3 id="raw-title">Full record</h3>
        <details>
          <summary>Show the JSON that the download contains</summary>
          <pre class="json" tabindex="0" aria-label="The subject's data as JSON">${JSON.stringify(this.data, null, 2)}</pre>
        </details>
      </section>`;
  }

  private renderPart(key: string, value: unknown) {
    const items = Array.isArray(value)
      ? value
      : value && typeof value === "object" && Array.isArray((value as { purposes?: unknown }).purposes)
        ? ((value as { purposes: unknown[] }).purposes)
        : null;
    if (!items) return nothing;
    const rows = items as Record<string, unknown>[];
    const columns = glanceKeys.filter((k) => rows.some((r) => r && typeof r === "object" && k in r));
    return html`<section class="card" aria-labelledby="part-${key}">
      <h3 id="part-${key}">${titleOf(key)} <span class="badge">${rows.length}</span></h3>
      ${rows.length === 0 || columns.length === 0
        ? html`<p class="muted small">${rows.length === 0 ? "None." : "See the full record below."}</p>`
        : dataTable(
            titleOf(key),
            columns.map(titleOf),
            rows.map((r) => html`<tr>${columns.map((c) => html`<td data-label=${titleOf(c)}>${cell(c, r[c])}</td>`)}</tr>`),
          )}
    </section>`;
  }
}
