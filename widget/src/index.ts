import { AssentConsent } from "./assent-consent";
import type { ConsentState } from "../../shared/browser/types";

export { AssentConsent };
export type { ConsentState } from "../../shared/browser/types";

type Listener = (detail: ConsentState) => void;

/** `window.assent`: for sites that would rather not hold the element. It speaks for the page's first widget. */
export type AssentGlobal = {
  /** Settles with the first state the widget knows (from this device or the service), or on its first error. */
  ready: Promise<ConsentState | undefined>;
  getConsent(): ConsentState | undefined;
  show(): void;
  on(type: "ready" | "change" | "error" | "dismiss", listener: Listener): () => void;
};

const element = () => document.querySelector("assent-consent");
const w = window as unknown as { assent?: AssentGlobal };
w.assent ??= {
  ready: new Promise((resolve) => {
    const settle = () => resolve(element()?.consent);
    document.addEventListener("assent-ready", settle, { once: true });
    document.addEventListener("assent-error", settle, { once: true });
  }),
  getConsent: () => element()?.consent,
  show: () => element()?.show(),
  on(type, listener) {
    const handler = (event: Event) => listener((event as CustomEvent).detail);
    document.addEventListener(`assent-${type}`, handler);
    return () => document.removeEventListener(`assent-${type}`, handler);
  },
};

// After window.assent: an element already in the page upgrades here, and a returning visitor's stored decision is
// announced at once (assent-ready), which `ready` must hear. A page that loads the script twice (or both builds)
// must not fail on the second definition.
if (!customElements.get("assent-consent")) customElements.define("assent-consent", AssentConsent);

declare global {
  interface HTMLElementTagNameMap {
    "assent-consent": AssentConsent;
  }
}
