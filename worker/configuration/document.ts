import type { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { sha256Hex } from "../lib/crypto";
import type { Db } from "../lib/db";
import { toParty } from "../parties/queries";
import { parties } from "../parties/table";
import { projects } from "../projects/table";
import { uiStrings } from "../wording/table";
import { livePurpose } from "./queries";
import type { Configuration } from "./schemas";
import { dataGroups, purposes } from "./table";

export type ConfigurationDocument = z.infer<typeof Configuration>;
/** The project's own wording of the widget, per language (the bootstrap serves it with the configuration). */
export type Wording = { language: string; strings: Record<string, string> }[];

/**
 * The whole current configuration (GET /privacy/v1/configurations, and the bootstrap's before it is narrowed to
 * one language): the project, and every live purpose with its data groups and parties expanded; and the project's
 * wording of the widget. One round trip.
 */
export async function loadConfiguration(
  db: Db,
  projectId: string,
): Promise<{ configuration: ConfigurationDocument; wording: Wording } | undefined> {
  const [projectRows, purposeRows, groupRows, partyRows, wording] = await db.batch([
    db.select().from(projects).where(eq(projects.id, projectId)).limit(1),
    db.select().from(purposes).where(livePurpose(projectId)).orderBy(purposes.id),
    db.select().from(dataGroups).where(eq(dataGroups.projectId, projectId)),
    db.select().from(parties).where(eq(parties.projectId, projectId)),
    db.select({ language: uiStrings.language, strings: uiStrings.strings }).from(uiStrings).where(eq(uiStrings.projectId, projectId)),
  ]);
  const project = projectRows[0];
  if (!project) return undefined;
  const groups = new Map(groupRows.map((g) => [g.id, g]));
  const partyById = new Map(partyRows.map((p) => [p.id, toParty(p)]));
  const expandParties = (ids: string[]) => ids.flatMap((id) => partyById.get(id) ?? []);
  const configuration: ConfigurationDocument = {
    projectId,
    project: {
      name: project.name,
      controller: project.controller ?? null,
      policies: project.policies,
      jurisdiction: project.jurisdiction ?? null,
      defaultLanguage: project.defaultLanguage,
    },
    purposes: purposeRows.map(({ id, version, content }) => ({
      purposeId: id,
      referenceId: content.referenceId,
      version,
      legalGround: content.legalGround,
      name: content.name,
      description: content.description,
      dataGroups: content.dataGroups.flatMap((groupId) => {
        const group = groups.get(groupId);
        return group ? [{ dataGroupId: group.id, referenceId: group.referenceId, name: group.name, description: group.description }] : [];
      }),
      controllers: expandParties(content.controllers),
      processors: expandParties(content.processors),
      recipients: expandParties(content.recipients),
      consentMode: content.consentMode ?? [],
      exemption: content.exemption ?? null,
      sensitive: content.sensitive ?? false,
      sensitiveCategories: content.sensitiveCategories ?? [],
    })),
  };
  return { configuration, wording };
}

export type CachedConfiguration = { configuration: ConfigurationDocument; wording: Wording; etag: string };

/** Cache entries live a day at most; they never go stale before that, because a change makes a new key. */
const cacheSeconds = 86_400;

/**
 * The configuration through the edge cache (Cache API). The key holds the project's configuration version,
 * which D1 triggers bump on every change to the project, its purposes, data groups, parties, jurisdiction
 * rules, Consent Mode settings or wording of the widget: a change is visible at once in every data centre, and old entries are
 * simply never asked for again. (The Cache API is per data centre and does nothing on workers.dev; then every
 * call reads D1.)
 */
export async function cachedConfiguration(
  db: Db,
  requestUrl: string,
  waitUntil: (promise: Promise<unknown>) => void,
  projectId: string,
  version: number,
): Promise<CachedConfiguration | undefined> {
  const key = new Request(`${new URL(requestUrl).origin}/__assent-cache/configuration-and-wording/${encodeURIComponent(projectId)}/${version}`);
  const cache = await caches.open("assent-configuration");
  const hit = await cache.match(key);
  if (hit) return { ...(await hit.json<Omit<CachedConfiguration, "etag">>()), etag: hit.headers.get("etag")! };
  const loaded = await loadConfiguration(db, projectId);
  if (!loaded) return undefined;
  const etag = `"${(await sha256Hex(JSON.stringify(loaded.configuration))).slice(0, 32)}"`;
  const text = JSON.stringify(loaded);
  waitUntil(
    cache.put(key, new Response(text, { headers: { "content-type": "application/json", etag, "cache-control": `max-age=${cacheSeconds}` } })),
  );
  return { ...loaded, etag };
}

/** What a stored decision must match: SHA-256 (hex) of the live purposes' `id:version`, in id order, joined by ",". */
export const purposesFingerprint = (configuration: ConfigurationDocument) =>
  sha256Hex(configuration.purposes.map((p) => `${p.purposeId}:${p.version}`).join(","));
