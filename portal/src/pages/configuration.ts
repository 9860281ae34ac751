import { html, nothing } from "lit";
import { customElement, property, state } from "lit/decorators.js";
import type { Schemas } from "../../../shared/api/operations";
import { api } from "../api";
import {
  consentTypes,
  legalGroundLabels,
  legalGrounds,
  type DataGroup,
  type LegalGround,
  type Party,
  type Project,
  type Purpose,
  type Translation,
} from "../types";
import { actionsColumn, confirmDialog, dataTable, editAndDelete, formDialog, pageHead, textField } from "../parts";
import { ActionElement, closeDialog, compact, formValues, loadingView, notify, problemView, TranslationsEditor } from "../ui";
import "./widget-preview";

type Editing =
  | { kind: "purpose"; item: Purpose | null }
  | { kind: "dataGroup"; item: DataGroup | null }
  | { kind: "party"; item: Party | null };

type Removing = { kind: "purpose" | "dataGroup" | "party"; id: string; name: string };

const roles = ["controllers", "processors", "recipients"] as const;
const roleLabels = { controllers: "Controllers", processors: "Processors", recipients: "Recipients" };

const textIn = (translations: Translation[], language: string) =>
  translations.find((t) => t.language === language)?.text ?? translations[0]?.text ?? "";

@customElement("ap-configuration")
export class ConfigurationPage extends ActionElement {
  @property({ attribute: false }) project!: Project;
  @state() private purposes: Purpose[] | null = null;
  @state() private dataGroups: DataGroup[] = [];
  @state() private parties: Party[] = [];
  @state() private error: unknown = null;
  @state() private editing: Editing | null = null;
  @state() private removing: Removing | null = null;
  @state() private requireNewConsent: boolean | null = null;
  /**
   * The texts the open editor starts from, fixed when it opens: passing the same array on every render keeps
   * Lit from resetting the translations editor while the operator types.
   */
  private initialTexts: Translation[] = [];

  override connectedCallback() {
    super.connectedCallback();
    void this.load();
  }

  private async load() {
    const params = { project_id: this.project.projectId };
    try {
      const [purposes, dataGroups, parties] = await Promise.all([
        api("GET", "/privacy/v2/projects/{project_id}/configurations/purposes", { params }),
        api("GET", "/privacy/v2/projects/{project_id}/configurations/data-groups", { params }),
        api("GET", "/privacy/v2/projects/{project_id}/configurations/parties", { params }),
      ]);
      this.purposes = purposes.items;
      this.dataGroups = dataGroups.items;
      this.parties = parties.items;
      this.error = null;
    } catch (error) {
      this.error = error;
    }
  }

  /**
   * The record as it is now, read when its editor or its deletion opens: the portal keeps the ETag of this read and
   * sends it with the save or delete, so a change someone else made in between is refused instead of overwritten.
   * Undefined when it cannot be read (gone, offline): the save or delete itself then says so.
   */
  private async current(kind: Removing["kind"], id: string): Promise<Purpose | DataGroup | Party | undefined> {
    const project_id = this.project.projectId;
    const read = {
      purpose: () => api("GET", "/privacy/v2/projects/{project_id}/configurations/purposes/{purpose_id}", { params: { project_id, purpose_id: id } }),
      dataGroup: () => api("GET", "/privacy/v2/projects/{project_id}/configurations/data-groups/{data_group_id}", { params: { project_id, data_group_id: id } }),
      party: () => api("GET", "/privacy/v2/projects/{project_id}/parties/{party_id}", { params: { project_id, party_id: id } }),
    }[kind];
    return read().catch(() => undefined);
  }

  private async edit(opened: Editing) {
    let editing = opened;
    if (opened.item) {
      const id = opened.kind === "purpose" ? opened.item.purposeId : opened.kind === "dataGroup" ? opened.item.dataGroupId : opened.item.partyId;
      editing = { ...opened, item: (await this.current(opened.kind, id)) ?? opened.item } as Editing;
    }
    const texts = editing.kind === "party" ? editing.item?.details.description : editing.item?.description;
    this.initialTexts = texts?.length ? texts.map((t) => ({ ...t })) : [{ language: this.project.defaultLanguage, text: "" }];
    this.requireNewConsent = null;
    this.editing = editing;
    this.openDialog("config-editor");
  }

