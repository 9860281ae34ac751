// Parties: the controllers, processors and recipients that purposes name.
import { html, nothing } from "lit";
import type { Schemas } from "../../../../shared/api/operations";
import { api, ok } from "../../api";
import { textField } from "../../parts";
import type { Party } from "../../types";
import { compact, formValues } from "../../ui";
import { referenceHint, translationsIn, type Kind } from "./kind";

const one = (project_id: string, party_id: string) => ({ params: { path: { project_id, party_id } } });

export const parties: Kind<Party> = {
  noun: "party",
  id: (p) => p.partyId,
  name: (p) => p.details.name,
  description: (p) => p.details.description ?? [],
  list: async (project_id) => (await ok(api.GET("/privacy/v2/projects/{project_id}/configurations/parties", { params: { path: { project_id } } }))).items,
  read: (project_id, id) => ok(api.GET("/privacy/v2/projects/{project_id}/parties/{party_id}", one(project_id, id))),
  remove: (project_id, id) => ok(api.DELETE("/privacy/v2/projects/{project_id}/parties/{party_id}", one(project_id, id))),
  consequence: "A party that a purpose still names cannot be deleted; remove it from those purposes first.",
  editor: (p, texts) => ({
    fields: () => {
      const d = p?.details;
      return html`<div class="form-grid">
          ${textField("party-name", "name", "Name", d?.name, { required: true })}
          ${textField("party-reference", "referenceId", "Reference id", p?.referenceId, { hint: referenceHint, required: true })}
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
        <ap-translations id="party-description" field-id="party-desc" label="Description shown to data subjects" .value=${texts}></ap-translations>`;
    },
    save: async (form, { project }) => {
      const v = formValues(form);
      const description = translationsIn(form, "party-description");
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
      if (p) await ok(api.PUT("/privacy/v2/projects/{project_id}/parties/{party_id}", { ...one(project.projectId, p.partyId), body }));
      else await ok(api.POST("/privacy/v2/projects/{project_id}/configurations/parties", { params: { path: { project_id: project.projectId } }, body }));
      return `Party “${details.name}” saved.`;
    },
  }),
  table: {
    title: "Parties",
    headingId: "parties-title",
    empty: "No parties yet: controllers, processors and recipients of the data.",
    columns: ["Party", "Type", "Contact"],
    row: (p, _view, actions) => html`<tr>
      <td data-label="Party"><strong>${p.details.name}</strong> <code class="muted small">${p.referenceId}</code></td>
      <td data-label="Type">${p.type === "company" ? "Company" : "Individual"}</td>
      <td data-label="Contact" class="small">${p.details.email ?? ""} ${p.details.jurisdiction ? html`<span class="muted">(${p.details.jurisdiction})</span>` : nothing}</td>
      ${actions}
    </tr>`,
  },
};
