import { z } from "@hono/zod-openapi";
import { VariantName } from "../analytics/schemas";
import { Exemption, uniqueIds } from "../configuration/schemas";
import { ReferenceId, Timestamp } from "../lib/schemas";
import { statuses } from "./table";
import { AcStringField, TcStringField } from "../tcf/strings";
import { RequestedTimestamp, SinceTimestamp } from "./timestamps";

/** Statuses a client may set (withdrawal is the DELETE). */
const settable = ["received", "in_progress", "completed", "rejected"] as const;

const Id = (example: string) => z.string().min(1).max(64).openapi({ example });
const Grant = z.enum(["approved", "denied"]);

/** Refuses two entries with the same `key` in one array (spec, Errors rule 4). */
const uniqueBy = <T extends z.ZodType<Record<string, unknown>>>(item: T, key: string, max: number) =>
  z.array(item).max(max).superRefine((entries, ctx) => {
    const seen = new Set<unknown>();
    entries.forEach((entry, index) => {
      if (seen.has(entry[key])) ctx.addIssue({ code: "custom", path: [index, key], message: `${String(entry[key])} is listed twice.` });
      seen.add(entry[key]);
    });
  });

/** A purpose that ran without consent when the request was made, at its version, and the exemption it ran under. */
export const RanExempt = z.strictObject({ purposeId: Id("pur_…"), version: z.string().max(10), ...Exemption.shape });
export type RanExempt = z.infer<typeof RanExempt>;
const StatedExemptions = RanExempt.array();

/** The purposes a request's `meta` (as sent, or as stored) says ran under an exemption. */
export function statedExemptions(meta: { context?: Record<string, unknown> } | null | undefined): RanExempt[] {
  const stated = meta?.context?.exemptions;
  return stated === undefined ? [] : (StatedExemptions.safeParse(stated).data ?? []);
}

export const Meta = z
  .strictObject({
    requestedBy: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .openapi({ description: "Stored as `requestedByClaim`: the record's `requestedBy` is always the authenticated client's id." }),
    context: z
      .strictObject({
        internalReference: z.string().max(4096).optional().openapi({ description: "Client text, e.g. a serialised JSON object." }),
        collectionMethod: z.string().max(200).optional().openapi({ example: "web-dialog" }),
        application: z.string().max(200).optional().openapi({ example: "shop-web" }),
        language: z
          .string()
          .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/, "A BCP 47 language tag.")
          .optional()
          .openapi({ example: "en" }),
        gpc: z.boolean().optional().openapi({ description: "Recorded because the browser sent Global Privacy Control (`Sec-GPC: 1`)." }),
        variant: VariantName.optional().openapi({ description: "The banner experiment's variant the decision was made under; the receipt names it (docs/analytics.md#fair-experiments)." }),
        exemptions: z
          .array(RanExempt)
          .max(100)
          .optional()
          .openapi({ description: "The purposes that ran without consent under an exemption when the decision was made, and under which (the widget sends those the bootstrap served as exempt)." }),
        // IAB TCF (docs/tcf.md#recorded-with-the-decision): checked, then kept in the record and the signed receipt.
        tcString: TcStringField.optional(),
        acString: AcStringField.optional(),
      })
      .optional(),
  })
  .openapi("RequestMeta");

const DataGroupGrant = z.strictObject({ dataGroupId: Id("dg_…"), referenceId: ReferenceId.optional(), status: Grant });
const PartyGrant = z.strictObject({ partyId: Id("pty_…"), referenceId: ReferenceId.optional(), status: Grant });

const PermissionPurpose = z.strictObject({
  purposeId: Id("pur_…"),
  referenceId: ReferenceId.optional().openapi({ description: "If given, must be the purpose's referenceId." }),
  version: z
    .string()
    .regex(/^[1-9][0-9]{0,8}$/, "A version such as 1 or 2.")
    .optional()
    .openapi({ description: "The version shown to the subject; defaults to the current one. An older version is accepted and recorded, but is outdated at once." }),
  status: Grant.openapi({ description: "A denied purpose denies all its data groups and parties." }),
  dataGroups: uniqueBy(DataGroupGrant, "dataGroupId", 200).default([]),
  processors: uniqueBy(PartyGrant, "partyId", 200).default([]),
  recipients: uniqueBy(PartyGrant, "partyId", 200).default([]),
});

const common = {
  identityId: Id("idn_…").openapi({ description: "An identity of this project." }),
  meta: Meta.optional(),
};

