/**
 * The blocker (docs/blocking.md#automatic-blocking): a classic script a site places first in `<head>`, served per
 * project by the Worker with the project's list inlined (`AssentBlocking.start({...})` follows this bundle). It holds
 * back what the list names until the widget says every purpose it maps to may be used, runs each listed vendor's
 * own consent call on every decision, and draws click-to-load placeholders for held embeds.
 */
import { ruleCovers } from "../../../shared/blocking/hosts";
import type { BlockingScriptConfig } from "../../../shared/blocking/script-config";
import { vendorById } from "../../../shared/vendors/catalogue";
import { storageKey } from "../../../shared/browser/storage-keys";
import { gtag, sendDefaultsFirst } from "../consent-mode";
import type { Decision } from "../store";
import type { VendorPage } from "../../../shared/vendors/types";
import { hold, type Held } from "./hold";
import { holdNetwork } from "./network";
import { placeholder } from "./placeholder";

/** The widget's decision kept on this device (widget/src/store.ts), read at once so nothing waits for the widget. */
function storedDecision({ api, project }: BlockingScriptConfig): Partial<Decision> {
  const key = `${storageKey(api, project)}:`;
  try {
    // A refusal taken while the service was down (`pending`) refuses everything, as the widget reads it.
    if (localStorage.getItem(key + "pending")) return {};
    return JSON.parse(localStorage.getItem(key + "decision") ?? "null") ?? {};
  } catch {
    return {};
  }
}

export function start(config: BlockingScriptConfig): void {
  const { entries, consentMode } = config;
  const stored = storedDecision(config);
  // Consent Mode before any tag: this script runs first in <head>, the widget (a module) only after the page's tags.
  if (consentMode) {
    sendDefaultsFirst(consentMode);
    if (Object.keys(stored.modes ?? {}).length) gtag("consent", "update", stored.modes);
  }
  if (entries.length === 0) return;
  let consents = stored.consents ?? {};
  const allowed = (purpose: string) => consents[purpose] === true;
  const entriesOf = (url: string) => {
    try {
      const parsed = new URL(url, document.baseURI);
      return entries.filter((entry) => ruleCovers(entry.host, parsed));
    } catch {
      return [];
    }
  };
  const purposesOf = (url: string) => [...new Set(entriesOf(url).map((entry) => entry.purpose))];
  const removers = new Map<Held["element"], () => void>();
  // Network calls only when the page asks for it on the blocker's own tag (this runs while that tag executes).
  const sendNetwork = document.currentScript?.hasAttribute("data-hold-network") ? holdNetwork(purposesOf, allowed) : undefined;

  const holder = hold(purposesOf, allowed, (held) => {
    if (!(held.element instanceof HTMLIFrameElement)) return;
    const vendor = entriesOf(held.url)
      .map((entry) => vendorById.get(entry.vendor ?? ""))
      .find((known) => known?.embed);
    if (!vendor) return;
    removers.set(
      held.element,
      placeholder(held.element, { key: vendor.embed!, values: { v: vendor.name, c: vendor.company } }, config.api, async () => {
        // The visitor's click is their consent to this embed's purposes: recorded through the widget when it is on
        // the page (which then releases everything else of those purposes too), and this embed loads either way.
        const widget = document.querySelector("assent-consent") as (Element & { allow?(purpose: string): Promise<boolean> }) | null;
        for (const purpose of held.purposes) await widget?.allow?.(purpose).catch(() => false);
        release(held);
      }),
    );
  });

  const release = (only?: Held) => {
    for (const element of holder.release(only)) {
      removers.get(element)?.();
      removers.delete(element);
    }
  };

  /** Each listed vendor's consent call, with whether all its purposes may be used; a call that throws stays here. */
  const vendorCalls = () => {
    for (const id of new Set(entries.map((entry) => entry.vendor))) {
      const vendor = vendorById.get(id ?? "");
      if (!vendor?.consent) continue;
      const granted = entries.filter((entry) => entry.vendor === id).every((entry) => allowed(entry.purpose));
      try {
        vendor.consent(granted, window as unknown as VendorPage);
      } catch (error) {
        console.error(`Assent: the consent call of ${vendor.name} failed`, error);
      }
    }
  };

  const decided = (event: Event) => {
    consents = (event as CustomEvent<{ consents: Record<string, boolean> }>).detail?.consents ?? {};
    vendorCalls();
    release();
    sendNetwork?.();
  };
  document.addEventListener("assent-ready", decided);
  document.addEventListener("assent-change", decided);
}
