/** The shapes the widget reads from the API (see the OpenAPI document at /openapi.json and BOOTSTRAP-CONTRACT). */

export type Translation = { language: string; text: string };
export type Status = "approved" | "denied";
export type Policies = { privacy?: string; terms?: string; cookie?: string };

export type Party = {
  partyId: string;
  referenceId: string;
  details: { name: string; description?: Translation[]; policies?: Policies };
};

export type DataGroup = { dataGroupId: string; referenceId: string; name: string; description?: Translation[] };

/** Google Consent Mode v2 consent types. */
export type ConsentType =
  | "ad_storage"
  | "ad_user_data"
  | "ad_personalization"
  | "analytics_storage"
  | "functionality_storage"
  | "personalization_storage"
  | "security_storage";

export type Purpose = {
  purposeId: string;
  referenceId: string;
  version: string;
  legalGround: "legal_requirement" | "contract" | "legitimate_interests" | "consent";
  name: string;
  description: Translation[];
  dataGroups: DataGroup[];
  controllers: Party[];
  processors: Party[];
  recipients: Party[];
  /** The Consent Mode types this purpose stands for (absent on servers before issue 13). */
  consentMode?: ConsentType[];
};

export type Configuration = {
  projectId: string;
  project: { name: string; controller?: { name: string } | null; policies?: Policies; defaultLanguage?: string };
  purposes: Purpose[];
};

type Grant = { status: Status; dataGroupId?: string; partyId?: string };

export type StatePurpose = {
  purposeId: string;
  referenceId: string;
  version: string;
  status: Status;
  requestType: string;
  dataGroups: Grant[];
  processors: Grant[];
  recipients: Grant[];
};

export type PermissionState = { identityId: string; purposes: StatePurpose[] };

export type RegimeName = "opt-in" | "opt-out" | "notice";

export type Regime = { name: RegimeName; country?: string | null; region?: string | null; gpc: boolean; gpcApplied: boolean };

/** Consent Mode settings of the project, as the bootstrap returns them. */
export type ConsentModeSettings = {
  enabled: boolean;
  waitForUpdate: number;
  urlPassthrough: boolean;
  adsDataRedaction: boolean;
  defaults: ({ region?: string[] } & Partial<Record<ConsentType, "granted" | "denied">>)[];
};

/** The one call before first paint (BOOTSTRAP-CONTRACT.md); `legacy` marks one assembled from the three old calls. */
export type Bootstrap = {
  regime: Regime;
  language: string;
  /** The project's own wording for `language`, by string key (every key for a language the widget does not ship). */
  strings?: Record<string, string>;
  configuration: Configuration;
  fingerprint: string;
  consentMode?: ConsentModeSettings;
  token?: { access_token: string; identityId: string; visitorKey: string };
  state: PermissionState | null;
  legacy?: boolean;
};

/** What `assent-ready` and `assent-change` carry, what `getConsent()` returns and native bridges receive. */
export type ConsentState = {
  identityId: string;
  /** Per purpose referenceId: may it be used now (see `hasConsent`). */
  consents: Record<string, boolean>;
  purposes: StatePurpose[];
  regime: RegimeName;
  /** The compact JWS the service signed for the last saved decision, when it sends one. */
  receipt?: string;
};
