import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { patternCovers, ruleParts, vendorCovering } from "../../shared/blocking/hosts";
import type { BlockingScriptConfig } from "../../shared/blocking/script-config";
import { vendors } from "../../shared/vendors/catalogue";
import { clients } from "../auth/table";
import { purposes } from "../configuration/table";
import { consentModeOf } from "../consent-mode/defaults";
import { defaultRules } from "../jurisdictions/rules";
import { atomically, getDb } from "../lib/db";
import { badRequest, maxListedErrors, type FieldError } from "../lib/errors";
import { projects } from "../projects/table";
import type { BlockingList } from "./schemas";
import { blockingEntries } from "./table";

/** What a project without a list blocks: nothing. */
const emptyList: BlockingList = { enabled: false, entries: [] };

/** The project's list as stored, in the operator's order; null when there is no such project. */
export async function readBlockingList(d1: D1Database, projectId: string): Promise<BlockingList | null> {
  const db = getDb(d1);
  const [[project], rows] = await db.batch([
    db.select({ settings: projects.blocking }).from(projects).where(eq(projects.id, projectId)).limit(1),
    db
      .select({ host: blockingEntries.host, purpose: blockingEntries.purpose, source: blockingEntries.source, vendor: blockingEntries.vendor })
      .from(blockingEntries)
      .where(eq(blockingEntries.projectId, projectId))
      .orderBy(asc(blockingEntries.position)),
  ]);
  if (!project) return null;
  if (!project.settings) return emptyList;
  return { enabled: project.settings.enabled, entries: rows.map(({ vendor, ...entry }) => (vendor === null ? entry : { ...entry, vendor })) };
}

/**
 * What a page holds back for a project (the blocker's inlined list, and the edge rewriter's): each entry with its
 * vendor resolved (the entry's own, else the catalogue vendor that lists the host), so the vendor's consent call and
 * placeholder apply to entries added by hand or from a scan too. Empty when blocking is switched off; null when there
 * is no such project.
 */
export async function pageBlockingOf(d1: D1Database, projectId: string): Promise<BlockingScriptConfig["entries"] | null> {
  const list = await readBlockingList(d1, projectId);
  if (!list) return null;
  if (!list.enabled) return [];
  return list.entries.map(({ host, purpose, vendor }) => ({ host, purpose, vendor: vendor ?? vendorCovering(vendors, host)?.id ?? null }));
}

/**
 * The Consent Mode commands a project's pages start with (settings and region-scoped defaults, as the bootstrap
 * derives them from the jurisdiction rules and the purposes' types); undefined while Consent Mode is off.
 */
export async function pageConsentModeOf(d1: D1Database, projectId: string): Promise<BlockingScriptConfig["consentMode"]> {
  const db = getDb(d1);
  const [[project], rows] = await db.batch([
    db.select({ settings: projects.consentMode, rules: projects.jurisdictionRules }).from(projects).where(eq(projects.id, projectId)).limit(1),
    db
      .select({ content: purposes.content })
      .from(purposes)
      .where(and(eq(purposes.projectId, projectId), isNull(purposes.deleted))),
  ]);
  if (!project?.settings?.enabled) return undefined;
  const mapped = rows.map(({ content }) => ({ legalGround: content.legalGround, consentMode: content.consentMode ?? [] }));
  return consentModeOf(project.settings, project.rules ?? defaultRules, mapped);
}

/**
 * Refuses a list that names a purpose the project does not have, or that would hold back the service's own
 * origin (where the widget loads from) or one of the project's own pages (its web clients' `allowedOrigins`):
 * blocking those would block the widget, or the site itself. False when there is no such project.
 */
export async function checkAgainstProject(d1: D1Database, projectId: string, list: BlockingList, serviceHosts: string[]): Promise<boolean> {
  const db = getDb(d1);
  const [[project], purposeRows, webClients] = await db.batch([
    db.select({ id: projects.id }).from(projects).where(eq(projects.id, projectId)).limit(1),
    db
      .select({ referenceId: purposes.referenceId })
      .from(purposes)
      .where(and(eq(purposes.projectId, projectId), isNull(purposes.deleted))),
    db
      .select({ allowedOrigins: clients.allowedOrigins })
      .from(clients)
      .where(and(eq(clients.projectId, projectId), eq(clients.type, "web"))),
  ]);
  if (!project) return false;
  const known = new Set(purposeRows.map((row) => row.referenceId));
  const pageHosts = webClients.flatMap((client) => client.allowedOrigins.flatMap((origin) => hostOf(origin) ?? []));
  const unknownPurposes: FieldError[] = [];
  const ownOrigins: FieldError[] = [];
  list.entries.forEach(({ host: rule, purpose }, index) => {
    // A path prefix does not make a rule over the site's or the service's own host acceptable.
    const [host] = ruleParts(rule);
    if (!known.has(purpose)) {
      unknownPurposes.push({ path: `entries.${index}.purpose`, message: `The project has no purpose ${purpose}.`, code: "unknown_purpose" });
    }
    const service = serviceHosts.find((own) => patternCovers(host, own));
    const page = pageHosts.find((own) => patternCovers(host, own));
    if (service || page) {
      const whose = service ? `the service's own host ${service}, where the widget loads from` : `${page}, one of the project's own pages (a web client's allowedOrigins)`;
      ownOrigins.push({ path: `entries.${index}.host`, message: `${rule} would block ${whose}.`, code: "blocks_own_origin" });
    }
  });
  if (ownOrigins.length > 0) {
    throw badRequest("blocks_own_origin", "The list would hold back the widget or the site's own pages; see `errors`.", ownOrigins.slice(0, maxListedErrors));
  }
  if (unknownPurposes.length > 0) {
    throw badRequest("unknown_purpose", "The list names purposes the project does not have; see `errors`.", unknownPurposes.slice(0, maxListedErrors));
  }
  return true;
}

/** The host of a URL or origin; null when it is not one. */
export const hostOf = (url: string) => {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
};

/**
 * Replaces the project's list in one batch: its switch, and its entries, inserted by one statement from one JSON
 * parameter (D1 binds at most 100 values per statement; the list holds up to 500 entries).
 */
export async function saveBlockingList(d1: D1Database, projectId: string, list: BlockingList) {
  const db = getDb(d1);
  const rows = JSON.stringify(list.entries.map((entry, position) => ({ ...entry, position })));
  await atomically(d1, [
    db.update(projects).set({ blocking: { enabled: list.enabled } }).where(eq(projects.id, projectId)),
    db.delete(blockingEntries).where(eq(blockingEntries.projectId, projectId)),
    sql`INSERT INTO ${blockingEntries} (project_id, position, host, purpose, source, vendor)
      SELECT ${projectId}, value ->> 'position', value ->> 'host', value ->> 'purpose', value ->> 'source', value ->> 'vendor'
      FROM json_each(${rows})`,
  ]);
}
