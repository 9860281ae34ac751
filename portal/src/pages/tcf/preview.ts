import { html, nothing } from "lit";
import { several } from "../../ui";
import type { FirstLayer } from "../../../../shared/tcf/first-layer";

/**
 * What the widget's first layer says with these settings (computed as the widget does: shared/tcf/first-layer.ts) (TCF Policies, Appendix B, the first layer): the purposes, as stacks
 * where a stack says exactly some of them, the special features, the number of vendors and whether some rely on
 * legitimate interest. The widget's own words differ; the content is this.
 */
export const previewView = (p: FirstLayer) =>
  html`<section class="card" aria-labelledby="tcf-preview-title" id="tcf-preview">
    <h3 id="tcf-preview-title">Preview of the first layer</h3>
    <p data-preview="vendors">
      <strong>${several(p.vendorCount, "vendor")}</strong> (and this site) use the visitor's data for the purposes below${p.legitimateInterestPurposes.length
        ? html`; <strong data-preview="legitimate-interest">some rely on legitimate interest</strong>, to which the visitor may object`
        : nothing}. The dialog links to the list of vendors.
    </p>
    ${p.purposes.length === 0
      ? html`<p class="muted">No purposes yet: select vendors or publisher purposes.</p>`
      : html`<ul data-preview="purposes">
          ${p.stacks.map((s) => html`<li>${s.name} <span class="small muted">(stack ${s.id})</span></li>`)}
          ${p.loosePurposes.map((x) => html`<li>${x.name} <span class="small muted">(purpose ${x.id})</span></li>`)}
        </ul>`}
    ${p.specialFeatures.length
      ? html`<p>Special features, each with its own opt-in:</p>
          <ul data-preview="special-features">
            ${p.specialFeatures.map((f) => html`<li>${f.name}</li>`)}
          </ul>`
      : nothing}
  </section>`;
