// The Blocking page: the project's host → purpose list that the project's blocker holds back until consent
// (docs/blocking.md), its switch, and three ways to grow it: by hand, from the latest scan's third-party hosts, and
// from the vendor catalogue, which also creates the purpose a vendor needs. What each adds is ./entries.ts.
import { html, nothing } from "lit";
import { vendorCovering } from "../../../../shared/blocking/hosts";
import { customElement, property, state } from "lit/decorators.js";
import { api, ok } from "../../api";
import { actionsCell, actionsColumn, dataTable, formDialog, pageHead, textField } from "../../parts";
import { blockingSourceLabels, type BlockingEntry, type BlockingList, type Party, type Project, type Purpose, type ScanWithReport, type ThirdPartyHost, type Vendor } from "../../types";
import { ActionElement, closeDialog, loadingView, notify, problemView, several } from "../../ui";
import { latestReport } from "../scanner/latest";
import { newControllerParty } from "../scanner/purposes";
import { categoryLabel } from "../scanner/report";
import { defaultPurposeOf, purposeForVendor, scannedHosts, vendorEntries } from "./entries";

@customElement("ap-blocking")
export class BlockingPage extends ActionElement {
  @property({ attribute: false }) project!: Project;
  @state() private list: BlockingList | null = null;
  @state() private vendors: Vendor[] = [];
  @state() private purposes: Purpose[] = [];
  @state() private parties: Party[] = [];
  @state() private scan: ScanWithReport | null = null;
  @state() private error: unknown = null;
  /** The vendor chosen in the picker, so the dialog can say what adding it does. */
  @state() private picked: Vendor | null = null;

  private get path() {
    return { params: { path: { project_id: this.project.projectId } } };
  }

  override connectedCallback() {
    super.connectedCallback();
    void this.load();
  }

  private async load() {
    try {
      const [list, catalogue, purposes, parties, scans] = await Promise.all([
        ok(api.GET("/admin/v1/projects/{project_id}/blocking", this.path)),
        ok(api.GET("/admin/v1/vendors")),
        ok(api.GET("/privacy/v2/projects/{project_id}/configurations/purposes", this.path)),
        ok(api.GET("/privacy/v2/projects/{project_id}/configurations/parties", this.path)),
        ok(api.GET("/privacy/v2/projects/{project_id}/scans", this.path)),
      ]);
      this.scan = await latestReport(this.project.projectId, scans.items);
      this.vendors = catalogue.vendors;
      this.purposes = purposes.items;
      this.parties = parties.items;
      this.list = list;
    } catch (error) {
      this.error = error;
    }
  }

  /** Stores the whole list (the API replaces it) and shows what the server kept. */
  private async save(next: BlockingList) {
    this.list = await ok(api.PUT("/admin/v1/projects/{project_id}/blocking", { ...this.path, body: next }));
  }

  private saveSwitch(e: SubmitEvent) {
    e.preventDefault();
    const enabled = new FormData(e.target as HTMLFormElement).get("enabled") === "on";
    return this.run(async () => {
      await this.save({ ...this.list!, enabled });
      notify(enabled ? "Automatic blocking is on." : "Automatic blocking is off.");
    });
  }

  private addByHand(e: SubmitEvent) {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    const entry: BlockingEntry = { host: String(data.get("host") ?? "").trim(), purpose: String(data.get("purpose") ?? ""), source: "manual" };
    return this.run(async () => {
      await this.save({ ...this.list!, entries: [...this.list!.entries, entry] });
      closeDialog(this, "add-host");
      notify(`${entry.host} added.`);
    });
  }

  private addFromScan(e: SubmitEvent) {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    const chosen = data.getAll("host").map(String);
    const entries = chosen.map((host): BlockingEntry => {
      const vendor = vendorCovering(this.vendors, host);
      return { host, purpose: String(data.get(`purpose:${host}`)), source: "scan", ...(vendor ? { vendor: vendor.id } : {}) };
    });
    return this.run(async () => {
      await this.save({ ...this.list!, entries: [...this.list!.entries, ...entries] });
      closeDialog(this, "add-scanned");
      notify(`${several(entries.length, "host")} added from the scan.`);
    });
  }

  private addVendor(e: SubmitEvent) {
    e.preventDefault();
    const vendor = this.picked!;
    const controller = String(new FormData(e.target as HTMLFormElement).get("controller") ?? newControllerParty);
    return this.run(async () => {
      const purpose = await purposeForVendor(this.project, vendor, this.purposes, controller);
      const entries = vendorEntries(vendor, this.vendors, this.list!.entries, purpose);
      await this.save({ ...this.list!, entries: [...this.list!.entries, ...entries] });
      closeDialog(this, "add-vendor");
      notify(`${vendor.name}: ${several(entries.length, "host")} added under ${purpose}.`);
      await this.load();
    });
  }

