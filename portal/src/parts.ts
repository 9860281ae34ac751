// Markup that several pages share: page heads, tables, row actions, form fields and the portal's dialogs.
// Each is a plain template function, so pages keep their own state and these stay free of it.
import { html, nothing, type TemplateResult } from "lit";
import { closeDialog, copyToClipboard, problemView } from "./ui";

type Content = TemplateResult | string | typeof nothing;

/** A section page's title and what it is for, with its main action on the right. Top-level pages use `h1`. */
export function pageHead(title: string, about: Content, action: Content = nothing, { h1 = false } = {}) {
  return html`<div class="page-head">
    <div>
      ${h1 ? html`<h1>${title}</h1>` : html`<h2>${title}</h2>`}
      <p>${about}</p>
    </div>
    ${action}
  </div>`;
}

/** A column heading; `end` aligns numbers and row actions to the right. */
export type Column = string | { label: string; end?: boolean };

/**
 * A table that stacks into labelled rows on narrow screens (each cell carries `data-label`), with a caption
 * for assistive technology. `rows` are the `<tr>`s.
 */
export function dataTable(caption: Content, columns: Column[], rows: unknown) {
  return html`<table class="stack">
    <caption class="visually-hidden">${caption}</caption>
    <thead>
      <tr>
        ${columns.map((c) =>
          typeof c === "string" ? html`<th scope="col">${c}</th>` : html`<th scope="col" class=${c.end ? "end" : nothing}>${c.label}</th>`,
        )}
      </tr>
    </thead>
    <tbody>
      ${rows}
    </tbody>
  </table>`;
}

/** The heading of a table's last column, which holds `rowActions`. */
export const actionsColumn: Column = { label: "Actions", end: true };

/** A small button of a row or card. `name` is its accessible name, which says what it acts on. */
export type RowAction = { label: string; name: string; onClick: () => void; primary?: boolean; danger?: boolean; disabled?: boolean };

export function rowActions(...actions: RowAction[]) {
  return html`<div class="actions">
    ${actions.map(
      (a) => html`<button
        type="button"
        class="button small ${a.primary ? "primary" : a.danger ? "quiet-danger" : ""}"
        aria-label=${a.name}
        ?disabled=${a.disabled}
        @click=${a.onClick}
      >
        ${a.label}
      </button>`,
    )}
  </div>`;
}

/** The last cell of a row, under `actionsColumn`. */
export const actionsCell = (...actions: RowAction[]) => html`<td data-label="Actions" class="end">${rowActions(...actions)}</td>`;

/** Edit and Delete, the usual pair, named after the item (“Edit purpose Newsletter”). */
export const editAndDelete = (item: string, edit: () => void, remove: () => void) =>
  actionsCell({ label: "Edit", name: `Edit ${item}`, onClick: edit }, { label: "Delete", name: `Delete ${item}`, onClick: remove, danger: true });

export type FieldOptions = { type?: string; hint?: Content; required?: boolean; autofocus?: boolean; placeholder?: string };

/**
 * What a URL field accepts, as the API does: https, or http on this machine (local development). The browser
 * refuses anything else (javascript:, data:, plain http) before the form is sent.
 */
const webUrlPattern = String.raw`https://.+|http://(localhost|127\.0\.0\.1|\[::1\])([:/].*)?`;

/** A labelled one-line input; a hint is tied to it with aria-describedby. URL fields take https links only. */
export function textField(id: string, name: string, label: Content, value: string | null | undefined, opts: FieldOptions = {}) {
  const hintId = `${id}-hint`;
  return html`<div class="field">
    <label for=${id}>${label}</label>
    ${opts.hint ? html`<span class="hint" id=${hintId}>${opts.hint}</span>` : nothing}
    <input
      id=${id}
      name=${name}
      type=${opts.type ?? "text"}
      pattern=${opts.type === "url" ? webUrlPattern : nothing}
      title=${opts.type === "url" ? "An https:// link" : nothing}
      .value=${value ?? ""}
      placeholder=${opts.placeholder ?? nothing}
      ?required=${opts.required}
      ?autofocus=${opts.autofocus}
      aria-describedby=${opts.hint ? hintId : nothing}
      autocomplete="off"
    />
  </div>`;
}

