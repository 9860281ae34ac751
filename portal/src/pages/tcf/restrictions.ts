import { html, nothing } from "lit";
import { restrictionTypes, type Gvl, type RestrictionType, type TcfSettings } from "./model";

// Publisher restrictions (TCF Policies C(e); the TC string's "Publisher Restrictions"): the ones set, each with
// Remove, and a form adding one for vendors among the selected.

type Change = (edit: (s: TcfSettings) => Partial<TcfSettings>) => void;
type Card = { gvl: Gvl; settings: TcfSettings; readOnly: boolean; refused: unknown; change: Change };

function addRestriction(e: Event, change: Change) {
  const form = (e.target as HTMLElement).closest("fieldset")!;
  const value = (name: string) => form.querySelector<HTMLSelectElement>(`[name=${name}]`)!;
  const vendors = Array.from(value("restriction-vendors").selectedOptions, (o) => Number(o.value));
  if (!vendors.length) return;
  change((s) => ({
    publisherRestrictions: [...s.publisherRestrictions, { purpose: Number(value("restriction-purpose").value), type: value("restriction-type").value as RestrictionType, vendors }],
  }));
}

export function restrictionsCard({ gvl, settings: s, readOnly, refused, change }: Card) {
  const vendorName = (id: number) => gvl.vendors[id]?.name ?? `#${id}`;
  const purposeName = (id: number) => gvl.purposes[id]?.name ?? `#${id}`;
  return html`<section class="card" aria-labelledby="tcf-restrictions-title">
    <h3 id="tcf-restrictions-title">Publisher restrictions</h3>
    <p class="hint">
      How this site limits a vendor's purpose (TCF Policies C(e)): not at all, or only on consent, or only on legitimate interest
      (which purposes 1, 3, 4, 5 and 6 never allow).
    </p>
    ${refused}
    ${s.publisherRestrictions.length
      ? html`<ul class="tcf-restrictions">
          ${s.publisherRestrictions.map(
            (r, i) => html`<li>
              <span>Purpose ${r.purpose} (${purposeName(r.purpose)}): <strong>${restrictionTypes[r.type]}</strong> for ${r.vendors.map(vendorName).join(", ")}</span>
              <button type="button" class="button small quiet-danger" ?disabled=${readOnly} aria-label="Remove the restriction of purpose ${r.purpose}, ${restrictionTypes[r.type]}"
                @click=${() => change((v) => ({ publisherRestrictions: v.publisherRestrictions.filter((_, j) => j !== i) }))}>Remove</button>
            </li>`,
          )}
        </ul>`
      : html`<p class="muted">No restrictions.</p>`}
    <fieldset ?disabled=${readOnly || s.vendors.length === 0}>
      <legend>Add a restriction</legend>
      ${s.vendors.length === 0 ? html`<p class="small muted">Select vendors first.</p>` : nothing}
      <div class="field">
        <label for="tcf-restriction-purpose">Purpose</label>
        <select id="tcf-restriction-purpose" name="restriction-purpose">
          ${Object.values(gvl.purposes).map((p) => html`<option value=${p.id}>${p.id}. ${p.name}</option>`)}
        </select>
      </div>
      <div class="field">
        <label for="tcf-restriction-type">Restriction</label>
        <select id="tcf-restriction-type" name="restriction-type">
          ${Object.entries(restrictionTypes).map(([type, label]) => html`<option value=${type}>${label}</option>`)}
        </select>
      </div>
      <div class="field">
        <label for="tcf-restriction-vendors">Vendors (of the selected)</label>
        <select id="tcf-restriction-vendors" name="restriction-vendors" multiple size=${Math.min(6, Math.max(2, s.vendors.length))}>
          ${s.vendors.map((id) => html`<option value=${id}>${vendorName(id)} (${id})</option>`)}
        </select>
      </div>
      <button type="button" class="button" @click=${(e: Event) => addRestriction(e, change)}>Add the restriction</button>
    </fieldset>
  </section>`;
}
