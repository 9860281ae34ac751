import type { AssentConsentProps, AssentHandlers } from "@assent/element";

/** The component's props: the element's settings and its events as callbacks. */
export type AssentConsentComponentProps = AssentConsentProps & AssentHandlers;
