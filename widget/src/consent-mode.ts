/**
 * Google Consent Mode v2. Commands go straight onto `window.dataLayer` as the gtag snippet puts them (an
 * `arguments` object), so the order holds whether gtag.js or GTM loads before or after the widget.
 */
import type { ConsentModeSettings, ConsentType, Purpose } from "../../shared/browser/types";

type Modes = Partial<Record<ConsentType, "granted" | "denied">>;

/**
 * Before the project's settings are known (a first visit to a page that says it uses Consent Mode with the
 * `consent-mode` attribute): everything but security denied, waiting for an update. A function, so that the blocker,
 * which shares this module, does not carry them.
 */
export const fallbackSettings = (): ConsentModeSettings => ({
  enabled: true,
  waitForUpdate: 500,
  urlPassthrough: false,
  adsDataRedaction: true,
  defaults: [
    {
      ad_storage: "denied",
      ad_user_data: "denied",
      ad_personalization: "denied",
      analytics_storage: "denied",
      functionality_storage: "denied",
      personalization_storage: "denied",
      security_storage: "granted",
    },
  ],
});

type Marked = unknown[] & { assent?: 1 };

const dataLayer = () => ((window as unknown as { dataLayer?: unknown[] }).dataLayer ||= []);

export function gtag(..._args: unknown[]) {
  // What the gtag snippet pushes: the arguments object itself (gtag.js ignores arrays).
  // eslint-disable-next-line prefer-rest-params
  dataLayer().push(arguments);
}

/** The defaults: redaction and passthrough first, then each (region-scoped) default with `wait_for_update`. */
export function setDefaults(settings: ConsentModeSettings): void {
  // Not after the blocker's (sendDefaultsFirst): the widget's would come after the page's tags.
  if (!settings.enabled || (dataLayer() as Marked).assent) return;
  if (settings.adsDataRedaction) gtag("set", "ads_data_redaction", true);
  if (settings.urlPassthrough) gtag("set", "url_passthrough", true);
  for (const entry of settings.defaults) gtag("consent", "default", { ...entry, wait_for_update: settings.waitForUpdate });
}

/**
 * The blocker's defaults, first in <head> before any tag: marked on the dataLayer, so the widget sends none of its own
 * (its fallback and the project's, which on a page without the blocker follow each other, test/e2e/widget-bootstrap).
 */
export function sendDefaultsFirst(settings: ConsentModeSettings): void {
  setDefaults(settings);
  if (settings.enabled) (dataLayer() as Marked).assent = 1;
}

/** Per consent type: granted when any purpose mapped to it may be used; types no purpose maps to are left alone. */
export function modesOf(purposes: Purpose[], allowed: (purpose: Purpose) => boolean): Modes {
  const modes: Modes = {};
  for (const purpose of purposes) {
    for (const type of purpose.consentMode ?? []) if (modes[type] !== "granted") modes[type] = allowed(purpose) ? "granted" : "denied";
  }
  return modes;
}

/**
 * The update for a decision, and the event GTM triggers on, when the project has Consent Mode on; with it off (a
 * site whose Tag Manager template sends the commands, integrations/gtm) the state's `consentMode` still carries them.
 */
export function update(modes: Modes, consents: Record<string, boolean>, settings?: ConsentModeSettings): void {
  if (!settings?.enabled) return;
  if (Object.keys(modes).length) gtag("consent", "update", modes);
  dataLayer().push({ event: "assent_consent_update", assent: { consents, consentMode: modes } });
}