  private translations(id: string) {
    return this.querySelector<TranslationsEditor>(`#${id}`)?.translations ?? [];
  }

  private async submit(e: SubmitEvent) {
    e.preventDefault();
    const editing = this.editing!;
    const form = e.target as HTMLFormElement;
    const v = formValues(form);
    const data = new FormData(form);
    const project_id = this.project.projectId;
    const saved = await this.run(async () => {
      if (editing.kind === "purpose") {
        if (editing.item && this.requireNewConsent === null) {
          throw new Error("Answer the question: does this change require new consent?");
        }
        const body = {
          referenceId: v.referenceId,
          name: v.name,
          legalGround: v.legalGround,
          description: this.translations("purpose-description"),
          dataGroups: data.getAll("dataGroups").map(String),
          controllers: data.getAll("controllers").map(String),
          processors: data.getAll("processors").map(String),
          recipients: data.getAll("recipients").map(String),
          consentMode: data.getAll("consentMode").map(String),
        } as Schemas["PurposeInput"]; // the form offers only valid choices; the API checks the rest
        const saved = editing.item
          ? await api("PUT", "/privacy/v2/projects/{project_id}/configurations/purposes/{purpose_id}", {
              params: { project_id, purpose_id: editing.item.purposeId },
              body: { ...body, requireNewConsent: this.requireNewConsent! },
            })
          : await api("POST", "/privacy/v2/projects/{project_id}/configurations/purposes", { params: { project_id }, body });
        notify(
          editing.item && saved.version !== editing.item.version
            ? `“${saved.name}” is now version ${saved.version}. Subjects will be asked again.`
            : `“${saved.name}” saved (version ${saved.version}).`,
        );
      } else if (editing.kind === "dataGroup") {
        const body = { referenceId: v.referenceId, name: v.name, description: this.translations("data-group-description") } as Schemas["DataGroupInput"];
        if (editing.item) {
          const params = { project_id, data_group_id: editing.item.dataGroupId };
          await api("PUT", "/privacy/v2/projects/{project_id}/configurations/data-groups/{data_group_id}", { params, body });
        } else await api("POST", "/privacy/v2/projects/{project_id}/configurations/data-groups", { params: { project_id }, body });
        notify(`Data group “${body.name}” saved.`);
      } else {
        const description = this.translations("party-description");
        const details = compact({
          name: v.name,
          description: description.length ? description : undefined,
          email: v.email,
          address: v.address,
          nationalId: v.nationalId,
          phone: v.phone,
          jurisdiction: v.jurisdiction,
          policies: v.privacyPolicy ? { privacy: v.privacyPolicy } : undefined,
        });
        const body = { referenceId: v.referenceId, type: v.type, details } as Schemas["PartyInput"];
        if (editing.item) {
          await api("PUT", "/privacy/v2/projects/{project_id}/parties/{party_id}", { params: { project_id, party_id: editing.item.partyId }, body });
        } else await api("POST", "/privacy/v2/projects/{project_id}/configurations/parties", { params: { project_id }, body });
        notify(`Party “${details.name}” saved.`);
      }
      closeDialog(this, "config-editor");
      await this.load();
    });
    // The problem is shown above the fields: bring it into view.
    if (!saved) this.querySelector("#config-editor")?.scrollTo({ top: 0 });
  }

  private async confirmDelete() {
    const r = this.removing!;
    const project_id = this.project.projectId;
    const remove = {
      purpose: () => api("DELETE", "/privacy/v2/projects/{project_id}/configurations/purposes/{purpose_id}", { params: { project_id, purpose_id: r.id } }),
      dataGroup: () =>
        api("DELETE", "/privacy/v2/projects/{project_id}/configurations/data-groups/{data_group_id}", { params: { project_id, data_group_id: r.id } }),
      party: () => api("DELETE", "/privacy/v2/projects/{project_id}/parties/{party_id}", { params: { project_id, party_id: r.id } }),
    }[r.kind];
    return this.run(async () => {
      await remove();
      closeDialog(this, "config-remove");
      notify(`“${r.name}” deleted.`);
      await this.load();
    });
  }

  private async askRemove(removing: Removing) {
    await this.current(removing.kind, removing.id);
    this.removing = removing;
    this.openDialog("config-remove");
  }

