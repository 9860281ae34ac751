import type { AssentConsentElement, ConsentState } from "./types.js";

/** The events after which the element's state may differ: a first state, a change, a failure. */
const stateEvents = ["assent-ready", "assent-change", "assent-error"];

let latest: ConsentState | undefined;
let following = false;
const listeners = new Set<() => void>();

const heard = (event: Event) => {
  latest = (event.target as AssentConsentElement).consent;
  for (const listener of listeners) listener();
};

/**
 * Starts listening on the document (once; the events bubble out of every element) and reads what an element
 * already knows: a returning visitor's decision is announced while the widget's script starts, maybe before this.
 */
function follow() {
  if (following || typeof document === "undefined") return;
  following = true;
  for (const type of stateEvents) document.addEventListener(type, heard);
  latest = document.querySelector<AssentConsentElement>("assent-consent")?.consent;
}

/**
 * The visitor's consent as the page's widget last told it, for framework bindings: `get` returns the same object
 * until the next event (as React's useSyncExternalStore needs), and undefined until the widget knows (or on the
 * server). `subscribe` returns its unsubscribe.
 */
export const consentStore = {
  get(): ConsentState | undefined {
    follow();
    return latest;
  },
  subscribe(listener: () => void): () => void {
    // On the server nothing will ever be told, and a long-lived process must not keep every render's listener.
    if (typeof document === "undefined") return () => {};
    follow();
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/** Shows the preferences of the page's first widget (for a "Privacy choices" link). */
export function showPreferences(): void {
  document.querySelector<AssentConsentElement>("assent-consent")?.show?.();
}