export const PermissionInput = z
  .strictObject({
    ...common,
    requested: RequestedTimestamp,
    request: z.strictObject({ purposes: uniqueBy(PermissionPurpose, "purposeId", 100).min(1) }),
    permissionStatus: z.enum(settable).optional().openapi({ description: "Initial status; default `completed`. Only a completed permission counts in the permission state." }),
  })
  .openapi("PermissionInput");

export const ObjectionInput = z
  .strictObject({
    ...common,
    requested: RequestedTimestamp,
    request: z.strictObject({
      purposes: uniqueBy(
        z.strictObject({
          purposeId: Id("pur_…"),
          dataGroups: uniqueIds(Id("dg_…"), "Data group").optional().openapi({ description: "Narrows what the subject objects to (recorded as sent)." }),
        }),
        "purposeId",
        100,
      ).min(1),
    }),
    status: z.enum(settable).optional().openapi({ description: "Initial status; default `received`." }),
  })
  .openapi("ObjectionInput");

const Scope = {
  purposes: uniqueIds(Id("pur_…"), "Purpose").optional(),
  dataGroups: uniqueIds(Id("dg_…"), "Data group").optional(),
};

export const ErasureInput = z
  .strictObject({
    ...common,
    requested: RequestedTimestamp.optional().openapi({ description: "Defaults to the time the service received it." }),
    request: z.strictObject(Scope).optional().openapi({ description: "What to erase; without it, all of the identity's data (GDPR Art. 17)." }),
  })
  .openapi("ErasureInput");

export const AccessInput = z
  .strictObject({
    ...common,
    requested: RequestedTimestamp.optional().openapi({ description: "Defaults to the time the service received it." }),
    request: z
      .strictObject({ ...Scope, format: z.enum(["json", "csv"]).optional().openapi({ description: "Export format (Art. 20 portability: machine-readable)." }) })
      .optional()
      .openapi({ description: "What to give access to; without it, all of the identity's data (GDPR Art. 15)." }),
  })
  .openapi("AccessInput");

const recordFields = {
  requestId: z.string(),
  projectId: z.string(),
  identityId: z.string(),
  requested: z.string().openapi({ description: "As sent, with its offset." }),
  meta: z.record(z.string(), z.unknown()),
  created: Timestamp,
  updated: Timestamp,
  receipt: z.string().optional().openapi({
    description:
      "The signed receipt of the latest write (creation or status change): a compact JWS (ES256, `typ` assent-receipt+jwt) " +
      "verifiable with `/.well-known/jwks.json`. Absent when the service runs with receipts off.",
  }),
};

export const PermissionRecord = z
  .object({ ...recordFields, request: z.record(z.string(), z.unknown()), permissionStatus: z.enum(statuses) })
  .openapi("PermissionRecord", { description: "A stored permission request: the payload as recorded (purpose versions and referenceIds filled in), never changed afterwards." });

const otherRecord = (name: string) =>
  z
    .object({ ...recordFields, request: z.record(z.string(), z.unknown()).nullable(), status: z.enum(statuses) })
    .openapi(name, { description: "A stored request; the payload never changes, only `status` does. `request: null` covers all of the identity's data." });

export const ObjectionRecord = otherRecord("ObjectionRecord");
export const ErasureRecord = otherRecord("ErasureRecord");
export const AccessRecord = otherRecord("AccessRecord");

export const PermissionStatusUpdate = z.strictObject({ permissionStatus: z.enum(settable) }).openapi("PermissionStatusUpdate");
export const StatusUpdate = z.strictObject({ status: z.enum(settable) }).openapi("RequestStatusUpdate");

export const ListQuery = z.object({
  status: z.enum(statuses).optional(),
  identityId: z.string().max(64).optional(),
  updatedSince: SinceTimestamp.optional().openapi({
    description: "Only requests updated at or after this instant, oldest update first: for resynchronising after missed webhooks.",
  }),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(500).optional().openapi({ description: "The `nextCursor` of the previous page, as given." }),
});

const Entry = <T extends z.ZodRawShape>(shape: T) => z.object({ ...shape, referenceId: z.string().optional(), status: Grant });

export const StatePurpose = z.object({
  purposeId: z.string(),
  referenceId: z.string(),
  version: z.string(),
  status: Grant,
  requestId: z.string(),
  requestType: z.enum(["permission", "objection"]),
  requested: z.string(),
  dataGroups: z.array(Entry({ dataGroupId: z.string() })),
  processors: z.array(Entry({ partyId: z.string() })),
  recipients: z.array(Entry({ partyId: z.string() })),
});

export const PermissionState = z
  .object({
    projectId: z.string(),
    identityId: z.string(),
    updated: Timestamp.nullable().openapi({ description: "Last change of any entry; null before the first." }),
    purposes: z.array(StatePurpose),
  })
  .openapi("PermissionState");