  private removeEntry(entry: BlockingEntry) {
    return this.run(async () => {
      await this.save({ ...this.list!, entries: this.list!.entries.filter((e) => e.host !== entry.host) });
      notify(`${entry.host} removed.`);
    });
  }

  private openVendorPicker() {
    this.picked = this.vendors.find((vendor) => !vendor.cookieless) ?? null;
    this.openDialog("add-vendor");
  }

  protected override render() {
    return html`${pageHead(
        "Blocking",
        "Scripts, iframes and image pixels from these hosts wait on the page until the visitor approves their purpose.",
        html`<div class="actions">
          <button type="button" class="button primary" ?disabled=${!this.list} @click=${() => this.openVendorPicker()}>Add a vendor</button>
          <button type="button" class="button" ?disabled=${!this.list} @click=${() => this.openDialog("add-scanned")}>Add from the scan</button>
          <button type="button" class="button" ?disabled=${!this.list} @click=${() => this.openDialog("add-host")}>Add a host</button>
        </div>`,
      )}
      ${problemView(this.error, "The blocking list could not be loaded")} ${this.list === null && !this.error ? loadingView("the blocking list") : nothing}
      ${this.list ? html`${this.renderSwitch(this.list)} ${problemView(this.formError, "The list was not saved")} ${this.renderList(this.list)}` : nothing}
      ${this.renderHostDialog()} ${this.renderScanDialog()} ${this.renderVendorDialog()}`;
  }

  private renderSwitch(list: BlockingList) {
    return html`<form class="card" aria-labelledby="blocking-switch-title" @submit=${this.saveSwitch}>
      <h3 id="blocking-switch-title">Automatic blocking</h3>
      <p class="hint">
        The project's blocker holds back what the list names. Put it first in each page's <code>&lt;head&gt;</code>, before any other script:
        <code class="install">${`<script src="${location.origin}/widget/v1/projects/${this.project.projectId}/blocking.js"></script>`}</code>
      </p>
      <p class="hint">
        Tags written in the page's HTML are still fetched by the browser (never run) before the blocker can act, unless the site's pages come
        through the edge Worker, <code>@assent/edge</code>, which holds them before the page reaches the browser and adds the blocker itself.
      </p>
      <label class="choice"><input type="checkbox" name="enabled" ?checked=${list.enabled} /> Block the listed hosts until consent</label>
      <div class="actions"><button class="button" type="submit" ?disabled=${this.busy}>Save</button></div>
    </form>`;
  }

  private renderList(list: BlockingList) {
    if (list.entries.length === 0) {
      return html`<div class="card empty"><strong>Nothing is blocked yet</strong>Add a vendor, the hosts your latest scan found, or a host by hand.</div>`;
    }
    const vendorName = (id: string | undefined) => this.vendors.find((vendor) => vendor.id === id)?.name;
    return html`<h3>Blocked hosts</h3>
      ${dataTable(
        "Blocked hosts",
        ["Host", "Purpose", "Source", "Vendor", actionsColumn],
        list.entries.map(
          (entry) => html`<tr data-host=${entry.host}>
            <td data-label="Host"><code>${entry.host}</code></td>
            <td data-label="Purpose">${this.purposes.find((p) => p.referenceId === entry.purpose)?.name ?? entry.purpose}</td>
            <td data-label="Source">${blockingSourceLabels[entry.source]}</td>
            <td data-label="Vendor">${vendorName(entry.vendor) ?? "—"}</td>
            ${actionsCell({ label: "Remove", name: `Remove ${entry.host}`, onClick: () => void this.removeEntry(entry), danger: true, disabled: this.busy })}
          </tr>`,
        ),
      )}`;
  }

  private purposeSelect(id: string, name: string, label: string, selected?: string) {
    return html`<div class="field">
      <label for=${id}>${label}</label>
      <select id=${id} name=${name} required>
        ${this.purposes.map((p) => html`<option value=${p.referenceId} ?selected=${p.referenceId === selected}>${p.name} (${p.referenceId})</option>`)}
      </select>
    </div>`;
  }

  private renderHostDialog() {
    return formDialog(this, "add-host", {
      title: "Add a host",
      error: this.formError,
      errorHeading: "The host was not added",
      onSubmit: (e) => this.addByHand(e),
      action: { label: "Add host", disabled: this.busy || this.purposes.length === 0 },
      body: this.purposes.length
        ? html`${textField("blocking-host", "host", "Host", "", {
              required: true,
              placeholder: "pixel.partner.example",
              hint: html`A host name, or <code>*.example.com</code> for every subdomain; not your own site or this service.`,
            })}
            ${this.purposeSelect("blocking-purpose", "purpose", "Purpose")}`
        : html`<p>The project has no purposes yet: create one on the Configuration page, or add a vendor.</p>`,
    });
  }

