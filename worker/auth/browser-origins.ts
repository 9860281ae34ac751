import { and, asc, eq, sql, type SQL } from "drizzle-orm";
import type { Env } from "../env";
import { databasesOf } from "../lib/databases";
import { getDb, type Db } from "../lib/db";
import { ttlCache } from "../../shared/ttl-cache";
import { clients } from "./table";

/**
 * Which origins a browser may call from: those listed in `allowedOrigins` of a project's clients.
 * Answers are kept in the isolate for 10 s, so a removed origin stops working within 10 s.
 */
const cache = ttlCache<string | null>(10_000);

const listsOrigin = (origin: string): SQL =>
  sql`exists (select 1 from json_each(${clients.allowedOrigins}) where json_each.value = ${origin})`;

async function cached(key: string, load: () => Promise<string | null>): Promise<string | null> {
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const value = await load();
  cache.set(key, value);
  return value;
}

/**
 * The id of a client that lists `origin`: within `projectId` when given, in any project otherwise (a CORS
 * preflight of a path without a project carries no token, so it can only be checked against all projects;
 * the real request is then checked against the token's project). Web clients come first.
 */
export function clientForOrigin(env: Env, origin: string, projectId?: string): Promise<string | null> {
  return cached(`${projectId ?? "*"} ${origin}`, async () => {
    // Every project's database when no project is named (worker/lib/databases.ts). CORS runs around the call's
    // sessions, so it reads the bindings (the primaries).
    const bindings = databasesOf(env);
    const databases = projectId ? [bindings.project(projectId)] : bindings.every();
    const rows = await Promise.all(
      databases.map((d1) =>
        getDb(d1)
          .select({ id: clients.id })
          .from(clients)
          .where(projectId ? and(eq(clients.projectId, projectId), listsOrigin(origin)) : listsOrigin(origin))
          .orderBy(sql`${clients.type} <> 'web'`, asc(clients.id))
          .limit(1),
      ),
    );
    return rows.flat()[0]?.id ?? null;
  });
}

/** The web client of `projectId` that lists `origin`, as a query (the bootstrap sends it in its own batch). */
export const webClientQuery = (db: Db, projectId: string, origin: string) =>
  db
    .select()
    .from(clients)
    .where(and(eq(clients.projectId, projectId), eq(clients.type, "web"), listsOrigin(origin)))
    .orderBy(asc(clients.id))
    .limit(1);

/** The web client of `projectId` that lists `origin`, uncached: it decides who may mint visitor tokens. */
export async function webClientForOrigin(d1: D1Database, projectId: string, origin: string) {
  const [row] = await webClientQuery(getDb(d1), projectId, origin);
  return row;
}

/** Every origin the project's web clients list, each once: the sites the project runs on. */
export async function webOriginsOf(d1: D1Database, projectId: string): Promise<string[]> {
  const rows = await getDb(d1)
    .select({ allowedOrigins: clients.allowedOrigins })
    .from(clients)
    .where(and(eq(clients.projectId, projectId), eq(clients.type, "web")));
  return [...new Set(rows.flatMap((row) => row.allowedOrigins))];
}
