/**
 * The vendor list of the TCF dialog's second layer (TCF Policies, Appendix B, secondary layers;
 * docs/tcf.md#what-each-layer-shows-and-why), a chunk of its own fetched when the list is first opened: each vendor
 * with a consent toggle (where it asks consent) and a right-to-object toggle (where it rests a purpose on legitimate
 * interest), and in its details, rendered only once opened: its purposes per legal basis after the publisher's
 * restrictions with each one's retention, those the site does not allow, its special purposes, features and special
 * features, the categories of data it declares, its device storage (storage.ts), and its privacy policy and
 * legitimate-interest claim, all from the GVL in the dialog's language where IAB translated it. Below the vendors,
 * Google's Ad Tech Providers the project works with, each with its own consent toggle and privacy policy.
 */
import type { Vendor } from "@iabtechlabtcf/core";
import type { View } from "../view";
import { listedVendors, objectable } from "./decision";
import { switchFor, type AcProvider, type Dialog } from "./layers";
import { basesOf } from "./restrictions";
import { isWebUrl, storageEntry } from "./storage";

/** The vendor's policy links in the dialog's language, else English, else its first. */
const urlsOf = (vendor: Vendor, language: string) =>
  vendor.urls?.find((u) => u.langId === language) ?? vendor.urls?.find((u) => u.langId === "en") ?? vendor.urls?.[0];

function details(view: View, dialog: Dialog, vendor: Vendor) {
  const { list, words } = dialog;
  const { t, lit: { html, nothing } } = view;
  const retention = vendor.dataRetention;
  /** Names from one of the GVL's tables; for purposes, each with its retention in days (its own, else the vendor's standard). */
  const named = (ids: number[], table: Record<string, { name: string }> = {}, days?: Record<string, number>) =>
    ids.map((id) => {
      const kept = days && (days[id] ?? retention?.stdRetention);
      return html`<li>${table[id]?.name ?? `#${id}`}${kept === undefined ? nothing : ` (${view.fill(words.retention, String(kept))})`}</li>`;
    });
  const entry = (term: string, items: unknown[], more: unknown = nothing) =>
    items.length ? html`<dt>${term}</dt><dd><ul>${items}</ul>${more}</dd>` : nothing;
  const urls = urlsOf(vendor, view.language.toLowerCase());
  const bases = basesOf(vendor, list.settings.publisherRestrictions);
  return html`<dl>
      ${entry(t.consent, named(bases.consent, list.purposes, retention?.purposes))}
      ${entry(
        t.legitimateInterests,
        named(bases.legitimateInterest, list.purposes, retention?.purposes),
        isWebUrl(urls?.legIntClaim) ? html`<a part="link" href=${urls!.legIntClaim} target="_blank">${t.legitimateInterests}: ${vendor.name}</a>` : nothing,
      )}
      ${entry(words.features, [
        ...named(vendor.specialPurposes, list.specialPurposes, retention?.specialPurposes),
        ...named(vendor.features, list.features),
        ...named(vendor.specialFeatures, list.specialFeatures),
      ])}
      ${entry(words.notAllowed, named(bases.notAllowed, list.purposes))}
      ${entry(t.dataUsed, named(vendor.dataDeclaration ?? [], list.dataCategories))}
      ${storageEntry(view, dialog, vendor)}
    </dl>
    ${isWebUrl(urls?.privacy) ? html`<a part="link" href=${urls!.privacy} target="_blank">${t.privacyPolicy}: ${vendor.name}</a>` : nothing}`;
}

export function vendorList(view: View, dialog: Dialog) {
  const { t, lit: { html, nothing } } = view;
  const vendor = (v: Vendor) =>
    html`<li class="purpose" part="vendor">
      <div class="row">
        <h3>${v.name}</h3>
        <div class="switches">
          ${v.purposes.length || v.flexiblePurposes.length
            ? html`<span class="tag">${t.consent}</span>${switchFor(view, dialog, "vendors", v.id, `${t.consent}: ${v.name}`)}`
            : nothing}
          ${objectable(v, dialog.list.settings.publisherRestrictions)
            ? html`<span class="tag">${t.legitimateInterests}</span>${switchFor(view, dialog, "vendorObjections", v.id, `${t.legitimateInterests}: ${v.name}`)}`
            : nothing}
        </div>
      </div>
      <details part="details" @toggle=${(e: Event) => dialog.showVendor(v.id, (e.target as HTMLDetailsElement).open)}>
        <summary aria-label="${t.details}: ${v.name}">${t.details}</summary>
        ${dialog.openVendors.includes(v.id) ? details(view, dialog, v) : nothing}
      </details>
    </li>`;
  const provider = (p: AcProvider) =>
    html`<li class="purpose" part="ac-provider">
      <div class="row">
        <h4>${p.name}</h4>
        <div class="switches"><span class="tag">${t.consent}</span>${switchFor(view, dialog, "acProviders", p.id, `${t.consent}: ${p.name}`)}</div>
      </div>
      ${isWebUrl(p.policyUrl) ? html`<a part="link" href=${p.policyUrl} target="_blank">${t.privacyPolicy}: ${p.name}</a>` : nothing}
    </li>`;
  const providers = dialog.list.settings.acProviders.flatMap((id) => dialog.list.acProviders[id] ?? []);
  return html`<ul class="tcf-choices">
      ${listedVendors(dialog.list, dialog.list.settings.vendors).map(vendor)}
    </ul>
    ${providers.length
      ? html`<section part="ac-providers" aria-labelledby="tcf-ac">
          <h3 id="tcf-ac">${dialog.words.acProviders}</h3>
          <p class="desc">${dialog.words.acNote}</p>
          <ul class="tcf-choices">
            ${providers.map(provider)}
          </ul>
        </section>`
      : nothing}`;
}
