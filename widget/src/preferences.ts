/**
 * The second layer, loaded on demand: every purpose with its legal ground, description, data groups and parties,
 * a switch per consent purpose, data group, processor and recipient, an objection for the other grounds, and for a
 * purpose under an exemption from consent only the information that it needs none.
 * A modal <dialog> (top layer, focus kept inside). Imports only constants and types: lit-html and the helpers
 * come with the View (see view.ts).
 */
import type { StringKey } from "../../shared/i18n/strings";
import type { Policies, Purpose, Translation } from "../../shared/browser/types";
import type { View } from "./view";
import type { ConsentController } from "./controller";
import { toggle } from "./consent";

export { preferenceStyles } from "./preferences-styles";

/**
 * Approves one purpose and records only it (a click-to-load placeholder: the visitor asked for this one thing; the
 * others stay as they were, unanswered ones unanswered). False for a purpose the configuration does not have.
 */
export async function allow(flow: ConsentController, referenceId: string): Promise<boolean> {
  const purpose = flow.shown.config?.purposes.find((p) => p.referenceId === referenceId);
  return !!purpose && flow.save(toggle(flow.shown.choices, purpose.purposeId, true), [purpose]);
}

/** The GDPR's words for a purpose's legal ground (Art. 6(1)). */
const groundLabels: Record<Purpose["legalGround"], StringKey> = {
  consent: "consent",
  contract: "contract",
  legitimate_interests: "legitimateInterests",
  legal_requirement: "legalObligation",
};

/** The GDPR's word for each role a party plays in a purpose (Art. 4(7), (8), (9)), shown beside its name. */
const roleLabels = { controllers: "controller", processors: "processor", recipients: "recipient" } as const;

/** Keeps Tab inside the dialog (a modal dialog alone lets it reach the browser's own controls). */
function keepFocus(event: KeyboardEvent) {
  if (event.key !== "Tab") return;
  const dialog = event.currentTarget as HTMLDialogElement;
  const list = [...dialog.querySelectorAll<HTMLElement>("button,input,a[href],summary")].filter((e) => e.getClientRects().length > 0);
  const active = (dialog.getRootNode() as ShadowRoot).activeElement;
  const edge = event.shiftKey ? list[0] : list[list.length - 1];
  if (active === edge || !list.includes(active as HTMLElement)) {
    event.preventDefault();
    (event.shiftKey ? list[list.length - 1] : list[0])?.focus();
  }
}

/**
 * The decision was saved and the service signed a receipt for it: say so in the first layer's place, and offer the
 * receipt (only with receipts, so it comes with this chunk).
 */
export function savedNote(view: View) {
  const { t, lit: { html } } = view;
  return view.frame(
    html`<h2 id="banner-title" class="title">${t.saved}</h2>
      <p id="banner-text">
        <a part="link receipt" download="assent-receipt.jws" href=${`data:application/jose;charset=utf-8,${encodeURIComponent(view.receipt!)}`}
          >${t.downloadReceipt}</a
        >
      </p>
      <div class="actions"><button part="button close" @click=${view.dismiss}>${t.close}</button></div>`,
  );
}

export function preferences(view: View) {
  const { t, lit: { html, nothing } } = view;

  const switchFor = (key: string, label: string) =>
    html`<input
      type="checkbox"
      role="switch"
      part="switch"
      aria-label=${label}
      .checked=${!!view.choices[key]}
      @change=${(e: Event) => view.toggle(key, (e.target as HTMLInputElement).checked)}
    />`;

  /** A data group or party in a purpose's details; `key` (kind and id) gives it a switch on consent purposes. */
  const item = (purpose: Purpose, name: string, description?: Translation[], key?: string, policies?: Policies, role?: string) =>
    html`<li class="item row">
      <div>${name}${role ? html` <span class="tag">${role}</span>` : nothing}<small>${view.text(description)}${view.links(policies)}</small></div>
      ${key && purpose.legalGround === "consent" ? switchFor(`${purpose.purposeId} ${key}`, `${name}: ${purpose.name}`) : nothing}
    </li>`;

  const section = (heading: string, items: unknown[]) => (items.length ? html`<h4>${heading}</h4><ul>${items}</ul>` : nothing);

  /** Every party of the purpose, each tagged with its role; processors and recipients get a switch. */
  const parties = (purpose: Purpose) =>
    Object.entries(roleLabels).flatMap(([kind, role]) =>
      purpose[kind as keyof typeof roleLabels].map(({ partyId, details }) =>
        item(purpose, details.name, details.description, kind === "controllers" ? "" : `${kind} ${partyId}`, details.policies, t[role]),
      ),
    );

  const entry = (purpose: Purpose) => {
    const consent = purpose.legalGround === "consent";
    return html`<li class="purpose" part="purpose">
      <div class="row">
        <div>
          <h3>${purpose.name}</h3>
          <span class="tag">${t[groundLabels[purpose.legalGround]]}</span>
          ${consent && !view.answered(purpose) ? html`<span class="tag new">${t.new}</span>` : nothing}
          ${consent && purpose.sensitive && view.prescribed.includes("limitSensitive") ? html`<p part="limit-sensitive">${t.limitSensitive}</p>` : nothing}
        </div>
        ${consent
          ? switchFor(purpose.purposeId, purpose.name)
          : purpose.exemption
            ? html`<span class="tag" part="exempt">${t.exempt}</span>`
            : view.objected[purpose.purposeId]
            ? html`<span role="status">${t.objectionSent}</span>`
            : html`<button part="button object" aria-label="${t.object}: ${purpose.name}" @click=${() => view.object(purpose)}>
                ${t.object}
              </button>`}
      </div>
      <p class="desc">${view.text(purpose.description)}</p>
      <details part="details">
        <summary aria-label="${t.details}: ${purpose.name}">${t.details}</summary>
        ${section(
          t.dataUsed,
          purpose.dataGroups.map((g) => item(purpose, g.name, g.description, `dataGroups ${g.dataGroupId}`)),
        )}
        ${((list) => (list.length ? html`<ul>${list}</ul>` : nothing))(parties(purpose))}
      </details>
    </li>`;
  };

  const disabled = !view.config || view.busy;
  return html`<dialog
    part="dialog"
    aria-modal="true"
    aria-labelledby="title"
    aria-describedby="intro"
    lang=${view.language}
    dir=${view.dir}
    @cancel=${(event: Event) => {
      event.preventDefault();
      view.dismiss();
    }}
    @close=${(event: Event) => {
      // The close event is queued: a show() since then has opened the dialog again, and that stands.
      if (!(event.target as HTMLDialogElement).open) view.closePreferences();
    }}
    @keydown=${keepFocus}
  >
    <div class="head">
      <h2 id="title" part="title">${t.title}</h2>
      <button class="x" part="close" aria-label=${t.close} @click=${view.dismiss}>×</button>
    </div>
    <div class="body">
      <p id="intro">${view.fill(t.intro, view.controller)}${view.links(view.config?.project.policies)}</p>
      ${view.notices(view)}
      <ul>
        ${view.config?.purposes.map(entry)}
      </ul>
      ${view.section?.(view, "dialog")}
    </div>
    <div class="foot" part="footer">
      <button part="button reject" ?disabled=${view.busy || view.pending} @click=${view.rejectAll}>${t.rejectAll}</button>
      <button part="button save" ?disabled=${disabled} @click=${view.save}>${t.save}</button>
      <button part="button accept" ?disabled=${disabled} @click=${view.acceptAll}>${t.acceptAll}</button>
    </div>
  </dialog>`;
}
