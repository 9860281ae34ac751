import { html, LitElement, nothing, type TemplateResult } from "lit";
import { customElement, property, state } from "lit/decorators.js";
import { ApiProblem } from "./api";
import type { Translation } from "./types";

/**
 * Portal elements render into the light DOM: one stylesheet styles everything, native <dialog> and form
 * semantics work across components, and assistive technology and axe see one plain document.
 */
export class LightElement extends LitElement {
  protected override createRenderRoot() {
    return this;
  }
}

/**
 * A page whose dialogs act through the API: one busy flag (it disables their buttons while a call runs) and the
 * last action's problem, which the open dialog shows.
 */
export class ActionElement extends LightElement {
  @state() protected busy = false;
  @state() protected formError: unknown = null;

  /** Runs one API action; says whether it succeeded (its problem is in `formError` otherwise). */
  protected async run(action: () => Promise<void>): Promise<boolean> {
    this.busy = true;
    this.formError = null;
    try {
      await action();
      return true;
    } catch (error) {
      this.formError = error;
      return false;
    } finally {
      this.busy = false;
    }
  }

  /** Opens a dialog once the state it shows has rendered, without the last action's problem. */
  protected openDialog(id: string) {
    this.formError = null;
    void this.updateComplete.then(() => showDialog(this, id));
  }
}

export const toastEvent = "assent-toast";

/** A short confirmation, announced politely by the shell's live region. */
export function notify(message: string) {
  window.dispatchEvent(new CustomEvent(toastEvent, { detail: message }));
}

const fieldLabels: Record<string, string> = {
  referenceId: "Reference id",
  name: "Name",
  "controller.email": "Controller e-mail",
  "controller.name": "Controller name",
  "policies.privacy": "Privacy policy URL",
  "policies.terms": "Terms URL",
  "policies.cookie": "Cookie policy URL",
  controllers: "Controllers",
  defaultLanguage: "Default language",
  url: "Endpoint URL",
  events: "Events",
};

const labelOf = (path: string) => fieldLabels[path] ?? path.replace(/^details\./, "").replace(/\.(\d+)\./g, " $1 ");

/** An error as the operator should read it: the problem's detail, and each invalid field by name. */
export function problemView(error: unknown, heading = "That did not work"): TemplateResult | typeof nothing {
  if (!error) return nothing;
  const problem =
    error instanceof ApiProblem ? error : new ApiProblem(0, "client_error", "Error", (error as Error).message ?? String(error));
  if (problem.code === "precondition_failed") return changedMeanwhileView();
  return html`<div class="notice error" role="alert">
    <strong>${heading}</strong>
    <p>${problem.detail}${problem.status ? html` <span class="small">(${problem.code}, ${problem.status})</span>` : nothing}</p>
    ${problem.errors.length
      ? html`<ul>
          ${problem.errors.map((e) => html`<li><strong class="inline">${labelOf(e.path)}</strong>: ${e.message}</li>`)}
        </ul>`
      : nothing}
  </div>`;
}

/** A 412: another editor saved this record after it was opened here; nothing was written, and a reload shows theirs. */
const changedMeanwhileView = () =>
  html`<div class="notice error" role="alert">
    <strong>Someone else changed this record</strong>
    <p>It was changed after you opened it, so your changes were not saved and nothing was overwritten. Reload to see the current version, then make your change again.</p>
    <button type="button" class="button" @click=${() => location.reload()}>Reload</button>
  </div>`;

export const loadingView = (what: string) => html`<p class="muted" role="status">Loading ${what}…</p>`;

const dateFormat = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", year: "numeric" });
const dateTimeFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});
export const formatDate = (iso: string) => dateFormat.format(new Date(iso));
export const formatDateTime = (iso: string) => dateTimeFormat.format(new Date(iso));

/** Reads a form's fields; empty strings become undefined so optional API fields are left out. */
export function formValues(form: HTMLFormElement): Record<string, string | undefined> {
  const values: Record<string, string | undefined> = {};
  for (const [key, value] of new FormData(form)) {
    const text = String(value).trim();
    values[key] = text === "" ? undefined : text;
  }
  return values;
}

/** Drops undefined members, so strict API schemas see only what the operator filled in. */
export function compact<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

export function showDialog(root: ParentNode, id: string) {
  const dialog = root.querySelector<HTMLDialogElement>(`#${id}`);
  dialog?.showModal();
  dialog?.querySelector<HTMLElement>("[autofocus]")?.focus();
}

export function closeDialog(root: ParentNode, id: string) {
  root.querySelector<HTMLDialogElement>(`#${id}`)?.close();
}

export async function copyToClipboard(text: string, what: string) {
  try {
    await navigator.clipboard.writeText(text);
    notify(`${what} copied to the clipboard.`);
  } catch {
    notify(`Copying was refused by the browser; select the ${what.toLowerCase()} and copy it by hand.`);
  }
}

/**
 * Texts in several languages: one row per language, added and removed by the operator. `value` seeds the
 * rows; the rows are the editor's own state, so a parent re-render (which re-sets the same array) keeps edits.
 */
@customElement("ap-translations")
export class TranslationsEditor extends LightElement {
  /** At least one row (possibly empty): callers start it with the project's default language. */
  @property({ attribute: false }) value: Translation[] = [{ language: "en", text: "" }];
  @property() label = "Description";
  @property() hint = "";
  @property({ attribute: "field-id" }) fieldId = "desc";
  @state() private rows: Translation[] = [];

  protected override willUpdate(changed: Map<string, unknown>) {
    if (changed.has("value")) this.rows = this.value.map((t) => ({ ...t }));
  }

  private edit(index: number, patch: Partial<Translation>) {
    this.rows = this.rows.map((t, i) => (i === index ? { ...t, ...patch } : t));
  }

  /** Rows with both a language and a text; half-filled rows are left out. */
  get translations(): Translation[] {
    return this.rows
      .map((t) => ({ language: t.language.trim(), text: t.text.trim() }))
      .filter((t) => t.language && t.text);
  }

  protected override render() {
    const rows = this.rows;
    return html`<fieldset>
      <legend>${this.label}</legend>
      ${this.hint ? html`<p class="hint">${this.hint}</p>` : nothing}
      ${rows.map(
        (t, i) => html`<div class="translation-row">
          <div class="field">
            <label for="${this.fieldId}-lang-${i}">Language</label>
            <input
              type="text"
              id="${this.fieldId}-lang-${i}"
              .value=${t.language}
              placeholder="en"
              autocomplete="off"
              spellcheck="false"
              @input=${(e: Event) => this.edit(i, { language: (e.target as HTMLInputElement).value })}
            />
          </div>
          <div class="field">
            <label for="${this.fieldId}-text-${i}">Text (${t.language || "language"})</label>
            <textarea
              id="${this.fieldId}-text-${i}"
              .value=${t.text}
              rows="2"
              @input=${(e: Event) => this.edit(i, { text: (e.target as HTMLTextAreaElement).value })}
            ></textarea>
          </div>
          <button
            type="button"
            class="button small quiet-danger"
            aria-label="Remove the ${t.language || "empty"} text"
            ?disabled=${rows.length === 1}
            @click=${() => (this.rows = this.rows.filter((_, j) => j !== i))}
          >
            Remove
          </button>
        </div>`,
      )}
      <button
        type="button"
        class="button small"
        @click=${() => (this.rows = [...this.rows, { language: "", text: "" }])}
      >
        Add a language
      </button>
    </fieldset>`;
  }
}

/** "1 page", "3 pages": a count and its noun, plural unless the count is one. */
export const several = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;
