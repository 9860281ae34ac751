// The scan's proposed purposes, created in one click: one consent purpose per non-essential category found, with
// its Consent Mode types, named by the category. A purpose needs a controller: one of the project's parties, or a
// party made from the project's own controller in the same step.
import { html, nothing } from "lit";
import { api, ok } from "../../api";
import type { Party, Project, ProposedPurpose, Purpose, ScanCategory } from "../../types";
import { several } from "../../ui";
import { categoryLabel } from "./report";

/** What a proposed purpose tells data subjects, in English; the operator edits it on the configuration page. */
const descriptions: Partial<Record<ScanCategory, string>> = {
  analytics: "Measuring how visitors use the site, to improve it.",
  marketing: "Advertising: showing and measuring ads, on this site and others.",
  functional: "Remembering your choices and enabling features such as chat and embedded media.",
  personalization: "Tailoring content and recommendations to you.",
  unclassified: "Services the site scan could not classify yet.",
};

/** The value of the controller choice that makes a party of the project's controller. */
export const newControllerParty = "new";

/** The purposes' reference ids are the categories, so a proposal already created is recognised and not made twice. */
export const isCreated = (proposal: ProposedPurpose, purposes: Purpose[]) => purposes.some((p) => p.referenceId === proposal.category);

async function controllerPartyOf(project: Project): Promise<Party> {
  const controller = project.controller;
  return ok(
    api.POST("/privacy/v2/projects/{project_id}/configurations/parties", {
      params: { path: { project_id: project.projectId } },
      body: {
        referenceId: "controller",
        type: "company",
        details: { name: controller?.name ?? project.name, ...(controller?.email ? { email: controller.email } : {}), ...(controller?.address ? { address: controller.address } : {}) },
      },
    }),
  );
}

/** Creates the proposals not created yet, with `controller` (a party id, or `newControllerParty`); answers their names. */
export async function createProposedPurposes(project: Project, proposals: ProposedPurpose[], existing: Purpose[], controller: string): Promise<string[]> {
  const missing = proposals.filter((proposal) => !isCreated(proposal, existing));
  if (missing.length === 0) return [];
  const partyId = controller === newControllerParty ? (await controllerPartyOf(project)).partyId : controller;
  const created: string[] = [];
  for (const proposal of missing) {
    const text = descriptions[proposal.category];
    const purpose = await ok(
      api.POST("/privacy/v2/projects/{project_id}/configurations/purposes", {
        params: { path: { project_id: project.projectId } },
        body: {
          referenceId: proposal.category,
          name: proposal.name,
          legalGround: "consent",
          description: text ? [{ language: "en", text }] : [],
          controllers: [partyId],
          consentMode: proposal.consentModeTypes,
        },
      }),
    );
    created.push(purpose.name);
  }
  return created;
}

/** The dialog's content: the controller to name, and each proposal with its Consent Mode types. */
export function proposalFields(project: Project, proposals: ProposedPurpose[], existing: Purpose[], parties: Party[]) {
  return html`<div class="field">
      <label for="proposal-controller">Controller of the new purposes</label>
      <select id="proposal-controller" name="controller">
        ${parties.map((party) => html`<option value=${party.partyId}>${party.details.name}</option>`)}
        ${parties.some((party) => party.referenceId === "controller")
          ? nothing
          : html`<option value=${newControllerParty} ?selected=${parties.length === 0}>
              New party: ${project.controller?.name ?? project.name} (the project's controller)
            </option>`}
      </select>
    </div>
    <ul aria-label="Proposed purposes">
      ${proposals.map(
        (proposal) => html`<li>
          <strong class="inline">${proposal.name}</strong> (${categoryLabel(proposal.category)}, ${several(proposal.items, "item")})
          ${proposal.consentModeTypes.length ? html`: ${proposal.consentModeTypes.map((type) => html`<code>${type}</code> `)}` : nothing}
          ${isCreated(proposal, existing) ? html`<span class="badge green">exists</span>` : nothing}
        </li>`,
      )}
    </ul>`;
}
