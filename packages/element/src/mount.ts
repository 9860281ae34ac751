import type { AssentConsentElement, AssentConsentProps, AssentHandlers, TokenProvider } from "./types.js";

/** The settings that are attributes; `tokenProvider`, a function, is the one property. */
type Setting = Exclude<keyof AssentConsentProps, "tokenProvider">;

/**
 * Each setting's attribute (a boolean one is present or absent). `live` settings the element reads again when they
 * change (it observes `lang` and `open`, and reads the request context at every decision); the others it reads
 * once, when it is connected, so changing one of them replaces the element.
 */
const settings: Record<Setting, { attribute: string; live: boolean }> = {
  project: { attribute: "project", live: false },
  api: { attribute: "api", live: false },
  token: { attribute: "token", live: false },
  identityId: { attribute: "identity-id", live: false },
  regime: { attribute: "regime", live: false },
  consentMode: { attribute: "consent-mode", live: false },
  lang: { attribute: "lang", live: true },
  open: { attribute: "open", live: true },
  internalReference: { attribute: "internal-reference", live: true },
  application: { attribute: "application", live: true },
  collectionMethod: { attribute: "collection-method", live: true },
};

const events: Record<keyof AssentHandlers, string> = {
  onReady: "assent-ready",
  onChange: "assent-change",
  onError: "assent-error",
  onDismiss: "assent-dismiss",
};

function apply(element: AssentConsentElement, name: Setting, value: AssentConsentProps[Setting]) {
  const { attribute } = settings[name];
  if (typeof value === "boolean") element.toggleAttribute(attribute, value);
  else if (value === undefined) element.removeAttribute(attribute);
  else element.setAttribute(attribute, value);
}

export type MountedConsent = {
  /** The element now in the page (a new one after a setting it reads only once changed). */
  readonly element: AssentConsentElement;
  /** Brings the element in line with new settings. */
  update(props: AssentConsentProps): void;
  /** Takes the element out of the page. */
  unmount(): void;
};

type Wiring = { handlers: () => AssentHandlers; provide: TokenProvider; stop: AbortSignal };

/**
 * A new element with these settings, listening already (a returning visitor's `assent-ready` comes at connection)
 * until `stop` aborts: an element taken out of the page may still finish a request and fire.
 */
function create(props: AssentConsentProps, { handlers, provide, stop }: Wiring): AssentConsentElement {
  const element: AssentConsentElement = document.createElement("assent-consent");
  for (const name of Object.keys(settings) as Setting[]) if (props[name] !== undefined) apply(element, name, props[name]);
  if (props.tokenProvider) element.tokenProvider = provide;
  for (const [handler, type] of Object.entries(events) as [keyof AssentHandlers, string][]) {
    element.addEventListener(type, (event) => handlers()[handler]?.((event as CustomEvent).detail), { signal: stop });
  }
  return element;
}

/**
 * Puts an `<assent-consent>` with these settings into `host`. The element is made and set up before it enters the
 * page, since it reads most settings (and takes a `tokenProvider`, a property) when it is connected. `handlers` is
 * asked at each event and the element's token provider calls the latest `tokenProvider`, so a wrapper can hand
 * over new callbacks (a new closure at every render) without a new element.
 */
export function mountAssentConsent(host: Element, props: AssentConsentProps, handlers: () => AssentHandlers): MountedConsent {
  let current = props;
  let listening = new AbortController();
  const provide: TokenProvider = () => current.tokenProvider!();
  let element = create(props, { handlers, provide, stop: listening.signal });
  host.append(element);
  return {
    get element() {
      return element;
    },
    update(next) {
      const changed = (Object.keys(settings) as Setting[]).filter((name) => next[name] !== current[name]);
      const reconnect = !next.tokenProvider !== !current.tokenProvider || changed.some((name) => !settings[name].live);
      current = next;
      if (reconnect) {
        listening.abort();
        listening = new AbortController();
        const replacement = create(next, { handlers, provide, stop: listening.signal });
        element.replaceWith(replacement);
        element = replacement;
      } else {
        for (const name of changed) apply(element, name, next[name]);
      }
    },
    unmount() {
      listening.abort();
      element.remove();
    },
  };
}
