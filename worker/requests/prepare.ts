import type { z } from "@hono/zod-openapi";
import { and, eq, or, sql } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { livePurpose, unknownReferences } from "../configuration/queries";
import { dataGroups, purposes, purposeVersions, type PurposeContent } from "../configuration/table";
import { identities } from "../identities/table";
import { inJsonArray, type Db } from "../lib/db";
import { badRequest, type FieldError } from "../lib/errors";
import { parties } from "../parties/table";
import { latestReceiptHash } from "../proof/log";
import { projects } from "../projects/table";
import type { AccessInput, ErasureInput, ObjectionInput, PermissionInput, RanExempt } from "./schemas";
import type { DataGroupGrant, PartyGrant } from "./table";

/**
 * Validating a request body against the project's configuration and fixing what it is recorded as (versions,
 * referenceIds, what each purpose contributes to the permission state). The configuration comes from `lookup` (one
 * read round trip) or from the isolate's copy of an earlier one (worker/requests/write-guard.ts), which the write then
 * guards: validation itself reads nothing.
 */
/** What a request says about one purpose, fixed when it is stored (see `requestPurposes`). */
export type Contribution = {
  purposeId: string;
  status: "approved" | "denied";
  version: string;
  dataGroups: DataGroupGrant[];
  processors: PartyGrant[];
  recipients: PartyGrant[];
};

export type Prepared = { request: Record<string, unknown> | null; contributions: Contribution[] };

/** What of the configuration a request body names: all `lookup` reads. */
export type Names = { purposeIds: string[]; dataGroupIds: string[] };

/**
 * Rows whose id some version of the named purposes lists under one of `fields`: a request can only name data groups
 * and parties of its purposes, so nothing else of the project's configuration is read.
 */
const namedBy = (purposeIdsJson: string, column: SQLiteColumn, fields: string[]) =>
  sql`${column} IN (SELECT item.value FROM ${purposeVersions} pv, json_each(pv.content, ${`$.${fields[0]}`}) item
    WHERE pv.purpose_id IN (SELECT value FROM json_each(${purposeIdsJson}))
    ${fields.length > 1 ? sql`UNION SELECT item.value FROM ${purposeVersions} pv, json_each(pv.content, ${`$.${fields[1]}`}) item
    WHERE pv.purpose_id IN (SELECT value FROM json_each(${purposeIdsJson}))` : sql``})`;

/**
 * The project's configuration as far as a request body can name it, with what a receipt needs (the project's
 * controller and jurisdiction, the identity's latest receipt hash); one round trip.
 */
export async function lookup(db: Db, projectId: string, identityId: string, { purposeIds, dataGroupIds }: Names) {
  const named = JSON.stringify(purposeIds);
  const [identityRows, purposeRows, versionRows, groupRows, partyRows, projectRows, receiptRows] = await db.batch([
    db
      .select({ id: identities.id })
      .from(identities)
      .where(and(eq(identities.projectId, projectId), eq(identities.id, identityId)))
      .limit(1),
    db
      .select({ id: purposes.id, version: purposes.version, content: purposes.content })
      .from(purposes)
      .where(livePurpose(projectId, inJsonArray(purposes.id, purposeIds))),
    db
      .select({ purposeId: purposeVersions.purposeId, version: purposeVersions.version, content: purposeVersions.content })
      .from(purposeVersions)
      .innerJoin(purposes, eq(purposes.id, purposeVersions.purposeId))
      .where(and(eq(purposes.projectId, projectId), inJsonArray(purposeVersions.purposeId, purposeIds))),
    db
      .select({ id: dataGroups.id, referenceId: dataGroups.referenceId })
      .from(dataGroups)
      .where(
        and(
          eq(dataGroups.projectId, projectId),
          or(namedBy(named, dataGroups.id, ["dataGroups"]), inJsonArray(dataGroups.id, dataGroupIds)),
        ),
      ),
    db
      .select({ id: parties.id, referenceId: parties.referenceId })
      .from(parties)
      .where(and(eq(parties.projectId, projectId), namedBy(named, parties.id, ["processors", "recipients"]))),
    db
      .select({
        controller: projects.controller,
        jurisdiction: projects.jurisdiction,
        defaultLanguage: projects.defaultLanguage,
        configVersion: projects.configVersion,
      })
      .from(projects)
      .where(eq(projects.id, projectId)),
    latestReceiptHash(db, projectId, identityId),
  ]);
  return {
    identityExists: identityRows.length > 0,
    project: projectRows[0],
    /** The project's `config_version` when this was read: any change to what is cached here bumps it (triggers). */
    configVersion: projectRows[0]?.configVersion ?? -1,
    previousReceiptHash: receiptRows[0]?.hash ?? null,
    purposes: new Map(purposeRows.map((p) => [p.id, p])),
    versions: new Map(versionRows.map((v) => [`${v.purposeId}@${v.version}`, v.content])),
    dataGroupRefs: new Map(groupRows.map((g) => [g.id, g.referenceId])),
    partyRefs: new Map(partyRows.map((p) => [p.id, p.referenceId])),
  };
}

