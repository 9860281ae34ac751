// Purposes of processing: what subjects agree to. A change either keeps the version (a correction) or makes a new
// one that every subject is asked about again; the operator says which before saving.
import { html, nothing } from "lit";
import type { Schemas } from "../../../../shared/api/operations";
import { api, ok } from "../../api";
import { textField } from "../../parts";
import { consentTypes, legalGroundLabels, legalGrounds, type LegalGround, type Purpose, type Translation } from "../../types";
import { formValues } from "../../ui";
import { referenceHint, textIn, translationsIn, type ConfigurationView, type Kind } from "./kind";

const roles = ["controllers", "processors", "recipients"] as const;
const roleLabels = { controllers: "Controllers", processors: "Processors", recipients: "Recipients" };

const one = (project_id: string, purpose_id: string) => ({ params: { path: { project_id, purpose_id } } });

const checked = (list: string[] | undefined, id: string) => list?.includes(id) ?? false;

/** The operator's answer to “does this change require new consent?”; null until given. */
type Answer = { requireNewConsent: boolean | null };

function fields(p: Purpose | null, texts: Translation[], answer: Answer, view: ConfigurationView) {
  return html`<div class="form-grid">
      ${textField("purpose-name", "name", "Name", p?.name, { required: true })}
      ${textField("purpose-reference", "referenceId", "Reference id", p?.referenceId, { hint: referenceHint, required: true })}
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
      .value=${texts}
    ></ap-translations>
    <fieldset>
      <legend>Data groups used</legend>
      ${view.dataGroups.length
        ? html`<div class="checks">
            ${view.dataGroups.map(
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
          ${view.parties.map(
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
    ${p ? versionQuestion(p, answer, view) : html`<p class="hint">A new purpose starts at version 1.</p>`}`;
}

function versionQuestion(p: Purpose, answer: Answer, view: ConfigurationView) {
  const requireNewConsent = answer.requireNewConsent;
  const choose = (value: boolean) => () => {
    answer.requireNewConsent = value;
    view.update();
  };
  const nextVersion = String(Number(p.version) + 1);
  return html`<fieldset class="consent-question">
    <legend>Does this change require new consent?</legend>
    <label class="choice">
      <input type="radio" name="requireNewConsent" value="no" .checked=${requireNewConsent === false} @change=${choose(false)} />
      <span><strong>No</strong>, it corrects or clarifies without changing what subjects agree to.</span>
    </label>
    <label class="choice">
      <input type="radio" name="requireNewConsent" value="yes" .checked=${requireNewConsent === true} @change=${choose(true)} />
      <span><strong>Yes</strong>, subjects must agree again: earlier answers become outdated.</span>
    </label>
    <p class="notice ${requireNewConsent ? "warning" : "info"}" id="resulting-version" aria-live="polite">
      ${requireNewConsent === null
        ? html`Currently version ${p.version}. Choose an answer to see the resulting version.`
        : requireNewConsent
          ? html`Saving creates <strong class="inline">version ${nextVersion}</strong>. Version ${p.version} stays on record; every subject is asked again.`
          : html`Saving keeps <strong class="inline">version ${p.version}</strong>, edited in place. Existing answers stay valid.`}
    </p>
  </fieldset>`;
}

async function save(p: Purpose | null, answer: Answer, form: HTMLFormElement, project_id: string) {
  if (p && answer.requireNewConsent === null) throw new Error("Answer the question: does this change require new consent?");
  const v = formValues(form);
  const data = new FormData(form);
  const body = {
    referenceId: v.referenceId,
    name: v.name,
    legalGround: v.legalGround,
    description: translationsIn(form, "purpose-description"),
    dataGroups: data.getAll("dataGroups").map(String),
    controllers: data.getAll("controllers").map(String),
    processors: data.getAll("processors").map(String),
    recipients: data.getAll("recipients").map(String),
    consentMode: data.getAll("consentMode").map(String),
  } as Schemas["PurposeInput"]; // the form offers only valid choices; the API checks the rest
  const saved = p
    ? await ok(api.PUT("/privacy/v2/projects/{project_id}/configurations/purposes/{purpose_id}", {
        ...one(project_id, p.purposeId),
        body: { ...body, requireNewConsent: answer.requireNewConsent! },
      }))
    : await ok(api.POST("/privacy/v2/projects/{project_id}/configurations/purposes", { params: { path: { project_id } }, body }));
  return p && saved.version !== p.version
    ? `“${saved.name}” is now version ${saved.version}. Subjects will be asked again.`
    : `“${saved.name}” saved (version ${saved.version}).`;
}

export const purposes: Kind<Purpose> = {
  noun: "purpose",
  id: (p) => p.purposeId,
  name: (p) => p.name,
  description: (p) => p.description,
  list: async (project_id) => (await ok(api.GET("/privacy/v2/projects/{project_id}/configurations/purposes", { params: { path: { project_id } } }))).items,
  read: (project_id, id) => ok(api.GET("/privacy/v2/projects/{project_id}/configurations/purposes/{purpose_id}", one(project_id, id))),
  remove: (project_id, id) => ok(api.DELETE("/privacy/v2/projects/{project_id}/configurations/purposes/{purpose_id}", one(project_id, id))),
  consequence:
    "The purpose leaves the configuration and every subject's permission state at once. Its versions and the consents given to them stay on record.",
  editor: (p, texts) => {
    const answer: Answer = { requireNewConsent: null };
    return {
      fields: (view) => fields(p, texts, answer, view),
      save: (form, view) => save(p, answer, form, view.project.projectId),
    };
  },
  table: {
    title: "Purposes",
    headingId: "purposes-title",
    primary: true,
    needs: { met: (view) => view.parties.length > 0, noticeId: "needs-party", notice: "A purpose needs a controller: add a party first." },
    empty: "No purposes yet.",
    columns: ["Purpose", "Legal ground", "Version", "Data groups", "Parties"],
    row: (p, view, actions) => {
      const partyName = (id: string) => view.parties.find((party) => party.partyId === id)?.details.name ?? id;
      const dataGroupName = (id: string) => view.dataGroups.find((d) => d.dataGroupId === id)?.name ?? id;
      return html`<tr data-purpose=${p.referenceId}>
        <td data-label="Purpose">
          <strong>${p.name}</strong> <code class="muted small">${p.referenceId}</code><br />
          <span class="small muted">${textIn(p.description, view.project.defaultLanguage)}</span>
          ${p.description.length > 1
            ? html`<br /><span class="small muted">Languages: ${p.description.map((t) => t.language).join(", ")}</span>`
            : nothing}
        </td>
        <td data-label="Legal ground">${legalGroundLabels[p.legalGround]}</td>
        <td data-label="Version"><span class="badge blue purpose-version">v${p.version}</span></td>
        <td data-label="Data groups">${p.dataGroups.map(dataGroupName).join(", ") || html`<span class="muted">None</span>`}</td>
        <td data-label="Parties" class="small">
          ${roles.map((role) =>
            p[role].length ? html`<div><span class="muted">${roleLabels[role]}:</span> ${p[role].map(partyName).join(", ")}</div>` : nothing,
          )}
        </td>
        ${actions}
      </tr>`;
    },
  },
};
