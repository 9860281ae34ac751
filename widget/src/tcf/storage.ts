/**
 * A vendor's device storage in its details (TCF Policies, Appendix B, secondary layers; the Tech Lab's *Device
 * Storage Access & Disclosure* spec): whether it uses cookies and their longest lifetime (`cookieMaxAgeSeconds`,
 * `cookieRefresh`), other means of storage or access (`usesNonCookieAccess`), and what the vendor's own disclosure
 * (`deviceStorageDisclosureUrl`, which the spec has vendors serve with `Access-Control-Allow-Origin: *`) lists. That
 * document is fetched from the page only once the visitor opens the vendor's details, without cookies or the page's
 * address, for at most `waitMs`; a failure, a timeout or a broken document leaves a note and the link.
 */
import type { Vendor } from "@iabtechlabtcf/core";
import type { View } from "../view";
import type { Dialog } from "./layers";

type Disclosure = { identifier: string; type: "cookie" | "web" | "app"; maxAgeSeconds?: number | null; cookieRefresh?: boolean; domain?: string; purposes?: number[] };

/** How long a vendor's disclosure may take before its link is shown instead: a slow vendor holds up nothing else. */
const waitMs = 8_000;
/** Per disclosure URL, for this page view: its items once read, "failed", or "asked" (no answer yet). */
const disclosures = new Map<string, Disclosure[] | "failed" | "asked">();

/** An address the dialog may fetch or link to: the web's, never `javascript:` or the like. */
export const isWebUrl = (url?: string): url is string => !!url && /^https?:\/\//.test(url);

const isDisclosure = (d: Disclosure) =>
  typeof d?.identifier === "string" &&
  ["cookie", "web", "app"].includes(d.type) &&
  (d.maxAgeSeconds == null || typeof d.maxAgeSeconds === "number") &&
  (d.domain === undefined || typeof d.domain === "string") &&
  (d.purposes === undefined || (Array.isArray(d.purposes) && d.purposes.every(Number.isInteger)));

function load(url: string, dialog: Dialog) {
  if (disclosures.has(url)) return;
  disclosures.set(url, "asked");
  fetch(url, { credentials: "omit", referrerPolicy: "no-referrer", signal: AbortSignal.timeout(waitMs) })
    .then((answer) => (answer.ok ? answer.json() : Promise.reject()))
    .then(({ disclosures: items }: { disclosures?: Disclosure[] }) => (Array.isArray(items) && items.every(isDisclosure) ? items : Promise.reject()))
    .then(
      (items) => disclosures.set(url, items),
      () => disclosures.set(url, "failed"),
    )
    .then(dialog.render);
}

/** The vendor's storage as a term of its details, starting the fetch of its disclosure. */
export function storageEntry(view: View, dialog: Dialog, vendor: Vendor) {
  const { html, nothing } = view.lit;
  const { words, list } = dialog;
  const lifetime = (seconds: number, refreshed?: boolean) =>
    (seconds > 0 ? view.fill(words.maxAge, String(Math.ceil(seconds / 86_400))) : words.session) + (refreshed ? `, ${words.refreshed}` : "");
  const url = vendor.deviceStorageDisclosureUrl;
  const web = isWebUrl(url);
  if (web) load(url, dialog);
  const state = web ? disclosures.get(url) : undefined;
  const item = (d: Disclosure) => {
    const about = [words[d.type === "cookie" ? "cookie" : d.type], d.domain, d.maxAgeSeconds == null ? "" : lifetime(d.maxAgeSeconds, d.cookieRefresh)];
    const purposes = (d.purposes ?? []).map((id) => list.purposes[id]?.name ?? `#${id}`).join(", ");
    return html`<li><code>${d.identifier}</code> (${about.filter(Boolean).join(", ")})${purposes ? `: ${purposes}` : nothing}</li>`;
  };
  return html`<dt>${words.storage}</dt>
    <dd>
      <ul>
        <li>${vendor.usesCookies ? view.fill(words.cookies, lifetime(vendor.cookieMaxAgeSeconds ?? 0, vendor.cookieRefresh)) : words.noCookies}</li>
        ${vendor.usesNonCookieAccess ? html`<li>${words.otherAccess}</li>` : nothing}
      </ul>
      ${web
        ? html`<div part="storage-disclosure" aria-live="polite" aria-busy=${state === "asked"}>
            ${Array.isArray(state) ? html`<ul>${state.map(item)}</ul>` : nothing} ${state === "failed" ? html`<p>${words.unavailable}</p>` : nothing}
            <a part="link" href=${url} target="_blank">${words.storage}: ${vendor.name}</a>
          </div>`
        : nothing}
    </dd>`;
}
