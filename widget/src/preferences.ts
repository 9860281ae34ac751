/**
 * The second layer, loaded on demand: every purpose with its legal ground, description, data groups and parties,
 * a switch per consent purpose, data group, processor and recipient, and an objection for the other grounds.
 * A modal <dialog> (top layer, focus kept inside). Imports only constants and types: lit-html and the helpers
 * come with the View (see view.ts).
 */
import {
  ACCEPT, CLOSE, CONSENT, CONTROLLERS, DATA, DETAILS, DOWN, GPC, GPC_APPLIED, INTRO, OBJECT, OBJECTED, OFFLINE, PENDING,
  RECEIPT, REJECT, RETRY, SAVE, SAVED, TITLE,
} from "./i18n";
import type { Policies, Purpose, Translation } from "./types";
import type { View } from "./view";

export { preferenceStyles } from "./preferences-styles";

const legalGrounds = ["consent", "contract", "legitimate_interests", "legal_requirement"];

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
    html`<h2 id="banner-title" class="title">${t[SAVED]}</h2>
      <p id="banner-text">
        <a part="link receipt" download="assent-receipt.jws" href=${`data:application/jose;charset=utf-8,${encodeURIComponent(view.receipt!)}`}
          >${t[RECEIPT]}</a
        >
      </p>
      <div class="actions"><button part="button close" @click=${view.dismiss}>${t[CLOSE]}</button></div>`,
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
  const item = (purpose: Purpose, name: string, description?: Translation[], key?: string, policies?: Policies) =>
    html`<li class="item row">
      <div>${name}<small>${view.text(description)}${view.links(policies)}</small></div>
      ${key && purpose.legalGround === "consent" ? switchFor(`${purpose.purposeId} ${key}`, `${name}: ${purpose.name}`) : nothing}
    </li>`;

  const section = (heading: string, items: unknown[]) => (items.length ? html`<h4>${heading}</h4><ul>${items}</ul>` : nothing);

  const entry = (purpose: Purpose) => {
    const consent = purpose.legalGround === "consent";
    return html`<li class="purpose" part="purpose">
      <div class="row">
        <div>
          <h3>${purpose.name}</h3>
          <span class="tag">${t[CONSENT + legalGrounds.indexOf(purpose.legalGround)]}</span>
          ${consent && !view.answered(purpose) ? html`<span class="tag new">${t[PENDING]}</span>` : nothing}
        </div>
        ${consent
          ? switchFor(purpose.purposeId, purpose.name)
          : view.objected[purpose.purposeId]
            ? html`<span role="status">${t[OBJECTED]}</span>`
            : html`<button part="button object" aria-label="${t[OBJECT]}: ${purpose.name}" @click=${() => view.object(purpose)}>
                ${t[OBJECT]}
              </button>`}
      </div>
      <p class="desc">${view.text(purpose.description)}</p>
      <details part="details">
        <summary aria-label="${t[DETAILS]}: ${purpose.name}">${t[DETAILS]}</summary>
        ${section(
          t[DATA],
          purpose.dataGroups.map((g) => item(purpose, g.name, g.description, `dataGroups ${g.dataGroupId}`)),
        )}
        ${(["controllers", "processors", "recipients"] as const).map((kind, i) =>
          section(
            t[CONTROLLERS + i],
            purpose[kind].map(({ partyId, details }) =>
              item(purpose, details.name, details.description, kind === "controllers" ? "" : `${kind} ${partyId}`, details.policies),
            ),
          ),
        )}
      </details>
    </li>`;
  };

  const disabled = !view.config || view.busy;
  const note = view.gpcApplied ? t[GPC_APPLIED] : view.gpc && view.regime === "opt-in" ? t[GPC] : "";
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
      <h2 id="title" part="title">${t[TITLE]}</h2>
      <button class="x" part="close" aria-label=${t[CLOSE]} @click=${view.dismiss}>×</button>
    </div>
    <div class="body">
      <p id="intro">${view.fill(t[INTRO], view.controller)}${view.links(view.config?.project.policies)}</p>
      ${note ? html`<p class="note" part="notice">${note}</p>` : nothing}
      ${view.pending ? html`<p class="note" part="notice">${t[OFFLINE]}</p>` : nothing}
      ${view.failed
        ? html`<p class="note error" part="notice" role="alert">${t[DOWN]} <button class="link" @click=${view.retry}>${t[RETRY]}</button></p>`
        : nothing}
      <ul>
        ${view.config?.purposes.map(entry)}
      </ul>
    </div>
    <div class="foot" part="footer">
      <button part="button reject" ?disabled=${view.busy || view.pending} @click=${view.rejectAll}>${t[REJECT]}</button>
      <button part="button save" ?disabled=${disabled} @click=${view.save}>${t[SAVE]}</button>
      <button part="button accept" ?disabled=${disabled} @click=${view.acceptAll}>${t[ACCEPT]}</button>
    </div>
  </dialog>`;
}
