import { eq } from "drizzle-orm";
import type { Databases, Env } from "../env";
import { getDb } from "../lib/db";
import { kvFailed, kvKey, type KvPrefix } from "../lib/kv";
import { ttlCache } from "../../shared/ttl-cache";
import { scopesOfClient, type ClientScope, type ClientType } from "./scopes";
import { clients } from "./table";

/** What a token check needs to know about a client. */
export type ClientRecord = {
  projectId: string;
  type: ClientType;
  /** Prefix of the current secret's hash: tokens minted under an older secret carry another one. */
  secretVersion: string;
  allowedOrigins: string[];
  /** What its tokens may do now: narrowing a client narrows the tokens it already holds. */
  scopes: readonly ClientScope[];
};

// v2: records carry `scopes`; older cached shapes lack them.
const clientPrefix = "client:v2:" satisfies KvPrefix;
const keyOf = (clientId: string) => kvKey(clientPrefix, clientId);
const kvTtlSeconds = 60;
const local = ttlCache<ClientRecord | null>(5_000);

export const secretVersionOf = (secretHash: string) => secretHash.slice(0, 16);

/**
 * Client lookup for token checks: isolate memory (5 s), then KV (edge-cached 60 s), then D1: the database of
 * `projectId`, the project the token names (a client of another project is not found there, and the caller
 * compares the record's project anyway). D1 is the source of truth and KV only a cache, so a KV failure degrades
 * to D1 instead of failing.
 */
export async function readClient(env: Env, databases: Databases, clientId: string, projectId: string): Promise<ClientRecord | null> {
  const hit = local.get(clientId);
  if (hit !== undefined) return hit;
  let record: ClientRecord | null | undefined;
  try {
    record = await env.KV.get<ClientRecord>(keyOf(clientId), { type: "json", cacheTtl: kvTtlSeconds });
  } catch (error) {
    kvFailed("get", clientPrefix, error);
  }
  if (!record) {
    record = await loadClient(databases.project(projectId), clientId);
    if (record) {
      await env.KV.put(keyOf(clientId), JSON.stringify(record), { expirationTtl: 3600 }).catch((error: unknown) => kvFailed("put", clientPrefix, error));
    }
  }
  local.set(clientId, record);
  return record;
}

/** The project of a client as the caches know it (isolate memory, then KV), without reading D1. */
export async function cachedProjectOf(env: Env, clientId: string): Promise<string | undefined> {
  const hit = local.get(clientId);
  if (hit) return hit.projectId;
  try {
    return (await env.KV.get<ClientRecord>(keyOf(clientId), { type: "json", cacheTtl: kvTtlSeconds }))?.projectId;
  } catch (error) {
    kvFailed("get", clientPrefix, error);
    return undefined;
  }
}

async function loadClient(d1: D1Database, clientId: string): Promise<ClientRecord | null> {
  const [row] = await getDb(d1).select().from(clients).where(eq(clients.id, clientId)).limit(1);
  return row
    ? {
        projectId: row.projectId,
        type: row.type,
        secretVersion: secretVersionOf(row.secretHash),
        allowedOrigins: row.allowedOrigins,
        scopes: scopesOfClient(row.type, row.scopes),
      }
    : null;
}

/** Drops a client from both caches after its record changed in D1 (new secret, deletion). */
export async function forgetClients(env: Env, clientIds: string[]): Promise<void> {
  for (const id of clientIds) local.delete(id);
  await Promise.all(clientIds.map((id) => env.KV.delete(keyOf(id)).catch((error: unknown) => kvFailed("delete", clientPrefix, error))));
}
