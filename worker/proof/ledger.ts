import type { Env } from "../env";
import { hex, sha256Hex } from "../lib/crypto";
import { ApiError } from "../lib/errors";
import { kvFailed, kvKey } from "../lib/kv";

/**
 * The erasure ledger: the salted SHA-256 of every erased identity id, kept in KV, outside the database, so that
 * an erasure survives a D1 restore (Time Travel brings rows back) and can be applied again. It holds no personal
 * data: a hash of a random id under a per-project salt.
 */
const saltKey = (projectId: string) => kvKey("erasure-salt:", projectId);
const entryPrefix = (projectId: string) => kvKey("erasure:", `${projectId}:`);

async function projectSalt(env: Env, projectId: string): Promise<string> {
  const known = await env.KV.get(saltKey(projectId));
  if (known) return known;
  const salt = hex(crypto.getRandomValues(new Uint8Array(16)));
  await env.KV.put(saltKey(projectId), salt);
  return salt;
}

const subjectHash = (salt: string, identityId: string) => sha256Hex(`${salt}:${identityId}`);

/**
 * Records an erasure before it is carried out and returns its salted subject hash (which the log keeps): if the
 * deletion then fails, re-applying it later does what the controller asked; if the ledger write fails, nothing
 * is deleted and the caller sees the error. Recording the same erasure again is harmless.
 */
export async function recordErasure(env: Env, projectId: string, identityId: string, stamp: string): Promise<string> {
  try {
    const hash = await subjectHash(await projectSalt(env, projectId), identityId);
    await env.KV.put(`${entryPrefix(projectId)}${hash}`, JSON.stringify({ erased: stamp }));
    return hash;
  } catch (error) {
    kvFailed("put", "erasure:", error);
    throw new ApiError(503, "ledger_unavailable", "The erasure ledger cannot be written right now, so nothing was erased; try again.", {
      headers: { "Retry-After": "60" },
    });
  }
}

/** What the ledger holds for the project: whether an identity id is among its erasures, and how many there are. */
export async function ledgerOf(env: Env, projectId: string) {
  const salt = await env.KV.get(saltKey(projectId));
  const hashes = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await env.KV.list({ prefix: entryPrefix(projectId), cursor });
    for (const key of page.keys) hashes.add(key.name.slice(entryPrefix(projectId).length));
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  return {
    entries: hashes.size,
    holds: async (identityId: string) => salt !== null && hashes.has(await subjectHash(salt, identityId)),
  };
}
