/**
 * The first layer: a non-modal banner along the bottom (a bottom sheet on phones) in the top layer (popover), so
 * no page z-index or transform can cover or move it and it shifts nothing on the page. Opt-in: the notice with
 * Accept all, Reject all and Customize, alike in every way. Opt-out and notice: a compact notice with "Your privacy
 * choices" and OK, which says "Do Not Sell or Share My Personal Information" where the visitor's law prescribes it.
 *
 * Banner tools (scanners, autoconsent, Consent-O-Matic) search with document.querySelectorAll, which does not see
 * into the shadow root. So each button's words are a light-DOM child of the element, `<span slot="reject">` (and
 * accept, customize), slotted into the button: that text names the button, a click on it is a click on the
 * button, and the element has a `banner` attribute while the first layer shows (docs/audits.md#banner-tools). Scanners
 * that pierce open shadow roots look for a class saying "consent" and "banner": the frame's `consent banner`.
 */
import { html } from "lit/html.js";
import { fill } from "./i18n";
import { notices, type View } from "./view";

/** The first layer's text per regime. */
const texts = { "opt-in": "noticeOptIn", "opt-out": "noticeOptOut", notice: "noticeOnly" } as const;

const onEscape = (view: View) => (event: KeyboardEvent) => {
  if (event.key === "Escape") view.dismiss();
};

export const frame = (view: View, content: unknown) =>
  html`<div
    popover=manual
    part=banner
    class="consent banner"
    role=dialog
    aria-labelledby=banner-title
    aria-describedby=banner-text
    tabindex=-1
    lang=${view.language}
    dir=${view.dir}
    @keydown=${onEscape(view)}
  >
    <div class="inner">${content}</div>
  </div>`;

/** The first layer's buttons: slot name, words, disabled, action. */
const controls = (view: View): [string, string, boolean, () => void][] => {
  const { t } = view;
  const unavailable = !view.config || view.busy;
  return view.regime === "opt-in"
    ? [
        ["reject", t.rejectAll, view.busy || view.pending, view.rejectAll],
        ["customize", t.customize, unavailable, view.customize],
        ["accept", t.acceptAll, unavailable, view.acceptAll],
      ]
    : [
        // Where the visitor's law prescribes its words (California under opt-out), the link to the choices says them.
        ["customize", view.prescribed.includes("doNotSell") ? t.doNotSell : t.title, unavailable, view.customize],
        ["accept", t.ok, false, view.acknowledge],
      ];
};

/** The buttons' words as light-DOM children of the element, one per slot. */
export const labels = (view: View) => controls(view).map(([name, words]) => html`<span slot=${name}>${words}</span>`);

export function banner(view: View) {
  const { t, config } = view;
  return frame(
    view,
    html`<h2 id="banner-title" class="title">${t.title}</h2>
      <p id="banner-text">${fill(t[texts[view.regime]], view.controller)}${view.links(config?.project.policies)}</p>
      ${notices(view)}${view.section?.(view, "banner")}
      <div class="actions" data-buttons=${view.buttons}>
        ${controls(view).map(
          ([name, words, disabled, action]) =>
            html`<button part="button ${name}" ?disabled=${disabled} @click=${action}><slot name=${name}>${words}</slot></button>`,
        )}
      </div>`,
  );
}