  protected override render() {
    if (this.error) return problemView(this.error, "The configuration could not be loaded");
    if (!this.purposes) return loadingView("the configuration");
    return html`${pageHead("Configuration", "What data subjects are asked to agree to: purposes of processing, the data they use, and who receives it.")}
      ${this.renderPurposes()} ${this.renderDataGroups()} ${this.renderParties()}
      <ap-widget-preview .project=${this.project} .purposes=${this.purposes} .dataGroups=${this.dataGroups} .parties=${this.parties}></ap-widget-preview>
      ${this.renderEditor()} ${this.renderRemove()}`;
  }

  private partyName = (id: string) => this.parties.find((p) => p.partyId === id)?.details.name ?? id;
  private dataGroupName = (id: string) => this.dataGroups.find((d) => d.dataGroupId === id)?.name ?? id;

  private renderPurposes() {
    const purposes = this.purposes!;
    return html`<section class="card" aria-labelledby="purposes-title">
      <header>
        <h3 id="purposes-title">Purposes <span class="badge">${purposes.length}</span></h3>
        <button
          type="button"
          class="button primary small"
          ?disabled=${this.parties.length === 0}
          aria-describedby=${this.parties.length === 0 ? "needs-party" : nothing}
          @click=${() => this.edit({ kind: "purpose", item: null })}
        >
          New purpose
        </button>
      </header>
      ${this.parties.length === 0
        ? html`<p class="notice info" id="needs-party">A purpose needs a controller: add a party first.</p>`
        : nothing}
      ${purposes.length === 0
        ? html`<p class="muted small">No purposes yet.</p>`
        : dataTable(
            "Purposes",
            ["Purpose", "Legal ground", "Version", "Data groups", "Parties", actionsColumn],
            purposes.map(
              (p) => html`<tr data-purpose=${p.referenceId}>
                <td data-label="Purpose">
                  <strong>${p.name}</strong> <code class="muted small">${p.referenceId}</code><br />
                  <span class="small muted">${textIn(p.description, this.project.defaultLanguage)}</span>
                  ${p.description.length > 1
                    ? html`<br /><span class="small muted">Languages: ${p.description.map((t) => t.language).join(", ")}</span>`
                    : nothing}
                </td>
                <td data-label="Legal ground">${legalGroundLabels[p.legalGround]}</td>
                <td data-label="Version"><span class="badge blue purpose-version">v${p.version}</span></td>
                <td data-label="Data groups">${p.dataGroups.map(this.dataGroupName).join(", ") || html`<span class="muted">None</span>`}</td>
                <td data-label="Parties" class="small">
                  ${roles.map((role) =>
                    p[role].length ? html`<div><span class="muted">${roleLabels[role]}:</span> ${p[role].map(this.partyName).join(", ")}</div>` : nothing,
                  )}
                </td>
                ${editAndDelete(
                  `purpose ${p.name}`,
                  () => this.edit({ kind: "purpose", item: p }),
                  () => this.askRemove({ kind: "purpose", id: p.purposeId, name: p.name }),
                )}
              </tr>`,
            ),
          )}
    </section>`;
  }

  private renderDataGroups() {
    return html`<section class="card" aria-labelledby="data-groups-title">
      <header>
        <h3 id="data-groups-title">Data groups <span class="badge">${this.dataGroups.length}</span></h3>
        <button type="button" class="button small" @click=${() => this.edit({ kind: "dataGroup", item: null })}>New data group</button>
      </header>
      ${this.dataGroups.length === 0
        ? html`<p class="muted small">No data groups yet: kinds of personal data, such as an e-mail address or purchase history.</p>`
        : dataTable(
            "Data groups",
            ["Data group", "Description", actionsColumn],
            this.dataGroups.map(
              (d) => html`<tr>
                <td data-label="Data group"><strong>${d.name}</strong> <code class="muted small">${d.referenceId}</code></td>
                <td data-label="Description" class="small">${textIn(d.description, this.project.defaultLanguage) || html`<span class="muted">None</span>`}</td>
                ${editAndDelete(
                  `data group ${d.name}`,
                  () => this.edit({ kind: "dataGroup", item: d }),
                  () => this.askRemove({ kind: "dataGroup", id: d.dataGroupId, name: d.name }),
                )}
              </tr>`,
            ),
          )}
    </section>`;
  }

