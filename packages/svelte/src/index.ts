import { consentStore, type ConsentState } from "@assent/element";
import { derived, readable, type Readable } from "svelte/store";

export { default as AssentConsent } from "./AssentConsent.svelte";
export { showPreferences } from "@assent/element";
export type { AssentConsentProps, AssentHandlers, ConsentState, Failure, RegimeName, TokenProvider } from "@assent/element";
export type { AssentConsentComponentProps } from "./props.js";

/** The visitor's consent as the widget last told it; undefined until it knows (and on the server). */
export const assent: Readable<ConsentState | undefined> = readable<ConsentState | undefined>(undefined, (set) => {
  set(consentStore.get());
  return consentStore.subscribe(() => set(consentStore.get()));
});

/** Whether the purpose (its referenceId) may be used now, as a store (`$marketing`); undefined until the widget knows. */
export const consent = (purpose: string): Readable<boolean | undefined> => derived(assent, (state) => state?.consents[purpose]);
