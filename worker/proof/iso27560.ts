import { z } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { dataGroups, purposes, purposeVersions, type LegalGround, type PurposeContent } from "../configuration/table";
import { canonicalJson } from "../lib/canonical";
import { sha256Hex } from "../lib/crypto";
import type { Db } from "../lib/db";
import { parties } from "../parties/table";
import { projects } from "../projects/table";
import { requests, type Family, type RequestRow } from "../requests/table";
import { statuses, type Status } from "../requests/table";
import { logEntries, type LogPayload } from "./table";

const Statuses = z.enum(statuses);

/**
 * An identity's consent records in the structure of ISO/IEC TS 27560:2023 (header, processing, parties, events),
 * with W3C DPV IRIs for legal bases, party roles and consent states. One record per permission or objection.
 */
export const dpv = "https://w3id.org/dpv#";

const lawfulBasis: Record<LegalGround, string> = {
  consent: "dpv:Consent",
  contract: "dpv:Contract",
  legitimate_interests: "dpv:LegitimateInterest",
  legal_requirement: "dpv:LegalObligation",
};

const requested = "dpv:ConsentRequested";

/**
 * The families that are consent records: DPV's consent state per request status, and the decision a purpose entry
 * stands for when it names none (an objection is the subject refusing the processing).
 */
const consentFamilies: Partial<Record<Family, { states: Record<Status, string>; impliedDecision: string | null }>> = {
  permission: {
    states: { received: requested, in_progress: requested, completed: "dpv:ConsentGiven", rejected: "dpv:ConsentInvalidated", withdrawn: "dpv:ConsentWithdrawn" },
    impliedDecision: null,
  },
  objection: {
    states: { received: requested, in_progress: requested, completed: "dpv:ConsentRefused", rejected: "dpv:ConsentInvalidated", withdrawn: "dpv:ConsentWithdrawn" },
    impliedDecision: "denied",
  },
};

export const Iso27560Export = z
  .object({
    "@context": z.object({ dpv: z.string() }),
    schemaVersion: z.string(),
    piiPrincipalId: z.string(),
    records: z.array(z.record(z.string(), z.unknown())),
  })
  .openapi("Iso27560Export", { description: "ISO/IEC TS 27560:2023 consent records with DPV terms (docs/proof.md#standard-records-and-audit-export)." });

const Named = z.object({ purposes: z.array(z.looseObject({ purposeId: z.string(), version: z.string().optional(), status: z.string().optional() })).default([]) });

export async function iso27560Records(db: Db, projectId: string, identityId: string) {
  const rows = await db
    .select()
    .from(requests)
    .where(and(eq(requests.projectId, projectId), eq(requests.identityId, identityId)))
    .orderBy(requests.requestedAt, requests.id);
  const [projectRows, versionRows, partyRows, groupRows, logRows] = await db.batch([
    db.select().from(projects).where(eq(projects.id, projectId)),
    db
      .select({ purposeId: purposeVersions.purposeId, version: purposeVersions.version, content: purposeVersions.content })
      .from(purposeVersions)
      .innerJoin(purposes, eq(purposes.id, purposeVersions.purposeId))
      .where(eq(purposes.projectId, projectId)),
    db.select().from(parties).where(eq(parties.projectId, projectId)),
    db.select({ id: dataGroups.id, referenceId: dataGroups.referenceId, name: dataGroups.name }).from(dataGroups).where(eq(dataGroups.projectId, projectId)),
    db
      .select({ payload: logEntries.payload })
      .from(logEntries)
      .where(and(eq(logEntries.projectId, projectId), eq(logEntries.identityId, identityId)))
      .orderBy(logEntries.seq),
  ]);
  const history = new Map<string, LogPayload[]>();
  for (const { payload } of logRows) {
    if (payload && "kind" in payload && payload.requestId) history.set(payload.requestId, [...(history.get(payload.requestId) ?? []), payload]);
  }
  const project = projectRows[0];
  const versions = new Map<string, PurposeContent>(versionRows.map((v) => [`${v.purposeId}@${v.version}`, v.content]));
  const partyById = new Map(partyRows.map((p) => [p.id, p]));
  const groupById = new Map(groupRows.map((g) => [g.id, g]));
  const partyOf = (id: string, type: string) => {
    const party = partyById.get(id);
    return { id, name: party?.details.name ?? id, address: party?.details.address ?? null, contact: party?.details.email ?? party?.details.phone ?? null, type };
  };
  const records = await Promise.all(
    rows.map(async (row: RequestRow) => {
      const family = consentFamilies[row.family];
      if (!family) return [];
      const entries = Named.safeParse(row.request ?? {}).data?.purposes ?? [];
      const context = z.looseObject({ context: z.looseObject({ language: z.string().optional(), collectionMethod: z.string().optional() }).optional() }).safeParse(row.meta ?? {}).data?.context;
      const processing = await Promise.all(
        entries.map(async (entry) => {
          const version = entry.version ?? "1";
          const content = versions.get(`${entry.purposeId}@${version}`);
          return {
            purpose: { id: entry.purposeId, referenceId: content?.referenceId ?? null, name: content?.name ?? null, description: content?.description ?? [] },
            purposeVersion: version,
            privacyNotice: { url: project?.policies.privacy ?? null, contentSha256: content ? await sha256Hex(canonicalJson(content)) : null },
            language: context?.language ?? project?.defaultLanguage ?? null,
            lawfulBasis: content ? lawfulBasis[content.legalGround] : null,
            piiCategories: (content?.dataGroups ?? []).map((id) => ({ id, referenceId: groupById.get(id)?.referenceId ?? null, name: groupById.get(id)?.name ?? null })),
            piiControllers: (content?.controllers ?? []).map((id) => partyOf(id, "dpv:DataController")),
            processors: (content?.processors ?? []).map((id) => partyOf(id, "dpv:DataProcessor")),
            recipients: (content?.recipients ?? []).map((id) => partyOf(id, "dpv:Recipient")),
            jurisdiction: project?.jurisdiction ?? null,
            storageLocation: null,
            retention: null,
            withdrawalMethod: "Withdraw in the consent dialog, or ask the controller; recorded as a withdrawal of this request.",
            decision: entry.status ?? family.impliedDecision,
          };
        }),
      );
      const record = {
        schemaVersion: "ISO/IEC TS 27560:2023",
        recordId: row.id,
        piiPrincipalId: row.identityId,
        recordType: row.family,
        collectionMethod: context?.collectionMethod ?? null,
        processing,
        parties: [
          { id: projectId, name: project?.controller?.name ?? project?.name ?? projectId, address: project?.controller?.address ?? null, contact: project?.controller?.email ?? project?.controller?.phone ?? null, type: "dpv:DataController" },
        ],
        // The request's history as the log witnessed it: its creation, then each status change.
        events: (history.get(row.id) ?? []).map((entry, i) => ({
          time: i === 0 ? row.requested : entry.at,
          recorded: entry.at,
          validityDuration: null,
          entity: i === 0 ? "dpv:DataSubject" : "dpv:DataController",
          eventType: i === 0 ? row.family : "status_change",
          eventState: family.states[Statuses.parse(entry.status)],
        })),
        receipt: row.receipt ?? null,
      };
      return [record];
    }),
  );
  return { "@context": { dpv }, schemaVersion: "ISO/IEC TS 27560:2023", piiPrincipalId: identityId, records: records.flat() };
}
