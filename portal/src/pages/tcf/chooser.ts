import { html, nothing } from "lit";
import { repeat } from "lit/directives/repeat.js";
import { several } from "../../ui";
import { matches } from "./model";

/** The GVL holds about a thousand vendors: a search shows this many matches at once, so typing stays quick. */
export const shownAtOnce = 50;

type Item = { id: number; name: string };

export type Chooser<T extends Item> = {
  /** Element ids start with it; the search's label says what is chosen. */
  id: string;
  noun: string;
  items: T[];
  selected: number[];
  query: string;
  onlySelected: boolean;
  readOnly: boolean;
  onQuery: (query: string) => void;
  onOnlySelected: (on: boolean) => void;
  onToggle: (id: number, on: boolean) => void;
  /** A line under the name (what the vendor declares, the provider's policy). */
  detail: (item: T) => unknown;
};

/** A searchable checkbox list (by name or id) with the number selected: the GVL's vendors, Google's ATP providers. */
export function chooser<T extends Item>(c: Chooser<T>) {
  const selected = new Set(c.selected);
  const found = c.items.filter((item) => (!c.onlySelected || selected.has(item.id)) && matches(item, c.query));
  const shown = found.slice(0, shownAtOnce);
  return html`<div class="tcf-chooser">
    <p class="small" id="${c.id}-count" role="status">${several(selected.size, c.noun)} selected of ${c.items.length}.</p>
    <div class="field">
      <label for="${c.id}-search">Search ${c.noun}s by name or id</label>
      <input id="${c.id}-search" type="search" autocomplete="off" .value=${c.query} @input=${(e: Event) => c.onQuery((e.target as HTMLInputElement).value)} />
    </div>
    <label class="choice"
      ><input type="checkbox" .checked=${c.onlySelected} @change=${(e: Event) => c.onOnlySelected((e.target as HTMLInputElement).checked)} /> Only the
      selected</label
    >
    <fieldset class="tcf-options" ?disabled=${c.readOnly}>
      <legend class="visually-hidden">${c.noun}s</legend>
      ${repeat(
        shown,
        (item) => item.id,
        (item) => html`<label class="choice" data-id=${item.id}
          ><input type="checkbox" .checked=${selected.has(item.id)} @change=${(e: Event) => c.onToggle(item.id, (e.target as HTMLInputElement).checked)} />
          <span>${item.name} <span class="muted">(${item.id})</span><br /><span class="small muted">${c.detail(item)}</span></span></label
        >`,
      )}
    </fieldset>
    ${found.length > shown.length
      ? html`<p class="small muted">Showing ${shown.length} of ${found.length} matches: search to narrow them.</p>`
      : found.length === 0
        ? html`<p class="small muted">No ${c.noun} matches.</p>`
        : nothing}
  </div>`;
}
