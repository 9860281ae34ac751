/**
 * What the browser keeps between page views, per API and project: the last decision (so a returning visitor's
 * page gates scripts and sets Consent Mode without waiting for the network), a decision taken while the API was
 * down (sent when it answers), and, for the browser session only, that the visitor dismissed the banner.
 */
import type { ConsentModeSettings, ConsentType, RegimeName } from "./types";

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

function read<T>(storage: () => Storage, key: string): T | undefined {
  try {
    return JSON.parse(storage().getItem(key) ?? "null") ?? undefined;
  } catch {
    return undefined;
  }
}

function write(storage: () => Storage, key: string, value: unknown) {
  try {
    if (value === undefined) storage().removeItem(key);
    else storage().setItem(key, JSON.stringify(value));
  } catch {
    // Storage blocked: the page simply asks the API again next time.
  }
}

const local = () => localStorage;
const session = () => sessionStorage;

export class ConsentStore {
  #key: string;

  constructor(api: string, project: string) {
    this.#key = `assent:${api}:${project}:`;
  }

  get decision(): Decision | undefined {
    return read(local, this.#key + "decision");
  }

  set decision(value: Decision | undefined) {
    write(local, this.#key + "decision", value);
  }

  get pending(): Pending | undefined {
    return read(local, this.#key + "pending");
  }

  set pending(value: Pending | undefined) {
    write(local, this.#key + "pending", value);
  }

  get dismissed(): boolean {
    return !!read(session, this.#key + "dismissed");
  }

  set dismissed(value: boolean) {
    write(session, this.#key + "dismissed", value || undefined);
  }
}
