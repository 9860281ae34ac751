export { consentStore, showPreferences } from "./follow.js";
export { mountAssentConsent, type MountedConsent } from "./mount.js";
export type {
  AssentConsentElement, AssentConsentProps, AssentHandlers, ConsentState, ConsentType, Failure, RegimeName, StatePurpose, Status, TokenProvider,
} from "./types.js";
