import type { Caller } from "../env";
import { badRequest } from "../lib/errors";
import { maxClockSkewMs, parseTimestamp } from "./timestamps";

/**
 * What the service takes on a caller's word, per kind of caller (docs/proof.md#what-the-server-witnesses).
 * Confidential (backend) clients may import history and run the request workflow; public clients (web, iOS,
 * Android: their secrets ship to devices) and identity-scoped tokens speak for a subject present right now. Who may
 * move statuses or export the audit trail is a matter of scopes (`requests:manage`, `audit:read`), checked per route.
 */
type WitnessRule = {
  /** How far `requested` may lie from the service's clock; undefined: any past time, flagged imported beyond the skew. */
  requestedWithinMs: number | undefined;
  /** Whether the body's initial status is honoured (else the family's default applies). */
  choosesStatus: boolean;
};

const witnessRules = {
  confidential: { requestedWithinMs: undefined, choosesStatus: true },
  public: { requestedWithinMs: maxClockSkewMs, choosesStatus: false },
} satisfies Record<string, WitnessRule>;

const kindOf = (caller: Caller): keyof typeof witnessRules =>
  caller.clientType === "backend" && !caller.identityId ? "confidential" : "public";

export const witnessRuleOf = (caller: Caller): WitnessRule => witnessRules[kindOf(caller)];

/** Checks `requested` against the caller's window; true when it is older history a backend imports. */
export function witnessRequested(rule: WitnessRule, requested: string, serverMs: number): boolean {
  const distance = serverMs - parseTimestamp(requested)!;
  if (rule.requestedWithinMs !== undefined && Math.abs(distance) > rule.requestedWithinMs) {
    throw badRequest("validation_failed", "The request has invalid fields; see `errors`.", [
      {
        path: "requested",
        message: `Must lie within ${rule.requestedWithinMs / 60_000} minutes of the service's clock for this client; only backend clients import older history.`,
        code: "requested_out_of_window",
      },
    ]);
  }
  return distance > maxClockSkewMs;
}

/**
 * `meta` as stored: `requestedBy` is always the authenticated client; a value the body gave is kept as
 * `requestedByClaim`. The browser signals the request came with are the service's own reading, in `context.signals`.
 */
export function witnessedMeta(
  caller: Caller,
  sent: { requestedBy?: string; context?: Record<string, unknown> } | undefined,
  imported: boolean,
  signals: Record<string, true> = {},
): Record<string, unknown> {
  const context = Object.keys(signals).length ? { ...sent?.context, signals } : sent?.context;
  return {
    requestedBy: caller.clientId,
    ...(sent?.requestedBy !== undefined ? { requestedByClaim: sent.requestedBy } : {}),
    ...(context ? { context } : {}),
    ...(imported ? { imported: true } : {}),
  };
}
