/**
 * The shapes the widget reads from the API: the generated OpenAPI types (shared/api/openapi.d.ts, `npm run
 * generate:api`), types only, so they cost the bundle nothing. Where the widget also talks to servers from before a
 * field existed (the bootstrap, Consent Mode), the field is optional here; BOOTSTRAP-CONTRACT describes the call.
 */
import type { Schemas } from "../api/operations";

/** `T` with the keys `K` optional: what servers from before those fields leave out. */
type Optional<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;

type Served = Schemas["Bootstrap"];

export type Translation = Schemas["Translation"];
export type Policies = Schemas["Policies"];
export type Party = Schemas["Party"];

/** The published configuration (`GET /privacy/v1/configurations`, and the bootstrap's `configuration`). */
export type Configuration = Omit<Schemas["Configuration"], "purposes"> & { purposes: Purpose[] };
/** A purpose as the configuration publishes it; `consentMode` and `exemption` are absent on servers from before them. */
export type Purpose = Optional<Schemas["Configuration"]["purposes"][number], "consentMode" | "exemption" | "sensitive">;
export type DataGroup = Purpose["dataGroups"][number];
/** The legal grounds of GDPR Art. 6(1) as the Worker names them (one list, in worker/configuration/table.ts). */
export type LegalGround = Purpose["legalGround"];
/** Google Consent Mode v2 consent types. */
export type ConsentType = NonNullable<Purpose["consentMode"]>[number];

export type PermissionState = Schemas["PermissionState"];
export type StatePurpose = PermissionState["purposes"][number];
export type Status = StatePurpose["status"];

/** The regime the bootstrap chose; the fallback for older servers knows no location. */
export type Regime = Optional<Served["regime"], "country" | "region" | "prescribed">;
export type RegimeName = Regime["name"];
/** Words the visitor's law prescribes, by their key in the strings (California's under opt-out). */
export type PrescribedLink = Served["regime"]["prescribed"][number];
/** How the first layer's buttons are drawn under the visitor's banner variant (absent: the widget's own, `primary`). */
export type ButtonStyle = NonNullable<Served["buttons"]>;

/** Consent Mode settings of the project, as the bootstrap returns them; a default may name any subset of types. */
export type ConsentModeSettings = Omit<Served["consentMode"], "defaults"> & { defaults: Partial<Schemas["ConsentModeDefault"]>[] };

/**
 * The one call before first paint; `legacy` marks one assembled from the three calls of older servers, which send
 * no `strings` (the widget then fetches its built language file).
 */
export type Bootstrap = Omit<Optional<Served, "consentMode" | "strings" | "askAgain" | "gppSections" | "gppMspa" | "features">, "regime" | "configuration" | "consentMode"> & {
  regime: Regime;
  configuration: Configuration;
  consentMode?: ConsentModeSettings;
  legacy?: boolean;
};

/** What `assent-ready` and `assent-change` carry, what `getConsent()` returns and native bridges receive. */
export type ConsentState = {
  identityId: string;
  /** Per purpose referenceId: may it be used now (see `hasConsent`). */
  consents: Record<string, boolean>;
  /**
   * Per Google Consent Mode type some purpose maps: granted when any purpose mapped to it may be used. What the
   * widget sends as `consent update` when the project has Consent Mode on, and what a Tag Manager template sends.
   */
  consentMode: Partial<Record<ConsentType, "granted" | "denied">>;
  purposes: StatePurpose[];
  regime: RegimeName;
  /** The compact JWS the service signed for the last saved decision, when it sends one. */
  receipt?: string;
};
