/** The consent model on the page: what may be used, the switches, and the permission request they make. */
import type { Schemas } from "../../shared/api/operations";
import type { Purpose, RegimeName, StatePurpose, Status } from "../../shared/browser/types";

type Kind = "dataGroups" | "processors" | "recipients";
export const itemKinds: Kind[] = ["dataGroups", "processors", "recipients"];
type Item = { dataGroupId?: string; partyId?: string; referenceId: string };
export const idOf = (item: { dataGroupId?: string; partyId?: string }) => item.dataGroupId ?? item.partyId!;

/** The switches: key `purposeId` for a purpose, `purposeId kind itemId` for a data group or party. */
export type Choices = Record<string, boolean>;

export type PermissionRequest = Schemas["PermissionInput"]["request"];

/**
 * Whether a purpose may be used now: a consent-based purpose needs an approval under opt-in, and runs until
 * denied under opt-out or notice; purposes on other legal grounds may be used unless an objection was upheld. A
 * purpose the visitor's law sets apart is asked under its own `regime` (sensitive data in Virginia: opt-in).
 */
export function allowed(purpose: Purpose, saved: StatePurpose[], regime: RegimeName): boolean {
  const status = saved.find((s) => s.purposeId === purpose.purposeId)?.status;
  if (purpose.legalGround !== "consent") return status !== "denied";
  return status === "approved" || (!status && (purpose.regime ?? regime) !== "opt-in");
}

/** The switches as the saved state has them; unanswered ones show what is in effect (off under opt-in). */
export function choicesFrom(purposes: Purpose[], saved: StatePurpose[], regime: RegimeName): Choices {
  const choices: Choices = {};
  for (const purpose of purposes) {
    const entry = saved.find((s) => s.purposeId === purpose.purposeId);
    const fallback = allowed(purpose, saved, regime);
    choices[purpose.purposeId] = fallback;
    for (const kind of itemKinds) {
      for (const item of purpose[kind] as Item[]) {
        const grant = entry?.[kind].find((g) => idOf(g) === idOf(item));
        choices[`${purpose.purposeId} ${kind} ${idOf(item)}`] = grant ? grant.status === "approved" : fallback;
      }
    }
  }
  return choices;
}

/** Sets a purpose and everything under it; turning one item on turns its purpose on. */
export function toggle(choices: Choices, key: string, on: boolean): Choices {
  const next = { ...choices, [key]: on };
  const [purposeId, kind] = key.split(" ");
  if (!kind) for (const k of Object.keys(next)) if (k.startsWith(`${purposeId} `)) next[k] = on;
  if (kind && on) next[purposeId] = true;
  return next;
}

/**
 * The `request` of a permission request: every consent purpose with its version, items and statuses. One loop over
 * the item kinds, whose id field the kind names, is some 30 bytes smaller gzipped than spelling out each kind's
 * typed map; the price is that the API's type is asserted at the end rather than inferred.
 */
export function permissionRequest(purposes: Purpose[], choices: Choices) {
  const status = (key: string): Status => (choices[key] ? "approved" : "denied");
  return {
    purposes: purposes.map((p) => {
      const entry: Record<string, unknown> = { purposeId: p.purposeId, referenceId: p.referenceId, version: p.version, status: status(p.purposeId) };
      for (const kind of itemKinds) {
        entry[kind] = (p[kind] as Item[]).map((item) => ({
          [kind === "dataGroups" ? "dataGroupId" : "partyId"]: idOf(item),
          referenceId: item.referenceId,
          status: status(`${p.purposeId} ${kind} ${idOf(item)}`),
        }));
      }
      return entry;
    }),
  } as PermissionRequest;
}

/** ISO 8601 local time with milliseconds and the numeric offset, as the permission request wants it. */
export function localTimestamp(): string {
  const at = new Date();
  const offset = -at.getTimezoneOffset();
  const pad = (n: number) => String(n).padStart(2, "0");
  const local = new Date(at.getTime() + offset * 60_000).toISOString().slice(0, 23);
  return `${local}${offset < 0 ? "-" : "+"}${pad((Math.abs(offset) / 60) | 0)}:${pad(Math.abs(offset) % 60)}`;
}