  private renderScanDialog() {
    const { proposed, unclassified } = this.list ? scannedHosts(this.scan, this.list.entries) : { proposed: [], unclassified: [] };
    const choices = (hosts: ThirdPartyHost[], checked: boolean, first: number) =>
      hosts.map(
        (h, i) => html`<div class="field">
          <label class="choice"><input type="checkbox" name="host" value=${h.host} ?checked=${checked} /> <code>${h.host}</code> (${categoryLabel(h.category)}${h.vendor ? `, ${h.vendor}` : ""})</label>
          ${this.purposeSelect(`scanned-purpose-${first + i}`, `purpose:${h.host}`, `Purpose of ${h.host}`, defaultPurposeOf(h, this.purposes))}
        </div>`,
      );
    return formDialog(this, "add-scanned", {
      title: "Add from the latest scan",
      error: this.formError,
      errorHeading: "The hosts were not added",
      onSubmit: (e) => this.addFromScan(e),
      action: { label: "Add hosts", disabled: this.busy || proposed.length + unclassified.length === 0 || this.purposes.length === 0 },
      body: !this.scan
        ? html`<p>No scan yet: run one on the Scanner page.</p>`
        : html`${proposed.length === 0
              ? html`<p>Every host the scan of <code>${this.scan.origin}</code> proposes to block is listed already.</p>`
              : html`<fieldset>
                  <legend>Proposed by the scan of <code>${this.scan.origin}</code></legend>
                  ${choices(proposed, true, 0)}
                </fieldset>`}
            ${unclassified.length === 0
              ? nothing
              : html`<fieldset>
                  <legend>Not classified</legend>
                  <p class="hint">No cookie database names these hosts, so the scan proposes no purpose for them: check those that should wait for consent.</p>
                  ${choices(unclassified, false, proposed.length)}
                </fieldset>`}`,
    });
  }

  private renderVendorDialog() {
    const vendor = this.picked;
    const choices = this.vendors.filter((v) => !v.cookieless);
    const cookieless = this.vendors.filter((v) => v.cookieless).map((v) => v.name);
    const purpose = vendor ? this.purposes.find((p) => p.referenceId === vendor.purpose) : undefined;
    const servedBy = this.vendors.find((v) => v.id === vendor?.servedBy);
    return formDialog(this, "add-vendor", {
      title: "Add a vendor",
      error: this.formError,
      errorHeading: "The vendor was not added",
      onSubmit: (e) => this.addVendor(e),
      action: { label: "Add vendor", disabled: this.busy || !vendor },
      body: html`<div class="field">
          <label for="vendor-choice">Vendor</label>
          <select id="vendor-choice" @change=${(e: Event) => (this.picked = this.vendors.find((v) => v.id === (e.target as HTMLSelectElement).value) ?? null)}>
            ${choices.map((v) => html`<option value=${v.id} ?selected=${v.id === vendor?.id}>${v.name}</option>`)}
          </select>
        </div>
        ${vendor
          ? html`<dl class="facts" aria-label="What adding ${vendor.name} does">
              <dt>Hosts</dt>
              <dd>${[...vendor.hosts, ...(servedBy?.hosts ?? [])].map((host) => html`<code>${host}</code> `)}${servedBy ? html`(its script comes from ${servedBy.name})` : nothing}</dd>
              <dt>Purpose</dt>
              <dd>
                ${purpose ? html`${purpose.name} (<code>${purpose.referenceId}</code>)` : html`New: ${categoryLabel(vendor.purpose)} (<code>${vendor.purpose}</code>)`}
                ${vendor.consentModeTypes.length ? html`with Consent Mode ${vendor.consentModeTypes.map((type) => html`<code>${type}</code> `)}` : nothing}
              </dd>
              <dt>On every decision</dt>
              <dd>${vendor.consentCallDescription ? html`<code>${vendor.consentCallDescription}</code>` : "Nothing beyond blocking and Consent Mode"}</dd>
            </dl>
            ${purpose ? nothing : this.controllerField()}`
          : nothing}
        ${cookieless.length ? html`<p class="small muted">${cookieless.join(" and ")} measure without cookies: they need no consent and are not offered here.</p>` : nothing}`,
    });
  }

  private controllerField() {
    return html`<div class="field">
      <label for="vendor-controller">Controller of the new purpose</label>
      <select id="vendor-controller" name="controller">
        ${this.parties.map((party) => html`<option value=${party.partyId}>${party.details.name}</option>`)}
        ${this.parties.some((party) => party.referenceId === "controller")
          ? nothing
          : html`<option value=${newControllerParty} ?selected=${this.parties.length === 0}>New party: ${this.project.controller?.name ?? this.project.name} (the project's controller)</option>`}
      </select>
    </div>`;
  }
}
