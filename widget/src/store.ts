/**
 * What the browser keeps between page views, per API and project: the last decision (so a returning visitor's
 * page gates scripts and sets Consent Mode without waiting for the network), a decision taken while the API was
 * down (sent when it answers), and, for the browser session only, that the visitor dismissed the banner.
 */
import { storageKey } from "../../shared/browser/storage-keys";
import type { ConsentModeSettings, ConsentType, RegimeName } from "../../shared/browser/types";

export type Decision = {
  identityId: string;
  /** The configuration's version fingerprint the decision was taken against. */
  fingerprint: string;
  regime: RegimeName;
  consents: Record<string, boolean>;
  modes: Partial<Record<ConsentType, "granted" | "denied">>;
  consentMode?: ConsentModeSettings;
  /** The visitor closed the opt-out or notice banner. */
  acknowledged?: boolean;
};

/** A choice made while the API could not be reached: only "reject all" can be taken without the configuration. */
export type Pending = { status: "denied"; requested: string };

/** One value kept as JSON; storage that is blocked (private mode, sandbox) reads as nothing and keeps nothing. */
export type Slot<T> = { get(): T | undefined; set(value?: T): void };

function slot<T>(storage: () => Storage, key: string): Slot<T> {
  return {
    get() {
      try {
        return JSON.parse(storage().getItem(key) ?? "null") ?? undefined;
      } catch {
        return undefined;
      }
    },
    set(value) {
      try {
        if (value === undefined) storage().removeItem(key);
        else storage().setItem(key, JSON.stringify(value));
      } catch {
        // Blocked: the page simply asks the API again next time.
      }
    },
  };
}

export type ConsentStore = { decision: Slot<Decision>; pending: Slot<Pending>; dismissed: Slot<true> };

export function consentStore(api: string, project: string): ConsentStore {
  const key = `${storageKey(api, project)}:`;
  return {
    decision: slot(() => localStorage, key + "decision"),
    pending: slot(() => localStorage, key + "pending"),
    dismissed: slot(() => sessionStorage, key + "dismissed"),
  };
}
