// A client module: Next.js and other React Server Components setups may import it from server components.
"use client";

import { consentStore, mountAssentConsent, type AssentConsentProps, type AssentHandlers, type ConsentState, type MountedConsent } from "@assent/element";
import { createElement, useLayoutEffect, useRef, useSyncExternalStore, type ReactElement } from "react";

export { showPreferences } from "@assent/element";
export type { AssentConsentProps, AssentHandlers, ConsentState, Failure, RegimeName, TokenProvider } from "@assent/element";

const serverState = () => undefined;

/**
 * `<assent-consent>` with these settings and callbacks. The element renders itself (banner and preferences in
 * the browser's top layer); this places it where the component is, in a `display: contents` span.
 */
export function AssentConsent({ onReady, onChange, onError, onDismiss, ...settings }: AssentConsentProps & AssentHandlers): ReactElement {
  const host = useRef<HTMLSpanElement>(null);
  const mounted = useRef<MountedConsent | null>(null);
  const handlers = useRef<AssentHandlers>({});
  useLayoutEffect(() => {
    handlers.current = { onReady, onChange, onError, onDismiss };
    mounted.current?.update(settings);
  });
  useLayoutEffect(() => {
    const consent = mountAssentConsent(host.current!, settings, () => handlers.current);
    mounted.current = consent;
    return () => {
      consent.unmount();
      mounted.current = null;
    };
    // Mounted once; the effect above hands it every later render's settings.
  }, []);
  return createElement("span", { ref: host, style: { display: "contents" } });
}

/** The visitor's consent, as the widget last told it; undefined until it knows (and on the server). */
export function useAssent(): ConsentState | undefined {
  return useSyncExternalStore(consentStore.subscribe, consentStore.get, serverState);
}

/** Whether the purpose (its referenceId) may be used now; undefined until the widget knows. */
export function useConsent(purpose: string): boolean | undefined {
  return useSyncExternalStore(consentStore.subscribe, () => consentStore.get()?.consents[purpose], serverState);
}
