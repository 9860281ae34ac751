import { AssentConsent } from "./assent-consent";

export { AssentConsent };
export type { ConsentState } from "./types";

// A page that loads the script twice (or both builds) must not fail on the second definition.
if (!customElements.get("assent-consent")) customElements.define("assent-consent", AssentConsent);

declare global {
  interface HTMLElementTagNameMap {
    "assent-consent": AssentConsent;
  }
}
