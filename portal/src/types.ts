// Shapes of the API resources the portal shows (see /openapi.json).

// Stored shapes shared with the Worker (type-only: nothing of the Worker is bundled).
import type { PurposeContent } from "../../worker/configuration/table";
import type { ConsentModeSettings, ConsentType } from "../../worker/consent-mode/settings";
import type { JurisdictionRules, Regime } from "../../worker/jurisdictions/rules";
import type { PartyDetails } from "../../worker/parties/table";
import type { Controller, Policies, Translation } from "../../worker/projects/table";
export type { ConsentModeSettings, Controller, JurisdictionRules, PartyDetails, Policies, Regime, Translation };

export type Project = {
  projectId: string;
  name: string;
  controller: Controller | null;
  policies: Policies;
  jurisdiction: string | null;
  defaultLanguage: string;
  created: string;
  updated: string;
};

export const clientTypes = ["web", "ios", "android", "backend"] as const;
export type ClientType = (typeof clientTypes)[number];

export type Client = {
  clientId: string;
  projectId: string;
  name: string;
  type: ClientType;
  kind: "confidential" | "public";
  allowedOrigins: string[];
  /** What the client's tokens may do: an explicit narrowing of `availableScopes`, or all of them. */
  scopes: string[];
  explicitScopes: boolean;
  availableScopes: string[];
  created: string;
  updated: string;
};
export type ClientWithSecret = Client & { clientSecret: string };

export type Party = {
  partyId: string;
  referenceId: string;
  type: "individual" | "company";
  details: PartyDetails;
  created: string;
  updated: string;
};

export type DataGroup = {
  dataGroupId: string;
  referenceId: string;
  name: string;
  description: Translation[];
  created: string;
  updated: string;
};

export const legalGrounds = ["consent", "contract", "legitimate_interests", "legal_requirement"] as const;
export type LegalGround = (typeof legalGrounds)[number];
export const legalGroundLabels: Record<LegalGround, string> = {
  consent: "Consent (Art. 6(1)(a))",
  contract: "Contract (Art. 6(1)(b))",
  legal_requirement: "Legal obligation (Art. 6(1)(c))",
  legitimate_interests: "Legitimate interests (Art. 6(1)(f))",
};

/** Google Consent Mode v2 types, as the Worker validates them (the `satisfies` keeps the two lists in step). */
export const consentTypes = [
  "ad_storage",
  "ad_user_data",
  "ad_personalization",
  "analytics_storage",
  "functionality_storage",
  "personalization_storage",
  "security_storage",
] as const satisfies readonly ConsentType[];

export const regimes = ["opt-in", "opt-out", "notice"] as const satisfies readonly Regime[];

export type JurisdictionPreset = { name: string; title: string; description: string; rules: JurisdictionRules };

export type Purpose = PurposeContent & { purposeId: string; version: string; created: string; updated: string };

export const requestFamilies = ["erasures", "accesses", "objections"] as const;
export type RequestFamily = (typeof requestFamilies)[number];
export type RequestStatus = "received" | "in_progress" | "completed" | "rejected" | "withdrawn";

export type PrivacyRequest = {
  requestId: string;
  projectId: string;
  identityId: string;
  requested: string;
  status: RequestStatus;
  meta?: Record<string, unknown> | null;
  request?: Record<string, unknown> | null;
  created: string;
  updated: string;
};

export type Identity = {
  identityId: string;
  referenceId: string | null;
  aliases: { type: string; identifier: string }[];
  created: string;
  updated: string;
};

export type Overview = {
  projectId: string;
  from: string;
  to: string;
  identities: { total: number; daily: { day: string; created: number }[] };
  purposes: {
    purposeId: string;
    referenceId: string;
    name: string;
    version: string;
    current: { given: number; denied: number };
    daily: { day: string; given: number; denied: number }[];
  }[];
  requests: Record<"objection" | "erasure" | "access", Record<string, number>>;
};
