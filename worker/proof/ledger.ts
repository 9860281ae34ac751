import { access } from "../auth/scopes";
import { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { issuerOf } from "../auth/tokens";
import type { Env } from "../env";
import { dispatchSoon } from "../events/outbox";
import { identities } from "../identities/table";
import { hex, sha256Hex } from "../lib/crypto";
import { getDb } from "../lib/db";
import { notFound } from "../lib/errors";
import { createRouter, defineRoute } from "../lib/router";
import { jsonResponse, problems, ProjectParams } from "../lib/schemas";
import { projects } from "../projects/table";
import { eraseIdentity } from "../requests/record";

/**
 * The erasure ledger: the salted SHA-256 of every erased identity id, kept in KV, outside the database, so that
 * an erasure survives a D1 restore (Time Travel brings rows back) and can be applied again. It holds no personal
 * data: a hash of a random id under a per-project salt.
 */
const saltKey = (projectId: string) => `erasure-salt:${projectId}`;
const entryPrefix = (projectId: string) => `erasure:${projectId}:`;

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
  const hash = await subjectHash(await projectSalt(env, projectId), identityId);
  await env.KV.put(`${entryPrefix(projectId)}${hash}`, JSON.stringify({ erased: stamp }));
  return hash;
}

/** Erases again every identity of the project whose salted hash is in the ledger; returns their ids. */
export async function reapplyErasures(env: Env, db: D1Database, issuer: string, projectId: string) {
  const salt = await env.KV.get(saltKey(projectId));
  const ledger = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await env.KV.list({ prefix: entryPrefix(projectId), cursor });
    for (const key of page.keys) ledger.add(key.name.slice(entryPrefix(projectId).length));
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  const reapplied: string[] = [];
  if (salt && ledger.size > 0) {
    const rows = await getDb(db).select({ id: identities.id }).from(identities).where(eq(identities.projectId, projectId));
    const caller = { projectId, clientId: "erasure-ledger", clientType: "backend" as const, scopes: [] };
    for (const { id } of rows) {
      if (ledger.has(await subjectHash(salt, id)) && (await eraseIdentity({ env, db, issuer, caller }, id))) reapplied.push(id);
    }
  }
  return { ledgerEntries: ledger.size, reapplied };
}

export const ledgerRoutes = createRouter();

ledgerRoutes.openapi(
  defineRoute({
    method: "post",
    path: "/reapply",
    operationId: "reapplyErasures",
    tags: ["Admin"],
    ...access.admin,
    summary: "Re-apply the erasure ledger after a database restore",
    description:
      "Deletes again every identity of the project whose salted hash the erasure ledger (KV) holds: identities that " +
      "a D1 restore brought back. Each goes through the normal identity deletion (event, log entry). `npm run reapply-erasures`.",
    request: { params: ProjectParams },
    responses: {
      200: jsonResponse(z.object({ ledgerEntries: z.number().int(), reapplied: z.array(z.string()) }), "What was erased again."),
      ...problems,
    },
  }),
  async (c) => {
    const { project_id: projectId } = c.req.valid("param");
    const [project] = await getDb(c.var.db).select({ id: projects.id }).from(projects).where(eq(projects.id, projectId));
    if (!project) throw notFound("Project");
    const result = await reapplyErasures(c.env, c.var.db, issuerOf(c.env), projectId);
    if (result.reapplied.length) dispatchSoon(c, projectId);
    return c.json(result, 200);
  },
);
