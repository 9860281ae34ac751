import type { z } from "@hono/zod-openapi";
import {
  objectionNames,
  permissionNames,
  prepareObjection,
  preparePermission,
  prepareScoped,
  scopedNames,
  type Lookup,
  type Names,
  type Prepared,
} from "./prepare";
import {
  AccessInput,
  AccessRecord,
  ErasureInput,
  ErasureRecord,
  ObjectionInput,
  ObjectionRecord,
  PermissionInput,
  PermissionRecord,
  PermissionStatusUpdate,
  StatusUpdate,
} from "./schemas";
import type { Family, Status } from "./table";

/** The four request families as data: what differs between them, typed per family, with no branches elsewhere. */

/** Moves allowed by PUT/DELETE, from each status. Permissions and objections can be withdrawn once completed. */
const lifecycle = (withdrawCompleted: boolean): Record<Status, Status[]> => ({
  received: ["in_progress", "completed", "rejected", "withdrawn"],
  in_progress: ["completed", "rejected", "withdrawn"],
  completed: withdrawCompleted ? ["withdrawn"] : [],
  rejected: [],
  withdrawn: [],
});

/** Per-family rules that do not depend on the body's type: all that reads and status moves need. */
export type FamilyTraits = {
  family: Family;
  /** Path segment of the family. */
  segment: "permissions" | "objections" | "erasures" | "accesses";
  idPrefix: string;
  title: string;
  record: z.ZodType;
  transitions: Record<Status, Status[]>;
  /** Completed requests shape the permission state; moving in or out of `completed` recomputes it. */
  shapesState: boolean;
  /** The request names a scope (what to erase or give access to) rather than decisions per purpose; receipts carry it. */
  requestIsScope: boolean;
  /** The status a new request starts in when the caller may not, or does not, choose one. */
  defaultStatus: Status;
  /** First sentences of the POST description. */
  recordText: string;
  /** From which statuses DELETE withdraws (documentation). */
  withdrawText: string;
  /** Paths besides `{segment}/{request_id}` that withdraw, relative to the project root. */
  extraWithdrawPaths: string[];
};

/** What every family's body has in common. */
export type CommonInput = { identityId: string; requested?: string; meta?: { requestedBy?: string; context?: Record<string, unknown> } };

export type FamilyRules<S extends z.ZodType<CommonInput>, U extends z.ZodType> = FamilyTraits & {
  input: S;
  /** The PUT body, and the status it asks for. */
  statusUpdate: U;
  statusOf: (update: z.output<U>) => Status;
  /** The initial status the body asks for, if any. */
  askedStatus: (input: z.output<S>) => Status | undefined;
  /** What of the configuration the body names (what `lookup` reads). */
  names: (input: z.output<S>) => Names;
  /** Validates the body against the configuration and fixes what the request is recorded as. */
  prepare: (found: Lookup, input: z.output<S>) => Prepared;
};

const withdrawCompleted = "Possible from `received`, `in_progress` and `completed`.";
const withdrawOpen = "Possible from `received` and `in_progress` (a completed erasure or access cannot be undone).";

export const permissionRules: FamilyRules<typeof PermissionInput, typeof PermissionStatusUpdate> = {
  family: "permission",
  segment: "permissions",
  idPrefix: "prm",
  title: "permission",
  record: PermissionRecord,
  transitions: lifecycle(true),
  shapesState: true,
  requestIsScope: false,
  defaultStatus: "completed",
  recordText:
    "Stores the subject's decision per purpose, data group and party. A `completed` permission (the default) " +
    "updates the permission state in the same atomic write: per purpose the latest `requested` wins (ties: " +
    "the later write).",
  withdrawText: withdrawCompleted,
  extraWithdrawPaths: [],
  input: PermissionInput,
  statusUpdate: PermissionStatusUpdate,
  statusOf: (update) => update.permissionStatus,
  askedStatus: (input) => input.permissionStatus,
  names: permissionNames,
  prepare: preparePermission,
};

export const objectionRules: FamilyRules<typeof ObjectionInput, typeof StatusUpdate> = {
  family: "objection",
  segment: "objections",
  idPrefix: "obj",
  title: "objection",
  record: ObjectionRecord,
  transitions: lifecycle(true),
  shapesState: true,
  requestIsScope: false,
  defaultStatus: "received",
  recordText:
    "Stores an objection (default status `received`). Once `completed` it denies every purpose it names in " +
    "the permission state (`requestType: objection`) unless a later `requested` permission overrides it.",
  withdrawText: withdrawCompleted,
  extraWithdrawPaths: [],
  input: ObjectionInput,
  statusUpdate: StatusUpdate,
  statusOf: (update) => update.status,
  askedStatus: (input) => input.status,
  names: objectionNames,
  prepare: prepareObjection,
};

const scopedText = (title: string) => `Stores a ${title} with status \`received\`; without \`request\` it covers all of the identity's data.`;

export const erasureRules: FamilyRules<typeof ErasureInput, typeof StatusUpdate> = {
  family: "erasure",
  segment: "erasures",
  idPrefix: "ers",
  title: "erasure request",
  record: ErasureRecord,
  transitions: lifecycle(false),
  shapesState: false,
  requestIsScope: true,
  defaultStatus: "received",
  recordText: scopedText("erasure request"),
  withdrawText: withdrawOpen,
  extraWithdrawPaths: [],
  input: ErasureInput,
  statusUpdate: StatusUpdate,
  statusOf: (update) => update.status,
  askedStatus: () => undefined,
  names: scopedNames,
  prepare: prepareScoped,
};

export const accessRules: FamilyRules<typeof AccessInput, typeof StatusUpdate> = {
  family: "access",
  segment: "accesses",
  idPrefix: "acc",
  title: "access request",
  record: AccessRecord,
  transitions: lifecycle(false),
  shapesState: false,
  requestIsScope: true,
  defaultStatus: "received",
  recordText: scopedText("access request"),
  withdrawText: withdrawOpen,
  // The path as published in the specification.
  extraWithdrawPaths: ["/v/{request_id}"],
  input: AccessInput,
  statusUpdate: StatusUpdate,
  statusOf: (update) => update.status,
  askedStatus: () => undefined,
  names: scopedNames,
  prepare: prepareScoped,
};