/** A dialog's main action. Without `onClick` it submits the dialog's form. */
export type DialogAction = { label: string; danger?: boolean; disabled?: boolean; onClick?: () => void };

/**
 * Cancel, then the main action. In a confirmation (a button, not a form) Cancel takes the focus first, so
 * Enter never confirms by accident.
 */
export function dialogActions(root: HTMLElement, dialogId: string, action: DialogAction) {
  return html`<div class="actions end">
    <button type="button" class="button" ?autofocus=${action.onClick !== undefined} @click=${() => closeDialog(root, dialogId)}>Cancel</button>
    <button
      type=${action.onClick ? "button" : "submit"}
      class="button ${action.danger ? "danger" : "primary"}"
      ?disabled=${action.disabled}
      @click=${action.onClick ?? nothing}
    >
      ${action.label}
    </button>
  </div>`;
}

/** What a dialog says: its title, what went wrong last time (the API's problem), and its content. */
type DialogContent = { title: Content; error: unknown; errorHeading: string; body: unknown; action: DialogAction };

/** A modal form; its content is rendered only while `content` is set, and `onClose` clears that. */
export function formDialog(
  root: HTMLElement,
  id: string,
  content: (DialogContent & { onSubmit: (e: SubmitEvent) => void }) | null,
  onClose?: () => void,
) {
  return html`<dialog id=${id} aria-labelledby="${id}-title" @close=${onClose ?? nothing}>
    ${content
      ? html`<form @submit=${content.onSubmit} novalidate>
          <h2 id="${id}-title">${content.title}</h2>
          ${problemView(content.error, content.errorHeading)} ${content.body} ${dialogActions(root, id, content.action)}
        </form>`
      : nothing}
  </dialog>`;
}

/** A modal question before an action that cannot be taken back (or should not be taken by accident). */
export function confirmDialog(root: HTMLElement, id: string, content: (DialogContent & { action: Required<Pick<DialogAction, "onClick">> }) | null, onClose?: () => void) {
  return html`<dialog id=${id} aria-labelledby="${id}-title" @close=${onClose ?? nothing}>
    ${content
      ? html`<div class="dialog-body">
          <h2 id="${id}-title">${content.title}</h2>
          ${content.body} ${problemView(content.error, content.errorHeading)} ${dialogActions(root, id, content.action)}
        </div>`
      : nothing}
  </dialog>`;
}

/** A secret as the API returns it once: what to tell the operator about it, and facts that go with it. */
export type RevealedSecret = { title: string; note: Content; facts: [string, Content][]; label: string; secret: string; footnote?: Content };

/**
 * Shows a secret once, with a copy button. `onClose` must drop it from the page's state: once the operator
 * has closed the dialog the secret is never shown again.
 */
export function secretDialog(root: HTMLElement, id: string, shown: RevealedSecret | null, onClose: () => void) {
  return html`<dialog id=${id} aria-labelledby="${id}-title" @close=${onClose}>
    ${shown
      ? html`<div class="dialog-body">
          <h2 id="${id}-title">${shown.title}</h2>
          <div class="notice warning">
            <strong>Copy the secret now. It is shown only once.</strong>
            <p>${shown.note}</p>
          </div>
          <dl class="facts">
            ${shown.facts.map(([term, value]) => html`<dt>${term}</dt><dd>${value}</dd>`)}
          </dl>
          <div class="field" style="margin-top:1rem">
            <label for="${id}-value">${shown.label}</label>
            <div class="secret-box">
              <input id="${id}-value" type="text" readonly .value=${shown.secret} @focus=${(e: Event) => (e.target as HTMLInputElement).select()} />
              <button type="button" class="button" @click=${() => copyToClipboard(shown.secret, "Secret")}>Copy</button>
            </div>
          </div>
          ${shown.footnote ? html`<p class="small muted">${shown.footnote}</p>` : nothing}
          <div class="actions end">
            <button type="button" class="button primary" @click=${() => closeDialog(root, id)}>I have stored the secret</button>
          </div>
        </div>`
      : nothing}
  </dialog>`;
}
