import type { z } from "@hono/zod-openapi";
import type { ConfigurationDocument } from "../configuration/document";
import type { ConsentType } from "../consent-mode/settings";
import { permissionRules } from "../requests/families";
import { recordRequest, type Writer } from "../requests/record";
import type { PermissionState } from "../requests/schemas";
import type { Signals } from "../../shared/signals/signals";

/** Google's advertising consent types: a purpose standing for one of them is targeted advertising. */
const advertisingTypes = new Set<ConsentType>(["ad_storage", "ad_user_data", "ad_personalization"]);

/**
 * Purposes a signal asking for `opt-out-of-sale-or-sharing` (Global Privacy Control under an opt-out regime) opts out of: consent-based
 * purposes that disclose data to recipients (third parties) or stand for an advertising Consent Mode type.
 */
export const saleOrSharingPurposes = (configuration: ConfigurationDocument) =>
  configuration.purposes.filter(
    (p) => p.legalGround === "consent" && (p.recipients.length > 0 || p.consentMode.some((type) => advertisingTypes.has(type))),
  );

type State = z.infer<typeof PermissionState>;

/**
 * The sale/sharing purposes the visitor has not decided at their current version. A decision the visitor made
 * themselves (an opt-in after the GPC opt-out, say) stands: a signal fills in what is undecided, it does not overrule.
 */
export function undecidedUnderOptOut(configuration: ConfigurationDocument, state: State | null) {
  const decided = new Set((state?.purposes ?? []).map((entry) => `${entry.purposeId}:${entry.version}`));
  return saleOrSharingPurposes(configuration).filter((p) => !decided.has(`${p.purposeId}:${p.version}`));
}

/** Whether every sale/sharing purpose is denied in the state (so the opt-out is in effect). */
export const optOutInEffect = (configuration: ConfigurationDocument, state: State | null) =>
  saleOrSharingPurposes(configuration).every((p) =>
    state?.purposes.some((entry) => entry.purposeId === p.purposeId && entry.status === "denied"),
  );

/**
 * Records the opt-out as the visitor's own permission denying the purposes, with the signals that asked for it in
 * `meta.context.signals` (and `gpc: true` when GPC was one), through the one write path for privacy requests
 * (validation, state, receipt, log and events in one batch).
 */
export async function recordSignalOptOut(
  writer: Writer,
  identityId: string,
  purposes: ConfigurationDocument["purposes"],
  language: string,
  signals: Signals,
) {
  const collectionMethod = signals.gpc ? "global-privacy-control" : "browser-signal";
  const input = permissionRules.input.parse({
    identityId,
    requested: new Date().toISOString(),
    meta: { context: { collectionMethod, language, ...(signals.gpc ? { gpc: true } : {}) } },
    request: { purposes: purposes.map((p) => ({ purposeId: p.purposeId, version: p.version, status: "denied" as const })) },
  });
  return recordRequest(writer, permissionRules, input);
}
