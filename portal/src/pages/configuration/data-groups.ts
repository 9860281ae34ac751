// Data groups: kinds of personal data that purposes use.
import { html } from "lit";
import type { Schemas } from "../../../../shared/api/operations";
import { api, ok } from "../../api";
import { textField } from "../../parts";
import type { DataGroup } from "../../types";
import { formValues } from "../../ui";
import { referenceHint, textIn, translationsIn, type Kind } from "./kind";

const one = (project_id: string, data_group_id: string) => ({ params: { path: { project_id, data_group_id } } });

export const dataGroups: Kind<DataGroup> = {
  noun: "data group",
  id: (d) => d.dataGroupId,
  name: (d) => d.name,
  description: (d) => d.description,
  list: async (project_id) => (await ok(api.GET("/privacy/v2/projects/{project_id}/configurations/data-groups", { params: { path: { project_id } } }))).items,
  read: (project_id, id) => ok(api.GET("/privacy/v2/projects/{project_id}/configurations/data-groups/{data_group_id}", one(project_id, id))),
  remove: (project_id, id) => ok(api.DELETE("/privacy/v2/projects/{project_id}/configurations/data-groups/{data_group_id}", one(project_id, id))),
  consequence: "A data group that a purpose still uses cannot be deleted; remove it from those purposes first.",
  editor: (d, texts) => ({
    fields: () => html`<div class="form-grid">
        ${textField("dg-name", "name", "Name", d?.name, { required: true })}
        ${textField("dg-reference", "referenceId", "Reference id", d?.referenceId, { hint: referenceHint, required: true })}
      </div>
      <ap-translations id="data-group-description" field-id="dg-desc" label="Description shown to data subjects" .value=${texts}></ap-translations>`,
    save: async (form, { project }) => {
      const v = formValues(form);
      const body = { referenceId: v.referenceId, name: v.name, description: translationsIn(form, "data-group-description") } as Schemas["DataGroupInput"];
      if (d) await ok(api.PUT("/privacy/v2/projects/{project_id}/configurations/data-groups/{data_group_id}", { ...one(project.projectId, d.dataGroupId), body }));
      else await ok(api.POST("/privacy/v2/projects/{project_id}/configurations/data-groups", { params: { path: { project_id: project.projectId } }, body }));
      return `Data group “${body.name}” saved.`;
    },
  }),
  table: {
    title: "Data groups",
    headingId: "data-groups-title",
    empty: "No data groups yet: kinds of personal data, such as an e-mail address or purchase history.",
    columns: ["Data group", "Description"],
    row: (d, { project }, actions) => html`<tr>
      <td data-label="Data group"><strong>${d.name}</strong> <code class="muted small">${d.referenceId}</code></td>
      <td data-label="Description" class="small">${textIn(d.description, project.defaultLanguage) || html`<span class="muted">None</span>`}</td>
      ${actions}
    </tr>`,
  },
};
