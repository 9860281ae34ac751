/**
 * What the `<assent-consent>` element takes and tells, as the widget (widget/src) defines it: test/packages checks
 * that these shapes and the widget's stay the same.
 */

export type RegimeName = "opt-in" | "opt-out" | "notice";

export type Status = "approved" | "denied";

/** One purpose of the identity's permission state, as the service answers it. */
export type StatePurpose = {
  purposeId: string;
  referenceId: string;
  version: string;
  status: Status;
  requestId: string;
  requestType: "permission" | "objection";
  requested: string;
  dataGroups: { dataGroupId: string; referenceId?: string; status: Status }[];
  processors: { partyId: string; referenceId?: string; status: Status }[];
  recipients: { partyId: string; referenceId?: string; status: Status }[];
};

/** Google Consent Mode v2 consent types. */
export type ConsentType =
  | "ad_storage"
  | "ad_user_data"
  | "ad_personalization"
  | "analytics_storage"
  | "functionality_storage"
  | "personalization_storage"
  | "security_storage";

/** What `assent-ready` and `assent-change` carry: may each purpose (by referenceId) be used now. */
export type ConsentState = {
  identityId: string;
  consents: Record<string, boolean>;
  /** Per Consent Mode type some purpose maps: granted when any purpose mapped to it may be used. */
  consentMode: Partial<Record<ConsentType, "granted" | "denied">>;
  purposes: StatePurpose[];
  regime: RegimeName;
  /** The compact JWS the service signed for the last saved decision, when it sends one. */
  receipt?: string;
};

/** What `assent-error` carries: an answer that was not a success, or none at all (status 0). */
export type Failure = { status: number; message: string };

/** Returns a fresh identity-scoped token; the widget calls it again when the current one is refused. */
export type TokenProvider = () => string | Promise<string>;

/** The element's settings (docs/widget.md, "Attributes and properties"). */
export type AssentConsentProps = {
  /** The project id. */
  project: string;
  /** Origin of Assent, no trailing slash; default: the origin the widget's script came from. */
  api?: string;
  /** An identity-scoped token minted by the site's backend. */
  token?: string;
  tokenProvider?: TokenProvider;
  identityId?: string;
  /** The visitor's language, before the page's `lang` and the browser's languages. */
  lang?: string;
  /** Forces the regime; the service honours it only in local development. */
  regime?: RegimeName;
  /** The page uses Google Consent Mode: all-denied defaults at once on a first visit. */
  consentMode?: boolean;
  /** Shows the preferences (second layer). */
  open?: boolean;
  internalReference?: string;
  application?: string;
  collectionMethod?: string;
};

/** The element's events as callbacks; each wrapper takes them under these names. */
export type AssentHandlers = {
  onReady?: (state: ConsentState) => void;
  onChange?: (state: ConsentState) => void;
  onError?: (failure: Failure) => void;
  /** Closed without a decision. */
  onDismiss?: (state: ConsentState) => void;
};

/** The element as the page sees it once the widget's script defined it. */
export type AssentConsentElement = HTMLElement & {
  tokenProvider?: TokenProvider;
  readonly consent?: ConsentState;
  show?(): void;
};
