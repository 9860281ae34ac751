/**
 * The first layer: a non-modal banner along the bottom (a bottom sheet on phones) in the top layer (popover), so
 * no page z-index or transform can cover or move it and it shifts nothing on the page. Opt-in: the notice with
 * Accept all, Reject all and Customize, alike in every way. Opt-out and notice regimes: a compact notice with
 * "Your privacy choices" and OK.
 */
import { html, nothing } from "lit/html.js";
import { fill } from "./i18n";
import type { View } from "./view";

/** The first layer's text per regime. */
const notices = { "opt-in": "noticeOptIn", "opt-out": "noticeOptOut", notice: "noticeOnly" } as const;

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
  const optIn = view.regime === "opt-in";
  const notes = [
    view.gpcApplied ? t.gpcApplied : optIn && view.gpc ? t.gpc : "",
    view.pending ? t.offline : "",
  ].filter(Boolean);
  const unavailable = !config || view.busy;
  return frame(
    view,
    html`<h2 id="banner-title" class="title">${t.title}</h2>
      <p id="banner-text">${fill(t[notices[view.regime]], view.controller)}${view.links(config?.project.policies)}</p>
      ${notes.map((note) => html`<p class="note" part="notice">${note}</p>`)}
      ${view.failed
        ? html`<p class="note error" part="notice" role="alert">${t.serviceDown} <button class="link" @click=${view.retry}>${t.retry}</button></p>`
        : nothing}
      <div class="actions">
        ${optIn
          ? html`<button part="button reject" ?disabled=${view.busy || view.pending} @click=${view.rejectAll}>${t.rejectAll}</button>
              <button part="button customize" ?disabled=${unavailable} @click=${view.customize}>${t.customize}</button>
              <button part="button accept" ?disabled=${unavailable} @click=${view.acceptAll}>${t.acceptAll}</button>`
          : html`<button part="button customize" ?disabled=${unavailable} @click=${view.customize}>${t.title}</button>
              <button part="button accept" @click=${view.acknowledge}>${t.ok}</button>`}
      </div>`,
  );
}
