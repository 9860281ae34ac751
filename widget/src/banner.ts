/**
 * The first layer: a non-modal banner along the bottom (a bottom sheet on phones) in the top layer (popover), so
 * no page z-index or transform can cover or move it and it shifts nothing on the page. Opt-in: the notice with
 * Accept all, Reject all and Customize, alike in every way. Opt-out and notice regimes: a compact notice with
 * "Your privacy choices" and OK.
 */
import { html, nothing } from "lit/html.js";
import { ACCEPT, CUSTOMIZE, DOWN, fill, GPC, GPC_APPLIED, NOTICE, OFFLINE, OK, regimes, REJECT, RETRY, TITLE } from "./i18n";
import type { View } from "./view";

const onEscape = (view: View) => (event: KeyboardEvent) => {
  if (event.key === "Escape") view.dismiss();
};

export const frame = (view: View, content: unknown) =>
  html`<div
    popover="manual"
    part="banner"
    class="banner"
    role="dialog"
    aria-labelledby="banner-title"
    aria-describedby="banner-text"
    tabindex="-1"
    lang=${view.language}
    dir=${view.dir}
    @keydown=${onEscape(view)}
  >
    <div class="inner">${content}</div>
  </div>`;

export function banner(view: View) {
  const { t, config } = view;
  const regime = regimes.indexOf(view.regime);
  const optIn = view.regime === "opt-in";
  const notes = [
    view.gpcApplied ? t[GPC_APPLIED] : optIn && view.gpc ? t[GPC] : "",
    view.pending ? t[OFFLINE] : "",
  ].filter(Boolean);
  const unavailable = !config || view.busy;
  return frame(
    view,
    html`<h2 id="banner-title" class="title">${t[TITLE]}</h2>
      <p id="banner-text">${fill(t[NOTICE + regime], view.controller)}${view.links(config?.project.policies)}</p>
      ${notes.map((note) => html`<p class="note" part="notice">${note}</p>`)}
      ${view.failed
        ? html`<p class="note error" part="notice" role="alert">${t[DOWN]} <button class="link" @click=${view.retry}>${t[RETRY]}</button></p>`
        : nothing}
      <div class="actions">
        ${optIn
          ? html`<button part="button reject" ?disabled=${view.busy || view.pending} @click=${view.rejectAll}>${t[REJECT]}</button>
              <button part="button customize" ?disabled=${unavailable} @click=${view.customize}>${t[CUSTOMIZE]}</button>
              <button part="button accept" ?disabled=${unavailable} @click=${view.acceptAll}>${t[ACCEPT]}</button>`
          : html`<button part="button customize" ?disabled=${unavailable} @click=${view.customize}>${t[TITLE]}</button>
              <button part="button accept" @click=${view.acknowledge}>${t[OK]}</button>`}
      </div>`,
  );
}