export type Lookup = Awaited<ReturnType<typeof lookup>>;

class Problems {
  readonly errors: FieldError[] = [];
  add(path: string, message: string) {
    this.errors.push({ path, message, code: "unknown_reference" });
  }
  throwIfAny() {
    if (this.errors.length) throw unknownReferences(this.errors);
  }
}

function requireIdentity(found: Lookup, problems: Problems, identityId: string) {
  if (!found.identityExists) problems.add("identityId", `No identity ${identityId} in this project.`);
}

/** Everything a purpose version names, denied: a denied purpose denies all its data groups and parties. */
function deniedAll(found: Lookup, content: PurposeContent) {
  const parties = (ids: string[]) => ids.map((partyId) => ({ partyId, referenceId: found.partyRefs.get(partyId), status: "denied" as const }));
  return {
    dataGroups: content.dataGroups.map((dataGroupId) => ({ dataGroupId, referenceId: found.dataGroupRefs.get(dataGroupId), status: "denied" as const })),
    processors: parties(content.processors),
    recipients: parties(content.recipients),
  };
}

const namedPurposes = (input: { request: { purposes: { purposeId: string }[] } }): Names => ({
  purposeIds: input.request.purposes.map((p) => p.purposeId),
  dataGroupIds: [],
});
export const permissionNames = (input: z.infer<typeof PermissionInput>) => namedPurposes(input);
export const objectionNames = (input: z.infer<typeof ObjectionInput>) => namedPurposes(input);
export const scopedNames = (input: z.infer<typeof ErasureInput> | z.infer<typeof AccessInput>): Names => ({
  purposeIds: input.request?.purposes ?? [],
  dataGroupIds: input.request?.dataGroups ?? [],
});

export function preparePermission(found: Lookup, input: z.infer<typeof PermissionInput>): Prepared {
  const problems = new Problems();
  requireIdentity(found, problems, input.identityId);
  const contributions: Contribution[] = [];
  const recorded = input.request.purposes.map((entry, i) => {
    const at = `request.purposes.${i}`;
    const purpose = found.purposes.get(entry.purposeId);
    if (!purpose) {
      problems.add(`${at}.purposeId`, `No purpose ${entry.purposeId} in this project.`);
      return entry;
    }
    const version = entry.version ?? purpose.version;
    const content = found.versions.get(`${entry.purposeId}@${version}`);
    if (!content) {
      problems.add(`${at}.version`, `Purpose ${entry.purposeId} has no version ${version}.`);
      return entry;
    }
    if (entry.referenceId !== undefined && entry.referenceId !== content.referenceId) {
      problems.add(`${at}.referenceId`, `Purpose ${entry.purposeId} has referenceId ${content.referenceId}.`);
    }
    const grants = <G extends { referenceId?: string; status: "approved" | "denied" }>(
      field: "dataGroups" | "processors" | "recipients",
      list: G[],
      idOf: (g: G) => string,
      refs: Map<string, string>,
      what: string,
    ) =>
      list.map((grant, j) => {
        const id = idOf(grant);
        if (!content[field].includes(id)) {
          problems.add(`${at}.${field}.${j}`, `${what} ${id} is not among the ${field} of purpose ${entry.purposeId} version ${version}.`);
        } else if (grant.referenceId !== undefined && grant.referenceId !== refs.get(id)) {
          problems.add(`${at}.${field}.${j}.referenceId`, `${what} ${id} has referenceId ${refs.get(id)}.`);
        }
        return { ...grant, referenceId: refs.get(id) ?? grant.referenceId, status: grant.status };
      });
    const dataGroups = grants("dataGroups", entry.dataGroups, (g) => g.dataGroupId, found.dataGroupRefs, "Data group");
    const processors = grants("processors", entry.processors, (g) => g.partyId, found.partyRefs, "Party");
    const recipients = grants("recipients", entry.recipients, (g) => g.partyId, found.partyRefs, "Party");
    contributions.push({
      purposeId: entry.purposeId,
      status: entry.status,
      version,
      ...(entry.status === "denied" ? deniedAll(found, content) : { dataGroups, processors, recipients }),
    });
    return { purposeId: entry.purposeId, referenceId: content.referenceId, version, status: entry.status, dataGroups, processors, recipients };
  });
  problems.throwIfAny();
  return { request: { purposes: recorded }, contributions };
}

