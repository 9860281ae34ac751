/**
 * The TCF dialog's layers, added to the widget's own (docs/tcf.md#what-each-layer-shows-and-why; TCF Policies,
 * Appendix B). In the first layer, below the project's notice: the number of vendors, that some rely on legitimate
 * interest and the visitor may object, the purposes (as the GVL's stacks, each with its description, where a stack
 * says exactly some of them) and special features in Appendix A's names, and a button opening the vendor list; the
 * first layer's Accept all, Reject all and Customize stay the widget's own, alike in every way. In the second layer,
 * below the project's purposes: each purpose with a consent toggle, its GVL illustrations behind a disclosure of their
 * own and, where it rests on legitimate interest, a right-to-object toggle, each special feature with an opt-in
 * toggle, and the vendor list, whose template is a chunk of its own (vendors.ts), fetched when the list is first
 * opened. Templates come from the View's lit-html, as in the preferences layer.
 */
import type { VendorList } from "@iabtechlabtcf/core";
import type { TcfStrings } from "../../../shared/i18n/tcf";
import type { FirstLayer } from "../../../shared/tcf/first-layer";
import type { View } from "../view";
import type { Toggles } from "./decision";
import type { Restriction } from "./restrictions";

/** One of Google's Ad Tech Providers the project works with, from the hosted ATP list. */
export type AcProvider = { id: number; name: string; policyUrl: string };

/** What the layers show and do: the project's vendor list, its first layer's content, the toggles and their actions. */
export type Dialog = {
  /** The project's vendor list, with its Ad Tech Providers that the ATP list has (`settings.acProviders` lists exactly those). */
  list: VendorList & { acProviders: Record<string, AcProvider>; settings: { vendors: number[]; publisherRestrictions: Restriction[]; acProviders: number[] } };
  layer: FirstLayer;
  /** The layers' own words in the widget's language (shared/i18n/tcf.ts); the rest are the widget's and the GVL's. */
  words: TcfStrings;
  toggles: Toggles;
  /** The vendor list is open (its template renders once loaded), and the vendors whose details are open. */
  vendorsOpen: boolean;
  vendorList?: (view: View, dialog: Dialog) => unknown;
  openVendors: number[];
  /** Renders the element again (a vendor's disclosure arrived). */
  render(): void;
  flip(key: keyof Toggles, id: number, on: boolean): void;
  /** Opens the vendor list; from the first layer, in the second layer with focus on it. */
  showVendors(open: boolean, focus?: boolean): void;
  showVendor(id: number, open: boolean): void;
};

/**
 * The layers' styles, adopted into the element's shadow root beside its own (a Content-Security-Policy without
 * 'unsafe-inline' allows a constructed stylesheet, not a <style> element).
 */
export const tcfStyles = `
  .tcf ul { margin: 0.25em 0; padding-inline-start: 1.25em; }
  .tcf-choices { list-style: none; padding: 0; }
  .switches { display: flex; align-items: center; gap: 0.5em; }
  .vendors > summary { font-weight: 600; margin-block: 0.75em; }
  .tcf dl { margin: 0.5em 0; }
  .tcf dt { font-weight: 600; margin-block-start: 0.5em; }
  .tcf dd { margin: 0; }
  .tcf small { display: block }
`;

/** A switch for one id of the toggles; `objection` switches are on while the visitor does not object. */
export function switchFor(view: View, dialog: Dialog, key: keyof Toggles, id: number, label: string) {
  const objection = key === "objections" || key === "vendorObjections";
  const listed = dialog.toggles[key].includes(id);
  return view.lit.html`<input
    type="checkbox"
    role="switch"
    part="switch"
    aria-label=${label}
    .checked=${objection ? !listed : listed}
    ?disabled=${view.busy}
    @change=${(e: Event) => {
      const checked = (e.target as HTMLInputElement).checked;
      dialog.flip(key, id, objection ? !checked : checked);
    }}
  />`;
}

/** The first layer's TCF part (Appendix B, the first layer). */
export function firstLayerPart(view: View, dialog: Dialog) {
  const { lit: { html, nothing } } = view;
  const { layer, words } = dialog;
  return html`<div class="tcf" part="tcf">
    <p>${view.fill(words.vendorCount, String(layer.vendorCount))} ${layer.legitimateInterestPurposes.length ? words.objectNote : nothing}</p>
    <ul part="tcf-purposes">
      ${layer.stacks.map((stack) => html`<li>${stack.name} <small>${dialog.list.stacks[stack.id]?.description}</small></li>`)}
      ${[...layer.loosePurposes, ...layer.specialFeatures].map((item) => html`<li>${item.name}</li>`)}
    </ul>
    <button class="link" part="link vendor-list" ?disabled=${!view.config || view.busy} @click=${() => {
      view.customize();
      dialog.showVendors(true, true);
    }}>
      ${words.vendorList} (${layer.vendorCount})
    </button>
  </div>`;
}

/** The second layer's TCF part (Appendix B, secondary layers): purposes, special features, the vendor list. */
export function secondLayerPart(view: View, dialog: Dialog) {
  const { t, lit: { html, nothing } } = view;
  const { list, layer } = dialog;
  const purpose = ({ id, name }: { id: number; name: string }) =>
    html`<li class="purpose" part="purpose tcf-purpose">
      <div class="row">
        <h3>${name}</h3>
        <div class="switches"><span class="tag">${t.consent}</span>${switchFor(view, dialog, "purposes", id, `${t.consent}: ${name}`)}</div>
      </div>
      <p class="desc">${list.purposes[id]?.description}</p>
      ${list.purposes[id]?.illustrations?.length
        ? html`<details part="illustrations">
            <summary aria-label="${dialog.words.examples}: ${name}">${dialog.words.examples}</summary>
            <ul>
              ${list.purposes[id]!.illustrations.map((text) => html`<li>${text}</li>`)}
            </ul>
          </details>`
        : nothing}
      ${layer.legitimateInterestPurposes.includes(id)
        ? html`<div class="row">
            <span class="tag">${t.legitimateInterests}</span>
            ${switchFor(view, dialog, "objections", id, `${t.legitimateInterests}: ${name}`)}
          </div>`
        : nothing}
    </li>`;
  const feature = ({ id, name }: { id: number; name: string }) =>
    html`<li class="purpose" part="purpose tcf-special-feature">
      <div class="row">
        <h3>${name}</h3>
        <div class="switches"><span class="tag">${t.consent}</span>${switchFor(view, dialog, "specialFeatures", id, `${t.consent}: ${name}`)}</div>
      </div>
      <p class="desc">${list.specialFeatures[id]?.description}</p>
    </li>`;
  return html`<div class="tcf" part="tcf">
    <ul class="tcf-choices">
      ${layer.purposes.map(purpose)} ${layer.specialFeatures.map(feature)}
    </ul>
    <details
      class="vendors"
      id="tcf-vendors"
      part="vendor-list"
      .open=${dialog.vendorsOpen}
      @toggle=${(e: Event) => dialog.showVendors((e.target as HTMLDetailsElement).open)}
    >
      <summary>${dialog.words.vendorList} (${layer.vendorCount})</summary>
      ${dialog.vendorsOpen && dialog.vendorList ? dialog.vendorList(view, dialog) : nothing}
    </details>
  </div>`;
}
