// Shapes of the API resources the portal shows: all from the generated OpenAPI types (shared/api/openapi.d.ts,
// `npm run generate:api`), so a change in the Worker's schemas is a type error here. The lists below that pages
// iterate over are keyed by those types, so they can neither miss nor invent a value.
import type { JsonAnswer, Schemas } from "../../shared/api/operations";

export type Project = Schemas["Project"];
export type Controller = NonNullable<Schemas["Controller"]>;
export type Policies = Schemas["Policies"];
export type Translation = Schemas["Translation"];
export type Client = Schemas["Client"];
export type ClientWithSecret = Schemas["ClientWithSecret"];
export type ClientType = Client["type"];
export type Party = Schemas["Party"];
export type PartyDetails = Schemas["PartyDetails"];
export type DataGroup = Schemas["DataGroup"];
export type Purpose = Schemas["Purpose"];
export type LegalGround = Purpose["legalGround"];
export type ConsentType = Purpose["consentMode"][number];
export type Identity = Schemas["Identity"];
export type Overview = Schemas["PortalOverview"];
export type AnalyticsReport = Schemas["AnalyticsReportAnswer"];
export type AnalyticsSettings = Schemas["AnalyticsSettings"];
export type JurisdictionRules = Schemas["JurisdictionRulesInput"];
export type Regime = JurisdictionRules["rest"];
export type JurisdictionPreset = JsonAnswer<"/admin/v1/jurisdiction-presets", "GET">["items"][number];
export type ConsentModeSettings = JsonAnswer<"/admin/v1/projects/{project_id}/consent-mode", "GET">;
export type PrivacyRequest = Schemas["ErasureRecord"] | Schemas["AccessRecord"] | Schemas["ObjectionRecord"];
export type RequestStatus = PrivacyRequest["status"];
/** Every value of a union, in the order the record lists them (the record's type makes the list complete). */
const valuesOf = <T extends string>(record: Record<T, unknown>) => Object.keys(record) as T[];

export const clientTypes = valuesOf<ClientType>({ web: 1, ios: 1, android: 1, backend: 1 });

export const legalGroundLabels: Record<LegalGround, string> = {
  consent: "Consent (Art. 6(1)(a))",
  contract: "Contract (Art. 6(1)(b))",
  legitimate_interests: "Legitimate interests (Art. 6(1)(f))",
  legal_requirement: "Legal obligation (Art. 6(1)(c))",
};
export const legalGrounds = valuesOf(legalGroundLabels);

/** Google Consent Mode v2 types, as the Worker validates them. */
export const consentTypes = valuesOf<ConsentType>({
  ad_storage: 1,
  ad_user_data: 1,
  ad_personalization: 1,
  analytics_storage: 1,
  functionality_storage: 1,
  personalization_storage: 1,
  security_storage: 1,
});

export const regimes = valuesOf<Regime>({ "opt-in": 1, "opt-out": 1, notice: 1 });

export const requestFamilies = ["erasures", "accesses", "objections"] as const;
export type RequestFamily = (typeof requestFamilies)[number];

export type Scan = Schemas["Scan"];
export type ScanWithReport = JsonAnswer<"/privacy/v2/projects/{project_id}/scans/{scan_id}", "GET">;
export type ScanReport = Schemas["ScanReport"];
export type ScanSchedule = Schemas["ScanSchedule"]["schedule"];
export type ScanCategory = Schemas["ScannedCookie"]["category"];
export type ProposedPurpose = Schemas["ProposedPurpose"];

/** The report's categories, non-essential first: the order the scanner page groups by. */
export const scanCategories = valuesOf<ScanCategory>({
  marketing: 1,
  analytics: 1,
  personalization: 1,
  functional: 1,
  unclassified: 1,
  necessary: 1,
  security: 1,
});

export const scanSchedules = valuesOf<ScanSchedule>({ off: 1, daily: 1, weekly: 1, monthly: 1 });

export type BlockingList = Schemas["BlockingList"];
export type BlockingEntry = Schemas["BlockingEntry"];
export type BlockingSource = BlockingEntry["source"];
export type Vendor = Schemas["Vendor"];
export type ThirdPartyHost = Schemas["ThirdPartyHost"];

export const blockingSourceLabels: Record<BlockingSource, string> = { scan: "Scan", catalogue: "Catalogue", manual: "By hand" };