/**
 * A completed objection denies each purpose it names, wholly, at the version current when it was made; data
 * groups it names narrow what is recorded as objected to, but the state's unit is the purpose (privacy-protective).
 */
export function prepareObjection(found: Lookup, input: z.infer<typeof ObjectionInput>): Prepared {
  const problems = new Problems();
  requireIdentity(found, problems, input.identityId);
  const contributions: Contribution[] = [];
  const recorded = input.request.purposes.map((entry, i) => {
    const purpose = found.purposes.get(entry.purposeId);
    if (!purpose) {
      problems.add(`request.purposes.${i}.purposeId`, `No purpose ${entry.purposeId} in this project.`);
      return entry;
    }
    entry.dataGroups?.forEach((id, j) => {
      if (!purpose.content.dataGroups.includes(id)) {
        problems.add(`request.purposes.${i}.dataGroups.${j}`, `Data group ${id} is not used by purpose ${entry.purposeId}.`);
      }
    });
    contributions.push({ purposeId: entry.purposeId, status: "denied", version: purpose.version, ...deniedAll(found, purpose.content) });
    return { purposeId: entry.purposeId, referenceId: purpose.content.referenceId, version: purpose.version, ...(entry.dataGroups ? { dataGroups: entry.dataGroups } : {}) };
  });
  problems.throwIfAny();
  return { request: { purposes: recorded }, contributions };
}

export function prepareScoped(found: Lookup, input: z.infer<typeof ErasureInput> | z.infer<typeof AccessInput>): Prepared {
  const scope = input.request;
  const problems = new Problems();
  requireIdentity(found, problems, input.identityId);
  scope?.purposes?.forEach((id, i) => {
    if (!found.purposes.has(id)) problems.add(`request.purposes.${i}`, `No purpose ${id} in this project.`);
  });
  scope?.dataGroups?.forEach((id, i) => {
    if (!found.dataGroupRefs.has(id)) problems.add(`request.dataGroups.${i}`, `No data group ${id} in this project.`);
  });
  problems.throwIfAny();
  return { request: scope ?? null, contributions: [] };
}

/** What a body names, with the purposes it says ran under an exemption (their versions are checked and hashed too). */
export const withExempt = (names: Names, exempt: RanExempt[]): Names =>
  exempt.length ? { ...names, purposeIds: [...new Set([...names.purposeIds, ...exempt.map((entry) => entry.purposeId)])] } : names;

/**
 * A stated exemption must be the one the purpose's version carries: the record, its receipt and its log entry then
 * say truly which purposes ran without consent, and why.
 */
export function checkExemptions(found: Lookup, exempt: RanExempt[]) {
  const problems = new Problems();
  const wrong: FieldError[] = [];
  exempt.forEach((entry, i) => {
    const at = `meta.context.exemptions.${i}`;
    const content = found.versions.get(`${entry.purposeId}@${entry.version}`);
    if (!found.purposes.has(entry.purposeId) && !content) return problems.add(`${at}.purposeId`, `No purpose ${entry.purposeId} in this project.`);
    if (!content) return problems.add(`${at}.version`, `Purpose ${entry.purposeId} has no version ${entry.version}.`);
    const carried = content.exemption;
    if (carried?.reason === entry.reason && carried.regime === entry.regime) return;
    const what = `Purpose ${entry.purposeId} version ${entry.version}`;
    wrong.push({
      path: at,
      code: "not_exempt",
      message: carried ? `${what} is exempt for ${carried.reason} under ${carried.regime}.` : `${what} is not exempt from consent.`,
    });
  });
  problems.throwIfAny();
  if (wrong.length) throw badRequest("validation_failed", "The request has invalid fields; see `errors`.", wrong);
}