  private renderParties() {
    return html`<section class="card" aria-labelledby="parties-title">
      <header>
        <h3 id="parties-title">Parties <span class="badge">${this.parties.length}</span></h3>
        <button type="button" class="button small" @click=${() => this.edit({ kind: "party", item: null })}>New party</button>
      </header>
      ${this.parties.length === 0
        ? html`<p class="muted small">No parties yet: controllers, processors and recipients of the data.</p>`
        : dataTable(
            "Parties",
            ["Party", "Type", "Contact", actionsColumn],
            this.parties.map(
              (p) => html`<tr>
                <td data-label="Party"><strong>${p.details.name}</strong> <code class="muted small">${p.referenceId}</code></td>
                <td data-label="Type">${p.type === "company" ? "Company" : "Individual"}</td>
                <td data-label="Contact" class="small">${p.details.email ?? ""} ${p.details.jurisdiction ? html`<span class="muted">(${p.details.jurisdiction})</span>` : nothing}</td>
                ${editAndDelete(
                  `party ${p.details.name}`,
                  () => this.edit({ kind: "party", item: p }),
                  () => this.askRemove({ kind: "party", id: p.partyId, name: p.details.name }),
                )}
              </tr>`,
            ),
          )}
    </section>`;
  }

  private renderEditor() {
    const e = this.editing;
    const title = !e
      ? ""
      : e.kind === "purpose"
        ? e.item
          ? `Edit purpose “${e.item.name}”`
          : "New purpose"
        : e.kind === "dataGroup"
          ? e.item
            ? `Edit data group “${e.item.name}”`
            : "New data group"
          : e.item
            ? `Edit party “${e.item.details.name}”`
            : "New party";
    return formDialog(
      this,
      "config-editor",
      e && {
        title,
        error: this.formError,
        errorHeading: "Not saved",
        onSubmit: (event) => this.submit(event),
        action: { label: "Save", disabled: this.busy },
        body: e.kind === "purpose" ? this.purposeFields(e.item) : e.kind === "dataGroup" ? this.dataGroupFields(e.item) : this.partyFields(e.item),
      },
      () => (this.editing = null),
    );
  }

  private referenceHint = "Your own identifier: letters, digits and - . _ ~; unique in the project.";

  private purposeFields(p: Purpose | null) {
    const checked = (list: string[] | undefined, id: string) => list?.includes(id) ?? false;
    const nextVersion = p ? String(Number(p.version) + 1) : "1";
    return html`<div class="form-grid">
        ${textField("purpose-name", "name", "Name", p?.name, { required: true })}
        ${textField("purpose-reference", "referenceId", "Reference id", p?.referenceId, { hint: this.referenceHint, required: true })}
      </div>
      <div class="field">
        <label for="purpose-ground">Legal ground</label>
        <select id="purpose-ground" name="legalGround">
          ${legalGrounds.map((g: LegalGround) => html`<option value=${g} ?selected=${(p?.legalGround ?? "consent") === g}>${legalGroundLabels[g]}</option>`)}
        </select>
      </div>
      <ap-translations
        id="purpose-description"
        field-id="purpose-desc"
        label="Description shown to data subjects"
        hint="One text per language; the widget picks the subject's language."
        .value=${this.initialTexts}
      ></ap-translations>
      <fieldset>
        <legend>Data groups used</legend>
        ${this.dataGroups.length
          ? html`<div class="checks">
              ${this.dataGroups.map(
                (d) => html`<label class="choice"
                  ><input type="checkbox" name="dataGroups" value=${d.dataGroupId} ?checked=${checked(p?.dataGroups, d.dataGroupId)} /> ${d.name}</label
                >`,
              )}
            </div>`
          : html`<p class="hint">No data groups yet.</p>`}
      </fieldset>
      ${roles.map(
        (role) => html`<fieldset>
          <legend>${roleLabels[role]}${role === "controllers" ? " (at least one)" : ""}</legend>
          <div class="checks">
            ${this.parties.map(
              (party) => html`<label class="choice"
                ><input type="checkbox" name=${role} value=${party.partyId} ?checked=${checked(p?.[role], party.partyId)} /> ${party.details.name}</label
              >`,
            )}
          </div>
        </fieldset>`,
      )}
      <fieldset>
        <legend>Google Consent Mode types</legend>
        <p class="hint" id="purpose-consent-mode-hint">Granted to Google tags when this purpose is allowed (the project's Consent Mode settings turn it on).</p>
        <div class="checks" aria-describedby="purpose-consent-mode-hint">
          ${consentTypes.map(
            (type) => html`<label class="choice"
              ><input type="checkbox" name="consentMode" value=${type} ?checked=${checked(p?.consentMode, type)} /> <code>${type}</code></label
            >`,
          )}
        </div>
      </fieldset>
      ${p
        ? html`<fieldset class="consent-question">
            <legend>Does this change require new consent?</legend>
            <label class="choice">
              <input type="radio" name="requireNewConsent" value="no" .checked=${this.requireNewConsent === false} @change=${() => (this.requireNewConsent = false)} />
              <span><strong>No</strong>, it corrects or clarifies without changing what subjects agree to.</span>
            </label>
            <label class="choice">
              <input type="radio" name="requireNewConsent" value="yes" .checked=${this.requireNewConsent === true} @change=${() => (this.requireNewConsent = true)} />
              <span><strong>Yes</strong>, subjects must agree again: earlier answers become outdated.</span>
            </label>
            <p class="notice ${this.requireNewConsent ? "warning" : "info"}" id="resulting-version" aria-live="polite">
              ${this.requireNewConsent === null
                ? html`Currently version ${p.version}. Choose an answer to see the resulting version.`
                : this.requireNewConsent
                  ? html`Saving creates <strong class="inline">version ${nextVersion}</strong>. Version ${p.version} stays on record; every subject is asked again.`
                  : html`Saving keeps <strong class="inline">version ${p.version}</strong>, edited in place. Existing answers stay valid.`}
            </p>
          </fieldset>`
        : html`<p class="hint">A new purpose starts at version 1.</p>`}`;
  }

