/** The shapes the widget reads from the API (see the OpenAPI document at /openapi.json). */

export type Translation = { language: string; text: string };
export type Status = "approved" | "denied";
export type Policies = { privacy?: string; terms?: string; cookie?: string };

export type Party = {
  partyId: string;
  referenceId: string;
  details: { name: string; description?: Translation[]; policies?: Policies };
};

export type DataGroup = { dataGroupId: string; referenceId: string; name: string; description?: Translation[] };

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

/** What `assent-change` and `assent-ready` carry, and what native bridges receive. */
export type ConsentState = {
  identityId: string;
  /** Per purpose referenceId: may it be used now (see `hasConsent`). */
  consents: Record<string, boolean>;
  purposes: StatePurpose[];
};
