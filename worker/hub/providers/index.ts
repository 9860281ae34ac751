import { elks46 } from "./elks46";
import { gateway } from "./gateway";
import { sinch } from "./sinch";
import { twilio } from "./twilio";
import type { ProviderAdapter } from "./types";
import { vonage } from "./vonage";

/** The providers a route can use (`adapter` in `SMS_ROUTES`), one module each. */
export const adapters = {
  gateway,
  twilio,
  vonage,
  sinch,
  "46elks": elks46,
} as const satisfies Record<string, ProviderAdapter<any, any>>;

export type AdapterName = keyof typeof adapters;
export const adapterNames = Object.keys(adapters) as [AdapterName, ...AdapterName[]];