  private dataGroupFields(d: DataGroup | null) {
    return html`<div class="form-grid">
        ${textField("dg-name", "name", "Name", d?.name, { required: true })}
        ${textField("dg-reference", "referenceId", "Reference id", d?.referenceId, { hint: this.referenceHint, required: true })}
      </div>
      <ap-translations
        id="data-group-description"
        field-id="dg-desc"
        label="Description shown to data subjects"
        .value=${this.initialTexts}
      ></ap-translations>`;
  }

  private partyFields(p: Party | null) {
    const d = p?.details;
    return html`<div class="form-grid">
        ${textField("party-name", "name", "Name", d?.name, { required: true })}
        ${textField("party-reference", "referenceId", "Reference id", p?.referenceId, { hint: this.referenceHint, required: true })}
      </div>
      <div class="field">
        <label for="party-type">Type</label>
        <select id="party-type" name="type">
          <option value="company" ?selected=${p?.type !== "individual"}>Company</option>
          <option value="individual" ?selected=${p?.type === "individual"}>Individual</option>
        </select>
      </div>
      <div class="form-grid">
        ${textField("party-email", "email", "Privacy e-mail", d?.email, { type: "email" })} ${textField("party-phone", "phone", "Phone", d?.phone)}
        ${textField("party-address", "address", "Address", d?.address)} ${textField("party-national-id", "nationalId", "Organisation number", d?.nationalId)}
        ${textField("party-jurisdiction", "jurisdiction", "Jurisdiction", d?.jurisdiction)}
        ${textField("party-privacy", "privacyPolicy", "Privacy policy URL", d?.policies?.privacy, { type: "url" })}
      </div>
      <ap-translations
        id="party-description"
        field-id="party-desc"
        label="Description shown to data subjects"
        .value=${this.initialTexts}
      ></ap-translations>`;
  }

  private renderRemove() {
    const r = this.removing;
    const consequence =
      r?.kind === "purpose"
        ? "The purpose leaves the configuration and every subject's permission state at once. Its versions and the consents given to them stay on record."
        : r?.kind === "dataGroup"
          ? "A data group that a purpose still uses cannot be deleted; remove it from those purposes first."
          : "A party that a purpose still names cannot be deleted; remove it from those purposes first.";
    return confirmDialog(
      this,
      "config-remove",
      r && {
        title: `Delete “${r.name}”?`,
        body: html`<p>${consequence}</p>`,
        error: this.formError,
        errorHeading: "Not deleted",
        action: { label: "Delete", danger: true, disabled: this.busy, onClick: () => this.confirmDelete() },
      },
      () => (this.removing = null),
    );
  }
}
